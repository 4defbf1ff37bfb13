"""Real answers in a flowchart dataset (issue 23): chat answers unwrapped for every format,
unreadable and missing answers scored as an empty prediction and listed, ``readable`` per
flowchart and in the totals, ``strict`` and ``allow_missing``, texts given in memory
(``evaluate`` with ``{id: text}``, ``score_pair``), and Mermaid's own syntax check."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from fc_helpers import Option, to_dot, to_mermaid, write_preds, write_truth
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_helpers import Cli
from mermaid_ref import install_dir
from parsescore.core.api import evaluate, score_pair
from parsescore.core.errors import InputError
from parsescore.core.results import Result

DATA = Path(str(files("parsescore") / "data" / "flowchart"))
TRUTH = DATA / "ground-truth"
PREDS = {
    p.stem: json.loads(p.read_text(encoding="utf-8")) for p in (DATA / "predictions").glob("*.json")
}
STEMS = sorted(PREDS)
CONVERT: dict[str, Callable[[dict[str, Any]], str]] = {
    "json": lambda pred: json.dumps(pred, indent=2),
    "mermaid": to_mermaid,
    "dot": to_dot,
}
SUFFIX = {"json": ".json", "mermaid": ".mmd", "dot": ".dot"}
INFO = {"json": "json", "mermaid": "mermaid", "dot": "dot"}
_SLOW = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_FEW = settings(_SLOW, max_examples=3)


def _score(pred: Any, truth: Any = TRUTH, **options: Any) -> Result:
    return evaluate("flowchart", truth, pred, quiet=True, **options)


def _answers(fmt: str) -> dict[str, str]:
    return {stem: CONVERT[fmt](pred) for stem, pred in PREDS.items()}


BARE = {fmt: _score(_answers(fmt)) for fmt in CONVERT}


def _without(items: dict[str, dict[str, float]], stem: str) -> dict[str, dict[str, float]]:
    return {k: v for k, v in items.items() if k != stem}


# --- chat answers ------------------------------------------------------------------------------


@st.composite
def wrappings(draw: st.DrawFn, fmt: str) -> tuple[Callable[[str], str], str | None]:
    """A chat answer around a content: prose, a fence (``` or ~~~ of any length, an info
    string naming the format, another or none), a <think> block; and the info string."""
    fenced = draw(st.booleans())
    before = draw(st.sampled_from(["", "Sure! Here is the flowchart:\n\n", "Answer:\n"]))
    after = draw(st.sampled_from(["", "\nLet me know if you need changes.\n"]))
    think = draw(st.sampled_from(["", "<think>It shows a CONSORT flow.</think>\n"]))
    fence = draw(st.sampled_from("`~")) * draw(st.integers(3, 5))
    info = draw(st.sampled_from([INFO[fmt], "", f"{INFO[fmt]} title=x"]))

    def wrap(content: str) -> str:
        if not fenced:
            return think + content
        return f"{think}{before}{fence}{info}\n{content}\n{fence}\n{after}"

    return wrap, info if fenced else None


def _check_wrapped(fmt: str, data: st.DataObject) -> None:
    stem = data.draw(st.sampled_from(STEMS))
    wrap, info = data.draw(wrappings(fmt))
    answers = _answers(fmt)
    answers[stem] = wrap(answers[stem])
    found = _score(answers)
    assert found.items == BARE[fmt].items
    assert found.totals == BARE[fmt].totals
    assert found.dataset["fenced"] == ({} if info is None else {stem: info})
    assert found.dataset["unreadable"] == {}


@pytest.mark.parametrize("fmt", ["json", "mermaid"])
@_SLOW
@given(data=st.data())
def test_a_wrapped_answer_scores_as_its_content(fmt: str, data: st.DataObject) -> None:
    _check_wrapped(fmt, data)


@_FEW  # pydot reads DOT slowly
@given(data=st.data())
def test_a_wrapped_dot_answer_scores_as_its_content(data: st.DataObject) -> None:
    _check_wrapped("dot", data)


def test_wrapped_answer_files_score_as_their_content(tmp_path: Path) -> None:
    """Files of every format, each a chat answer; `.mmd` with prose and a fenced block was
    refused (exit 2 for the whole run) before."""
    bare, wrapped = tmp_path / "bare", tmp_path / "wrapped"
    bare.mkdir()
    wrapped.mkdir()
    for k, stem in enumerate(STEMS):
        fmt = list(CONVERT)[k % 3]
        content = CONVERT[fmt](PREDS[stem])
        (bare / f"{stem}{SUFFIX[fmt]}").write_text(content, encoding="utf-8")
        answer = f"Here it is:\n\n```{INFO[fmt]}\n{content}```\nDone.\n"
        (wrapped / f"{stem}{SUFFIX[fmt]}").write_text(answer, encoding="utf-8")
    plain, chat = _score(bare), _score(wrapped)
    assert chat.items == plain.items and chat.totals == plain.totals
    assert chat.dataset["fenced"] == {
        stem: INFO[list(CONVERT)[k % 3]] for k, stem in enumerate(STEMS)
    }
    assert plain.dataset["fenced"] == {}


# --- unreadable and missing answers ------------------------------------------------------------

GARBAGE = {
    "prose": "I'm sorry, I cannot read this image.",
    "broken json": '{"nodes": [{"node_number": 1, "text": "Screened"',
    "broken mermaid": "flowchart TD\n  A[Screened] -->|eligible|\n  B",
    "broken dot": "digraph { a -> ; }",
    "empty": "",
    "wrong structure": '{"diagram": {"nodes": []}}',
    "unknown target": json.dumps(
        {
            "nodes": [{"node_number": 1, "text": "A", "labels": [], "points_to": [7]}],
            "additional_texts": [],
        }
    ),
    "no nodes": "flowchart TD\n",
}


@functools.cache
def _absent(fmt: str, stem: str) -> Result:
    """The dataset without ``stem``'s answer."""
    return _score({k: v for k, v in _answers(fmt).items() if k != stem})


def _check_garbage(fmt: str, stem: str, garbage: str) -> None:
    answers = _answers(fmt)
    answers[stem] = GARBAGE[garbage]
    found = _score(answers)
    assert _without(found.items, stem) == _without(BARE[fmt].items, stem)
    assert list(found.dataset["unreadable"]) == [stem]
    assert found.items[stem]["readable"] == 0.0
    assert found.totals["readable"] == (len(STEMS) - 1) / len(STEMS)
    absent = _absent(fmt, stem)
    assert found.items[stem] == absent.items[stem]  # an unreadable answer scores as a missing one
    assert absent.dataset["missing"] == [stem] and absent.dataset["unreadable"] == {}
    assert absent.totals["readable"] == found.totals["readable"]


@pytest.mark.parametrize("fmt", ["json", "mermaid"])
@_SLOW
@given(stem=st.sampled_from(STEMS), garbage=st.sampled_from(sorted(GARBAGE)))
def test_one_garbage_answer_changes_only_its_own_item(fmt: str, stem: str, garbage: str) -> None:
    _check_garbage(fmt, stem, garbage)


@_FEW  # pydot reads DOT slowly
@given(stem=st.sampled_from(STEMS), garbage=st.sampled_from(sorted(GARBAGE)))
def test_one_garbage_dot_answer_changes_only_its_own_item(stem: str, garbage: str) -> None:
    _check_garbage("dot", stem, garbage)


@_SLOW
@given(
    fates=st.lists(
        st.sampled_from(["kept", "missing", "garbage", "fenced"]),
        min_size=len(STEMS),
        max_size=len(STEMS),
    )
)
def test_readable_is_the_share_of_present_readable_answers(fates: list[str]) -> None:
    """Any mix of missing, unreadable and fenced answers: ``readable`` is the share of truth
    flowcharts whose answer was present and readable, and the other answers score as alone."""
    fate = dict(zip(STEMS, fates, strict=True))
    if all(f == "missing" for f in fates):
        fate[STEMS[0]] = "kept"  # some answer must match (else the names error)
    answers = {}
    for stem, text in _answers("json").items():
        if fate[stem] == "garbage":
            answers[stem] = GARBAGE["prose"]
        elif fate[stem] == "fenced":
            answers[stem] = f"```json\n{text}\n```"
        elif fate[stem] == "kept":
            answers[stem] = text
    found = _score(answers)
    good = [s for s in STEMS if fate[s] in ("kept", "fenced")]
    assert found.totals["readable"] == len(good) / len(STEMS)
    assert {s: found.items[s] for s in good} == {s: BARE["json"].items[s] for s in good}
    assert found.dataset["missing"] == [s for s in STEMS if fate[s] == "missing"]
    assert list(found.dataset["unreadable"]) == [s for s in STEMS if fate[s] == "garbage"]
    assert found.dataset["fenced"] == {s: "json" for s in STEMS if fate[s] == "fenced"}
    assert [found.items[s]["readable"] for s in STEMS] == [float(s in good) for s in STEMS]


def test_the_worst_is_exactly_an_empty_prediction(tmp_path: Path) -> None:
    """Every true node unmatched, in the option Flowde's rule chooses for a prediction of the
    folder's parts: equal text costs, no flow to tell them apart, the lower label cost."""
    truth = write_truth(
        tmp_path,
        {
            "d": [
                Option(
                    ["Screened (n = 10)", "Included"],
                    [(1, 2)],
                    [["Phase 1"], ["Phase 2"]],
                    ["Figure 1"],
                ),
                Option(["Included", "Screened (n = 10)"], [(2, 1)], None, ["Figure 1 (a)"]),
            ],
            "e": [Option(["A", "B"], [(1, 2)])],
        },
    )
    preds = {
        "e": {
            "nodes": [{"node_number": 1, "text": "A", "labels": [], "points_to": []}],
            "additional_texts": [],
        }
    }
    found = _score(write_preds(tmp_path / "pred", preds), truth)
    assert found.dataset["missing"] == ["d"]
    assert found.items["d"] == {
        "node_text_cost": 17.0 + 8.0,  # both texts against "", normalised
        "label_cost": 0.0,  # option 1: no labels (option 0's would cost 14)
        "additional_text_cost": 12.0,
        "flow_precision": 0.0,
        "flow_recall": 0.0,
        "flow_f1": 0.0,
        "flow_jaccard": 0.0,
        "readable": 0.0,
    }
    detail = found.details["d"]
    assert detail["option"] == 1 and detail["flow"]["fn"] == 1 and detail["flow"]["tp"] == 0
    assert [m["match_type"] for m in detail["node_matches"]] == ["unmatched_true"] * 2
    lone = score_pair("flowchart", "flowchart TD\n  A[Alone]", "not a flowchart")
    assert lone["flow_jaccard"] == 1.0 and lone["flow_f1"] == 0.0  # no edge on either side
    assert lone["node_text_cost"] == 5.0 and lone["readable"] == 0.0


def test_unreadable_answers_are_listed_with_their_place_and_warned(
    cli: Cli, tmp_path: Path
) -> None:
    pred = write_preds(tmp_path / "pred", PREDS)
    (pred / "example_0.json").unlink()
    (pred / "example_0.mmd").write_text(
        "Sure!\n\n```mermaid\nflowchart TD\n  A[Screened] -->|eligible|\n  B\n```\n"
    )
    found = _score(pred)
    reason = found.dataset["unreadable"]["example_0"]
    assert reason.startswith("line 5, column 28, in the fenced block from line 4: unexpected")
    assert found.dataset["fenced"] == {"example_0": "mermaid"}
    assert found.warnings[0].startswith("1 of 5 answers are unreadable (scored as missing")
    run = cli("flowchart", "--truth", TRUTH, "--pred", pred, "--csv", tmp_path / "o.csv")
    assert run.code == 0, run.err
    assert "readable answers 0.8000; 1 unreadable; 1 read from a fenced block" in run.out
    assert "(unreadable)" in run.out  # its row in the table
    assert "warning: 1 of 5 answers are unreadable" in run.err
    assert "readable" in (tmp_path / "o.csv").read_text().splitlines()[0]
    strict = cli("flowchart", "--truth", TRUTH, "--pred", pred, "--strict")
    assert strict.code == 2 and strict.err.count("\n") == 1 and "Traceback" not in strict.err
    assert f"error: {pred / 'example_0.mmd'} (line 5, column 28, in the fenced block" in strict.err
    with pytest.raises(InputError, match=r"example_0\.mmd"):
        _score(pred, strict=True)


def test_json_answers_follow_flowdes_rules_one_by_one(tmp_path: Path) -> None:
    """Each JSON answer is checked as Flowde checks a prediction file; the parts most answers
    share are the folder's, so an odd first answer leaves the others readable."""
    answers = {stem: dict(pred) for stem, pred in PREDS.items()}
    first, second, third = STEMS[:3]
    answers[first] = {"nodes": [{"node_number": 1, "text": "A"}]}  # other parts
    answers[second] = {
        **PREDS[second],
        "nodes": [*PREDS[second]["nodes"][:-1], {**PREDS[second]["nodes"][-1], "points_to": [999]}],
    }
    answers[third] = {
        **PREDS[third],
        "nodes": [{**PREDS[third]["nodes"][0], "text": ""}, *PREDS[third]["nodes"][1:]],
    }
    found = _score(write_preds(tmp_path / "pred", answers))
    reasons = found.dataset["unreadable"]
    assert sorted(reasons) == [first, second, third]
    assert "differ from the other answers'" in reasons[first]
    assert "points to 999, which is not a node" in reasons[second]
    assert "at least 1 character" in reasons[third]
    kept = [s for s in STEMS if s not in reasons]
    assert {s: found.items[s] for s in kept} == {s: BARE["json"].items[s] for s in kept}


def test_one_unreadable_part_file_makes_its_flowchart_unreadable(tmp_path: Path) -> None:
    texts, flow = {}, {}
    for stem, pred in PREDS.items():
        texts[stem] = {
            "nodes": [{k: n[k] for k in ("node_number", "text", "labels")} for n in pred["nodes"]],
            "additional_texts": pred["additional_texts"],
        }
        flow[stem] = {
            "nodes": [{k: n[k] for k in ("node_number", "points_to")} for n in pred["nodes"]]
        }
    flow[STEMS[1]]["nodes"].append({"node_number": 999, "points_to": []})  # numbers differ
    parts = [write_preds(tmp_path / "text", texts), write_preds(tmp_path / "flow", flow)]
    (parts[1] / f"{STEMS[2]}.json").write_text("{")
    found = _score(parts)
    assert sorted(found.dataset["unreadable"]) == STEMS[1:3]
    assert "differ from" in found.dataset["unreadable"][STEMS[1]]
    assert "malformed JSON" in found.dataset["unreadable"][STEMS[2]]
    kept = [STEMS[0], *STEMS[3:]]
    assert {s: found.items[s] for s in kept} == {s: BARE["json"].items[s] for s in kept}


def test_names_that_do_not_line_up(tmp_path: Path) -> None:
    partial = {stem: PREDS[stem] for stem in STEMS[:3]} | {"stray": PREDS[STEMS[0]]}
    found = _score(write_preds(tmp_path / "partial", partial))
    assert found.dataset["missing"] == STEMS[3:] and list(found.items) == STEMS
    assert found.totals["readable"] == 3 / 5
    assert found.warnings[0].startswith("2 of 5 diagrams have no answer (scored as empty)")
    assert "1 answers match no ground-truth flowchart (not scored): stray" in found.warnings
    only = _score(tmp_path / "partial", allow_missing=True)
    assert list(only.items) == STEMS[:3] and only.dataset["missing"] == STEMS[3:]
    assert only.items == {s: BARE["json"].items[s] for s in STEMS[:3]}
    assert only.totals["readable"] == 3 / 5 and only.native["missing_predictions"] == STEMS[3:]
    other = write_preds(tmp_path / "other", {"x_1": PREDS[STEMS[0]]})
    with pytest.raises(InputError, match=r"no answer in .*other matches a truth item.*'x_1'"):
        _score(other)
    with pytest.raises(InputError, match="did you swap --truth and --pred"):
        _score(TRUTH, truth=tmp_path / "partial")


# --- texts in memory -------------------------------------------------------------------------

TRUTH_MMD = """flowchart TD
  subgraph enrol [Enrolment]
    A["Assessed for eligibility<br>(n = 120)"] --> B{Eligible?}
  end
  B -->|yes| C[Randomised<br>n = 100]
  B -->|no| D[Excluded<br>n = 20]
"""
TRUTH_DOT = 'digraph { a [label="Screened"]; b [label="Included"]; a -> b [label="ok"]; }'
ANSWER_JSON = json.dumps(
    {
        "nodes": [
            {
                "node_number": 1,
                "text": "Assessed for eligibility (n=120)",
                "labels": ["Enrolment"],
                "points_to": [2],
            },
            {"node_number": 2, "text": "Eligible?", "labels": [], "points_to": [3]},
            {"node_number": 3, "text": "Randomised n = 100", "labels": [], "points_to": []},
        ],
        "additional_texts": [],
    }
)
ANSWER_MMD = (
    "```mermaid\nflowchart LR\n  A[Assessed for eligibility] --> B{Eligible?}\n"
    "  B -- Yes --> C[Randomised]\n```"
)
ANSWER_DOT = 'digraph G { s [label="Screened"]; s -> i [label="OK"]; i [label="Included"]; }'


def test_texts_in_memory_score_as_the_same_files(tmp_path: Path) -> None:
    truth_texts = {"m1": TRUTH_MMD, "m2": TRUTH_MMD, "m3": TRUTH_MMD, "g": TRUTH_DOT}
    answers = {"m1": ANSWER_JSON, "m2": ANSWER_MMD, "m3": ANSWER_DOT, "g": ANSWER_DOT}
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    for stem, text in truth_texts.items():
        (truth / f"{stem}{'.dot' if stem == 'g' else '.mmd'}").write_text(text)
    suffixes = {"m1": ".json", "m2": ".mmd", "m3": ".dot", "g": ".gv"}
    for stem, text in answers.items():
        (pred / f"{stem}{suffixes[stem]}").write_text(text)
    in_memory, on_disk = _score(answers, truth_texts), _score(pred, truth)
    assert in_memory.items == on_disk.items and in_memory.totals == on_disk.totals
    assert in_memory.details == on_disk.details
    assert in_memory.dataset == on_disk.dataset
    assert in_memory.inputs["formats"] == {
        "truth": {"mermaid": 3, "dot": 1},
        "pred": {"json": 1, "mermaid": 1, "dot": 2},
    }
    assert in_memory.items["g"]["edge_label_cost"] == 2.0  # "ok" vs "OK"
    for stem in truth_texts:
        one_truth, one_pred = tmp_path / f"t_{stem}", tmp_path / f"p_{stem}"
        one_truth.mkdir()
        one_pred.mkdir()
        (one_truth / f"pair{'.dot' if stem == 'g' else '.mmd'}").write_text(truth_texts[stem])
        (one_pred / f"pair{suffixes[stem]}").write_text(answers[stem])
        assert score_pair("flowchart", truth_texts[stem], answers[stem]) == dict(
            _score(one_pred, one_truth).items["pair"]
        )


def test_truth_texts_must_be_mermaid_or_dot() -> None:
    with pytest.raises(InputError, match=r"truth item 'a' \(line 1, column 1\): not a Mermaid"):
        _score({"a": ANSWER_DOT}, {"a": ANSWER_JSON})
    with pytest.raises(InputError, match=r"truth item 'a' \(line 2, column"):
        _score({"a": ANSWER_DOT}, {"a": "flowchart TD\n  A -->"})


# --- Mermaid's own syntax check ----------------------------------------------------------------

# a common model mistake: parentheses inside an unquoted [label]; Mermaid refuses it, the reader
# reads the label
ODD_MMD = "flowchart TD\n  A[Start] --> B{Is it ok?}\n  B -- No --> D[Retry (again)]\n"


def test_check_syntax_counts_what_mermaid_refuses(tmp_path: Path, cli: Cli) -> None:
    truth = {"a": TRUTH_MMD, "b": TRUTH_MMD}
    answers = {"a": f"Here:\n```mermaid\n{ODD_MMD}```\n", "b": ANSWER_MMD}
    lenient = _score(answers, truth)
    assert lenient.dataset["unreadable"] == {}
    checked = _score(answers, truth, check_syntax=True, mermaid_dir=install_dir())
    reason = checked.dataset["unreadable"]["a"]
    assert reason.startswith("line 5, in the fenced block from line 3: Mermaid 12.3.0 refuses it:")
    assert "Parse error: Expecting 'SQE'" in reason
    assert checked.items["b"] == lenient.items["b"] and checked.items["a"]["readable"] == 0.0
    assert checked.options["check_syntax"] is True
    unavailable = _score(answers, truth, check_syntax=True, mermaid_dir=tmp_path)
    assert unavailable.items == lenient.items
    assert [w for w in unavailable.warnings if "--check-syntax" in w] == [
        f"--check-syntax: Mermaid's parser is unavailable, answers not checked: {tmp_path} has "
        "no node_modules/mermaid (npm install --prefix DIR mermaid@12.3.0 jsdom@26.1.0, then "
        "pass --mermaid-dir DIR (or set PARSESCORE_MERMAID_DIR))"
    ]
    pred = tmp_path / "pred"
    pred.mkdir()
    (pred / "a.mmd").write_text(ODD_MMD)
    (pred / "b.mmd").write_text(TRUTH_MMD)
    gt = tmp_path / "gt"
    gt.mkdir()
    (gt / "a.mmd").write_text(TRUTH_MMD)
    (gt / "b.mmd").write_text(TRUTH_MMD)
    run = cli(
        "flowchart", "--truth", gt, "--pred", pred, "--check-syntax", "--mermaid-dir", install_dir()
    )
    assert run.code == 0 and "1 unreadable" in run.out
    assert "a: line 3: Mermaid 12.3.0 refuses it: Parse error" in " ".join(run.err.split())
    run = cli(
        "flowchart",
        "--truth",
        gt,
        "--pred",
        pred,
        "--check-syntax",
        "--mermaid-dir",
        install_dir(),
        "--strict",
    )
    assert run.code == 2 and f"{pred / 'a.mmd'} (line 3): Mermaid 12.3.0 refuses it" in run.err
    run = cli(
        "flowchart",
        "--truth",
        gt,
        "--pred",
        pred,
        "--check-syntax",
        "--mermaid-dir",
        tmp_path / "none",
    )
    assert run.code == 0 and run.err.count("Mermaid's parser is unavailable") == 1


def test_the_documented_chat_example(cli: Cli, tmp_path: Path) -> None:
    """docs/flowchart.md, "Real answers in a dataset": the numbers and lines it shows."""
    here = Path(__file__).parent / "data" / "chat_example"
    out = tmp_path / "o.json"
    run = cli("flowchart", "--truth", here / "truth", "--pred", here / "pred", "--out", out)
    assert run.code == 0, run.err
    doc = json.loads(out.read_text())
    rows = {
        d["stem"]: (d["node_text_cost"], d["edge_label_cost"], d["flow"]["tp"], d["flow"]["fn"])
        for d in doc["diagrams"]
    }
    assert rows == {
        "consort": (0, 2, 3, 0),
        "dropout": (63, 0, 0, 4),
        "prisma": (146, 0, 0, 4),
        "screening": (6, 0, 3, 0),
    }
    assert (doc["totals"]["node_text_cost"], doc["totals"]["avg_flow_jaccard"]) == (215, 0.5)
    assert doc["missing_predictions"] == ["dropout"] and list(doc["unreadable"]) == ["prisma"]
    text, err = " ".join(run.out.split()), " ".join(run.err.split())
    assert "readable answers 0.5000; 1 unreadable; 1 missing; 1 read from a fenced block" in text
    assert "prisma: line 3, column 18: unexpected end of the line; expected a node after" in err
    run = cli("flowchart", "--truth", here / "truth", "--pred", here / "pred", "--check-syntax",
              "--mermaid-dir", install_dir(), "--out", out)  # fmt: skip
    assert json.loads(out.read_text())["diagrams"][3]["node_text_cost"] == 35
    text, err = " ".join(run.out.split()), " ".join(run.err.split())
    assert "readable answers 0.2500; 2 unreadable; 1 missing" in text
    assert "screening: line 4: Mermaid 12.3.0 refuses it: Parse error: Expecting 'SQE'" in err
