"""Models' answers as they arrive (issue 23): chat answers (prose, fenced blocks, ``<think>``),
unreadable answers, missing answers and names that do not line up, ``readable``, and one pair
from Python (``evaluate`` with texts, ``score_pair``)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import Cli
from parsescore import evaluate, score_pair
from parsescore.core.errors import InputError

BUNDLED = Path(__file__).parents[2] / "src" / "parsescore" / "data" / "sequence"
MERMAID = sorted((Path(__file__).parent / "data" / "mermaid_corpus").glob("*.mmd"))
#: The bundled dataset: real mwdi truth files and a model's predictions (with real errors).
TRUTHS = {p.name: p.read_text("utf-8") for p in sorted((BUNDLED / "truth").glob("*.puml"))}
ANSWERS = {p.name: p.read_text("utf-8") for p in sorted((BUNDLED / "model_a").glob("*.puml"))}


def score(truth: dict[str, str], pred: dict[str, str], **options: Any) -> Any:
    return evaluate("sequence", truth, pred, quiet=True, **options)


# -- chat answers: a wrapped answer scores exactly as its content ------------------------------

PROSE_BEFORE = st.sampled_from(
    ["", "Sure! Here is the sequence diagram:\n\n", "Here you go.\n", "**Diagram**\n\n"]
)
PROSE_AFTER = st.sampled_from(
    ["", "\nHope this helps!", "\n\nThe diagram shows the messages in order.\n", "\n---\n"]
)
THINKING = st.sampled_from(
    ["", "<think>\nThe image shows arrows ```A -> B``` and @startuml.\n</think>\n", "ok</think>\n"]
)


@st.composite
def wrapped(draw: st.DrawFn, content: str, names: tuple[str, ...]) -> tuple[str, str | None]:
    """A chat answer around ``content`` and the fence it is read from (None: not fenced)."""
    before, after, thinking = draw(PROSE_BEFORE), draw(PROSE_AFTER), draw(THINKING)
    style = draw(st.sampled_from(["```", "~~~", "````", "bare"]))
    if style == "bare":
        if "@startuml" not in content:  # Mermaid without a fence: only thinking around it
            return thinking + content, None
        return thinking + before + content + after, None
    info = draw(st.sampled_from(names))
    body = content if content.endswith("\n") else content + "\n"
    return f"{thinking}{before}{style}{info}\n{body}{style}\n{after}", info


def test_the_bundled_answers_are_real_and_plain() -> None:
    assert len(TRUTHS) == len(ANSWERS) == 6 and set(TRUTHS) == set(ANSWERS)
    assert all(text.lstrip().startswith("@startuml") for text in ANSWERS.values())
    assert all("```" not in text for text in ANSWERS.values())


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_wrapped_plantuml_answer_scores_as_its_content(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(ANSWERS)))
    answer, fence = data.draw(wrapped(ANSWERS[name], ("plantuml", "puml", "uml", "")))
    truth = {name: TRUTHS[name]} if name in TRUTHS else {name: ANSWERS[name]}
    for pred_format in ("auto", "plantuml"):
        bare = score(truth, {name: ANSWERS[name]}, pred_format=pred_format)
        chat = score(truth, {name: answer}, pred_format=pred_format)
        assert chat.items == bare.items and chat.totals == bare.totals
        assert chat.details == bare.details
        assert chat.dataset["fenced"] == ({} if fence is None else {name: fence})
        assert chat.dataset["unreadable"] == {} and chat.items[name]["readable"] == 1.0


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_wrapped_mermaid_answer_scores_as_its_content(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(MERMAID))
    content = path.read_text("utf-8")
    answer, fence = data.draw(wrapped(content, ("mermaid", "mmd", "")))
    # the truth is a real PlantUML diagram: the Mermaid answer scores with errors, the same ones
    truth = {"d": TRUTHS[sorted(TRUTHS)[0]]}
    for pred_format in ("auto", "mermaid"):
        bare = score(truth, {"d.mmd": content}, pred_format=pred_format)
        chat = score(truth, {"d.mmd": answer}, pred_format=pred_format)
        assert chat.items == bare.items and chat.details == bare.details
        assert chat.dataset["fenced"] == ({} if fence is None else {"d": fence})


def test_a_chat_answer_with_prose_and_a_second_diagram(tmp_path: Path, cli: Cli) -> None:
    """The issue's case, from the command line: prose and a fenced block (once "everything
    deleted") and a bare @startuml in prose followed by another diagram."""
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    shutil.copytree(BUNDLED / "truth", truth)
    pred.mkdir()
    for name, text in ANSWERS.items():
        (pred / name).write_text(text, "utf-8")
    first, second = sorted(ANSWERS)[:2]
    (pred / first).write_text(
        f"Sure! Here is the diagram:\n\n```plantuml\n{ANSWERS[first]}```\nLet me know.\n", "utf-8"
    )
    (pred / second).write_text(
        f"The diagram:\n{ANSWERS[second]}\nAnd simplified:\n@startuml\nA -> B\n@enduml\n", "utf-8"
    )
    plain = cli(
        "sequence",
        "--truth",
        truth,
        "--pred",
        BUNDLED / "model_a",
        "--result",
        tmp_path / "plain.json",
        "--quiet",
    )
    chat = cli(
        "sequence", "--truth", truth, "--pred", pred, "--result", tmp_path / "chat.json", "--quiet"
    )
    assert plain.code == chat.code == 0, chat.err
    a, b = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("plain", "chat"))
    assert a["items"] == b["items"] and a["totals"] == b["totals"]
    assert b["dataset"]["fenced"] == {first: "plantuml"}
    assert "1 read from a fenced block" in chat.out


def test_git_refs_hold_chat_answers_too(tmp_path: Path, cli: Cli) -> None:
    from test_sequence_cli import git

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    name = sorted(ANSWERS)[0]
    (repo / name).write_text(TRUTHS[name], "utf-8")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "truth")
    git(repo, "checkout", "-q", "-b", "chat")
    (repo / name).write_text(f"Here it is.\n~~~puml\n{ANSWERS[name].rstrip()}\n~~~\n", "utf-8")
    git(repo, "commit", "-q", "-am", "a chat answer")
    run = cli(
        "sequence",
        "--repo",
        repo,
        "--truth-ref",
        "main",
        "--pred-ref",
        "chat",
        "--result",
        tmp_path / "r.json",
        "--quiet",
    )
    assert run.code == 0, run.err
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["dataset"]["fenced"] == {name: "puml"}
    bare = score({name: TRUTHS[name]}, {name: ANSWERS[name]})
    assert result["items"][0]["metrics"] == bare.items[name]


def test_an_included_file_is_read_as_written(tmp_path: Path) -> None:
    """A fenced answer's ``!include`` still reads the file beside it; that file is a file of
    the prediction's source, not an answer, so it is not unwrapped (its fence lines are
    PlantUML lines it does not understand, as PlantUML would read them)."""
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    (truth / "call.puml").write_text("@startuml\nA -> B : hi\nB -> C : on\n@enduml\n", "utf-8")
    (pred / "call.puml").write_text(
        "Sure:\n```plantuml\n@startuml\n!include common.iuml\nB -> C : on\n@enduml\n```\n",
        "utf-8",
    )
    (pred / "common.iuml").write_text("```\nA -> B : hi\n```\n", "utf-8")
    result = evaluate("sequence", truth, pred, quiet=True)
    assert result.dataset["fenced"] == {"call.puml": "plantuml"}
    assert result.totals["error_rate"] == 0.0 and result.totals["readable"] == 1.0
    assert [w for w in result.warnings if "```" in w] == [  # line 2: the !include line
        "call.puml: prediction warning: line 2: not a PlantUML sequence-diagram line, "
        "ignored: '```'"
    ] * 2


# -- unreadable answers -------------------------------------------------------------------------

TRUTH = "@startuml\nparticipant A\nA -> B : hi\nnote over B : yes\n@enduml\n"


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("", "empty answer: no sequence diagram"),
        ("  \n\n", "empty answer: no sequence diagram"),
        ("@startuml\n@enduml\n", "empty diagram: no participant, arrow, note, group or box"),
        ("Here:\n```plantuml\n@startuml\ntitle Nothing\n@enduml\n```",
         "empty diagram: no participant, arrow, note, group or box"),
        ("I cannot read this image, sorry.",
         "line 1: not a sequence diagram: no participant, arrow, note, group or box recognised "
         "(the first line not read: 'I cannot read this image, sorry.')"),
        ('{"nodes": [], "edges": []}',
         "line 1: not a sequence diagram: no participant, arrow, note, group or box recognised "
         """(the first line not read: '{"nodes": [], "edges": []}')"""),
        ("```mermaid\nflowchart LR\n  A --> B\n```",
         "line 2, in the fenced block from line 2: a Mermaid 'flowchart' diagram, not a "
         "sequenceDiagram"),
        ("Answer:\n\n```mermaid\n%% sequence\nsequenceDiagram\n```",
         "empty diagram: no participant, arrow, note, group or box"),
        ("<think>A -> B</think>", "empty answer: no sequence diagram"),
    ],
)  # fmt: skip
def test_what_is_unreadable(answer: str, reason: str) -> None:
    result = score({"d": TRUTH}, {"d": answer})
    assert result.dataset["unreadable"] == {"d": reason}
    assert result.items["d"]["readable"] == 0.0 == result.totals["readable"]
    empty = score({"d": TRUTH, "other": TRUTH}, {"other": TRUTH}).items["d"]
    assert result.items["d"] == empty  # scored as a missing answer: everything deleted
    with pytest.raises(InputError) as raised:
        score({"d": TRUTH}, {"d": answer}, strict=True)
    where = reason.split(": ", 1)[0] if reason.startswith("line") else None
    assert raised.value.path == "d" and raised.value.where == where


def test_a_diagram_with_unread_lines_is_readable() -> None:
    """The PlantUML reader warns rather than fails: an answer with one element it reads is
    readable, its other lines are warnings."""
    result = score({"d": TRUTH}, {"d": "@startuml\nA -> B : hi\nthis is no statement\n@enduml"})
    assert result.dataset["unreadable"] == {} and result.totals["readable"] == 1.0
    assert any("not a PlantUML sequence-diagram line" in w for w in result.warnings)


GARBAGE = st.one_of(
    st.sampled_from(
        ["", "Sorry, I can't.", "@startuml\n@enduml", "```mermaid\ngraph TD\nA-->B\n```",
         "sequenceDiagram", '{"a": 1}', "```\n\n```"]
    ),
    st.text(alphabet="0123456789 .,!?\n", max_size=80),
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(bad=st.sampled_from(sorted(TRUTHS)), garbage=GARBAGE)
def test_one_garbage_answer_changes_only_its_item(bad: str, garbage: str) -> None:
    answers = {name: ANSWERS[name] for name in TRUTHS if name in ANSWERS}
    good = score(TRUTHS, answers)
    result = score(TRUTHS, answers | {bad: garbage})
    for name in TRUTHS:
        if name != bad:
            assert result.items[name] == good.items[name]
    without = score(TRUTHS, {k: v for k, v in answers.items() if k != bad})
    assert result.items[bad] == without.items[bad]  # as a missing answer scores
    assert list(result.dataset["unreadable"]) == [bad]
    assert result.totals["readable"] == pytest.approx(
        sum(m["readable"] for m in result.items.values()) / len(TRUTHS)
    )
    assert result.totals["readable"] == (len(TRUTHS) - 1 - len(good.dataset["missing"])) / len(
        TRUTHS
    )


def test_unreadable_files_on_the_command_line(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    shutil.copytree(BUNDLED / "truth", truth)
    shutil.copytree(BUNDLED / "model_a", pred)
    names = sorted(TRUTHS)
    (pred / names[1]).write_text("Sorry, I cannot read the image.\n", "utf-8")
    (pred / names[3]).write_text("Here:\n\n```mermaid\nflowchart TD\n  A --> B\n```\n", "utf-8")
    run = cli("sequence", "--truth", truth, "--pred", pred, "--result", tmp_path / "r.json")
    assert run.code == 0, run.err
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["dataset"]["unreadable"] == {
        names[1]: "line 1: not a sequence diagram: no participant, arrow, note, group or box "
        "recognised (the first line not read: 'Sorry, I cannot read the image.')",
        names[3]: "line 4, in the fenced block from line 4: a Mermaid 'flowchart' diagram, not "
        "a sequenceDiagram",
    }
    assert result["totals"]["readable"] == 4 / 6
    assert "readable answers 0.6667; 2 unreadable; 1 read from a fenced block" in run.out
    err = " ".join(run.err.split())
    assert err.count("2 of 6 answers are unreadable") == 1  # one warning, printed once
    strict = cli("sequence", "--truth", truth, "--pred", pred, "--strict")
    assert strict.code == 2 and strict.err.count("error:") == 1
    assert " ".join(strict.err.split()) == (
        f"error: {pred / names[1]} (line 1): not a sequence diagram: no participant, arrow, "
        "note, group or box recognised (the first line not read: 'Sorry, I cannot read the "
        "image.')"
    )


def test_several_models_each_get_their_readable_share(tmp_path: Path, cli: Cli) -> None:
    other = tmp_path / "other"
    shutil.copytree(BUNDLED / "model_a", other)
    (other / sorted(TRUTHS)[0]).write_text("no diagram today", "utf-8")
    run = cli("sequence", "--truth", BUNDLED / "truth", "--pred", BUNDLED / "model_a",
              "--pred", BUNDLED / "model_b", "--pred", other, "--quiet")  # fmt: skip
    assert run.code == 0, run.err
    assert "[model_a] readable answers 1.0000\n" in run.out
    assert "[model_b] readable answers 0.8333; 1 missing\n" in run.out
    assert "[other] readable answers 0.8333; 1 unreadable\n" in run.out
    err = " ".join(run.err.split())
    assert "[model_b] 1 of 6 files have no answer (scored as empty)" in err
    assert err.count("[other] 1 of 6 answers are unreadable") == 1  # each warning once


# -- names --------------------------------------------------------------------------------------


def test_no_answer_matching_any_truth_is_an_error(tmp_path: Path, cli: Cli) -> None:
    pred = tmp_path / "pred"
    pred.mkdir()
    for name, text in ANSWERS.items():
        (pred / f"answer_{name}").write_text(text, "utf-8")
    run = cli("sequence", "--truth", BUNDLED / "truth", "--pred", pred)
    assert run.code == 2 and run.err.count("error:") == 1
    message = " ".join(run.err.split())
    first = sorted(TRUTHS)[0].removesuffix(".puml")
    assert f"no answer in {pred} matches a truth item of {BUNDLED / 'truth'}" in message
    assert f"truth ids such as '{first}', answers such as 'answer_{first}'" in message
    assert "swap" not in message  # matching by path is symmetric: swapping never helps
    empty = tmp_path / "empty"
    empty.mkdir()
    run = cli("sequence", "--truth", BUNDLED / "truth", "--pred", empty)
    assert run.code == 2 and f"no answer in {empty}" in " ".join(run.err.split())


def test_allow_missing_scores_only_the_matched_files(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "r.json"
    args = ("sequence", "--truth", BUNDLED / "truth", "--pred", BUNDLED / "model_b", "--quiet")
    default = evaluate("sequence", BUNDLED / "truth", BUNDLED / "model_b", quiet=True)
    run = cli(*args, "--allow-missing", "--result", out)
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    (missing,) = default.dataset["missing"]
    assert result["dataset"]["missing"] == [missing]
    assert [i["id"] for i in result["items"]] == [i for i in default.items if i != missing]
    for item in result["items"]:
        assert item["metrics"] == default.items[item["id"]]
    assert result["totals"]["readable"] == 5 / 6 == default.totals["readable"]
    assert result["options"]["allow_missing"] is True
    # pooled over the matched files only
    matched = score(
        {k: v for k, v in TRUTHS.items() if k != missing},
        {p.name: p.read_text("utf-8") for p in (BUNDLED / "model_b").glob("*.puml")},
    )
    assert {k: v for k, v in result["totals"].items() if k != "readable"} == {
        k: v for k, v in matched.totals.items() if k != "readable"
    }
    flat = " ".join(run.err.split())
    assert "1 of 6 files have no answer (left out with --allow-missing)" in flat


# -- one pair from Python -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TRUTHS)[:3])
def test_score_pair_is_a_one_file_dataset(name: str, tmp_path: Path) -> None:
    answer = ANSWERS[name]
    (tmp_path / "t").mkdir()
    (tmp_path / "p").mkdir()
    (tmp_path / "t" / name).write_text(TRUTHS[name], "utf-8")
    (tmp_path / "p" / name).write_text(answer, "utf-8")
    files = evaluate("sequence", tmp_path / "t" / name, tmp_path / "p" / name, quiet=True)
    folders = evaluate("sequence", tmp_path / "t", tmp_path / "p", quiet=True)
    pair = score_pair("sequence", TRUTHS[name], answer)
    assert pair == files.items[name] == folders.items[name]
    assert score_pair("sequence", TRUTHS[name], f"Here:\n```puml\n{answer}```") == pair
    texts = evaluate("sequence", {name: TRUTHS[name]}, {name: answer}, quiet=True)
    assert texts.items == folders.items and texts.totals == folders.totals
    assert texts.inputs == {"formats": folders.inputs["formats"]}


def test_score_pair_options_and_unreadable() -> None:
    truth = "@startuml\nA -[#red]> B : hi\n@enduml"
    assert score_pair("sequence", truth, "A -> B : hi")["direction_type_substitution_rate"] == 100
    assert score_pair("sequence", truth, "A -> B : hi", ignore_colours=True)["error_rate"] == 0
    assert score_pair("sequence", truth, "sorry")["readable"] == 0.0
    with pytest.raises(InputError, match="not a sequence diagram"):
        score_pair("sequence", truth, "sorry", strict=True)


def test_texts_are_checked() -> None:
    with pytest.raises(InputError, match=r"pred\['a'\]: expected the script's text, got a int"):
        evaluate("sequence", {"a": TRUTH}, {"a": 3}, quiet=True)
    with pytest.raises(InputError, match="both be files or both be directories"):
        evaluate("sequence", BUNDLED / "truth" / sorted(TRUTHS)[0], {"a": TRUTH}, quiet=True)


# -- hostile answers ----------------------------------------------------------------------------


def test_hostile_answers_are_read_in_bounded_time() -> None:
    """Fences that never close, thousands of diagrams after the first, a think block that
    never ends: each answer is read (or refused) in well under a second per 100k lines."""
    lines = 100_000
    answers = {
        "fences": "```plantuml\n" * lines,
        "diagrams": "@startuml\nA -> B : x\n@enduml\n" * (lines // 3),
        "tildes": "~~~\n@startuml\n" * (lines // 2),
        "thinking": "<think>\n" + "A -> B\n" * lines,
        "prose": "@enduml\n" + "A -> B : x\n" * lines,
    }
    started = time.process_time()  # this process's CPU: other processes' load is not counted
    result = score(dict.fromkeys(answers, TRUTH), answers)
    assert time.process_time() - started < 20
    assert result.items["diagrams"]["readable"] == 1.0  # the first diagram
    assert result.items["diagrams"]["node_insertion_rate"] == 0.0
    assert set(result.dataset["unreadable"]) == {"fences", "tildes", "thinking", "prose"}
