"""Tables as a model's answers in a dataset (shared/specs/formats.md, "Chat answers" and
"Unreadable answers in a dataset"; parsescore.shared.coverage): a wrapped answer scores as its
content, an unreadable one as a missing one, names that do not line up, and ``score_pair``."""

from __future__ import annotations

import csv
import io
import json
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html
from table_helpers import pandoc_path, render_all

import parsescore
from cli_helpers import Cli
from parsescore.core.errors import InputError
from parsescore.shared.answers import FENCE_NAMES
from parsescore.shared.tables.formats import format_names
from parsescore.table.inputs import load_tables

FORMATS = format_names()
SAMPLES = Path(__file__).resolve().parents[2] / "src/parsescore/data/table/pubtabnet_samples"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "inputs"
TRUTH = load_tables(SAMPLES / "sample_gt.json")
PRED = load_tables(SAMPLES / "sample_pred.json")
#: small PubTabNet pairs (a few cells each): fast to score, and their predictions differ
NAMES = ["PMC5755158_010_01.png", "PMC3872294_001_00.png", "PMC4219599_004_00.png"]
ZEROS = dict.fromkeys(
    [
        "TEDS", "TEDS-S", "GriTS-Top", "GriTS-Top precision", "GriTS-Top recall",
        "GriTS-Con", "GriTS-Con precision", "GriTS-Con recall", "readable",
    ],
    0.0,
)  # fmt: skip
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _delimited(html: str, delimiter: str) -> str:
    """The table's rows as CSV/TSV (each cell's text; spans written as one cell)."""
    table = lxml_html.fromstring(html).find(".//table")
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    rows = [[" ".join(td.itertext()) for td in tr.iter("td")] for tr in table.iter("tr")]
    width = max(map(len, rows))
    writer.writerows(row + [""] * (width - len(row)) for row in rows)
    return out.getvalue()


@pytest.fixture(scope="module")
def answers() -> list[tuple[str, str, str]]:
    """(table name, format, the bare answer) for each small sample's prediction in every
    format the kind reads from a model (pandoc renders Markdown and LaTeX)."""
    pandoc = pandoc_path()
    preds = [PRED[name] for name in NAMES]
    out = []
    for format, texts in (
        ("html", preds),
        ("html-fragment", [p[p.index("<table") : p.rindex("</table>") + 8] for p in preds]),
        ("markdown", render_all(pandoc, preds, "gfm")),
        ("latex", render_all(pandoc, preds, "latex")),
        ("csv", [_delimited(p, ",") for p in preds]),
        ("tsv", [_delimited(p, "\t") for p in preds]),
    ):
        out += [(name, format, text) for name, text in zip(NAMES, texts, strict=True)]
    return out


def _score(answer: str, name: str, **options: object) -> parsescore.Result:
    return parsescore.evaluate("table", {name: TRUTH[name]}, {name: answer}, quiet=True, **options)


PROSE = st.text(alphabet=string.ascii_letters + string.digits + " .,:;!?'()-|\n", max_size=60).map(
    lambda text: text.strip()
)


@SETTINGS
@given(data=st.data())
def test_a_wrapped_answer_scores_exactly_as_its_content(
    answers: list[tuple[str, str, str]], data: st.DataObject
) -> None:
    name, format, bare = data.draw(st.sampled_from(answers))
    pred_format = data.draw(st.sampled_from([format, "auto"]))
    fence = data.draw(st.sampled_from("`~")) * data.draw(st.integers(3, 5))
    names = FENCE_NAMES[format]
    info = data.draw(st.sampled_from([*names, f"{{.{names[0]}}}", "", "text"]))
    decoy = ""
    if info not in ("", "text") and data.draw(st.booleans()):  # another block first
        decoy = "```python\nprint('not the table')\n```\n"
    thinking = data.draw(st.sampled_from(["", "<think>\nA table of 3 rows.\n</think>\n"]))
    before, after = data.draw(PROSE), data.draw(PROSE)
    fenced = data.draw(st.booleans())
    if fenced:
        wrapped = f"{thinking}{before}\n{decoy}{fence}{info}\n{bare}\n{fence}\n{after}"
    else:  # a <think> block before the bare content
        wrapped = f"<think>{before}</think>\n{bare}"
    plain = _score(bare, name, pred_format=pred_format)
    chat = _score(wrapped, name, pred_format=pred_format)
    assert chat.items == plain.items
    assert chat.totals == plain.totals
    assert chat.dataset["fenced"] == ({name: info} if fenced else {})
    assert plain.dataset["fenced"] == {}
    assert chat.dataset["unreadable"] == plain.dataset["unreadable"]


def test_the_issue_answer_prose_and_a_fenced_markdown_table() -> None:
    """ "Sure! Here is the table:" and a fenced Markdown block once scored 0 ("no Markdown table
    found"); it scores as the table it holds, under markdown and auto."""
    pandoc = pandoc_path()
    name = NAMES[0]
    (markdown,) = render_all(pandoc, [TRUTH[name]], "gfm")
    answer = f"Sure! Here is the table:\n\n```markdown\n{markdown}```\n\nAnything else?"
    for format in ("markdown", "auto"):
        result = _score(answer, name, pred_format=format)
        assert result.items[name]["TEDS"] == 1.0 and result.items[name]["readable"] == 1.0
        assert result.dataset["fenced"] == {name: "markdown"}
    # the reference's html reads the fenced block's content, which is no HTML: unreadable
    html = _score(answer, name)
    assert html.items[name] == ZEROS
    assert html.dataset["unreadable"] == {name: "html: no <table> in the answer"}
    assert (
        f"1 of 1 predictions are not full HTML documents (1 Markdown: {name}); the reference's "
        "rule scores them 0; --pred-format auto reads them" in html.warnings
    )


@settings(max_examples=30, deadline=None)
@given(
    states=st.lists(
        st.sampled_from(["ok", "missing", "empty", "prose", "bad span"]),
        min_size=len(NAMES),
        max_size=len(NAMES),
    ).filter(lambda states: any(s != "missing" for s in states)),
    pred_format=st.sampled_from(["html", "auto"]),
)
def test_an_unreadable_answer_changes_only_its_item_and_readable_is_the_share(
    states: list[str], pred_format: str
) -> None:
    truth = {name: TRUTH[name] for name in NAMES}
    good = {name: PRED[name] for name in NAMES}
    baseline = parsescore.evaluate("table", truth, good, quiet=True, pred_format=pred_format)
    answers = {}
    for name, state in zip(NAMES, states, strict=True):
        if state == "ok":
            answers[name] = good[name]
        elif state == "empty":
            answers[name] = "  \n"
        elif state == "prose":
            answers[name] = "I could not read the table in this image."
        elif state == "bad span":
            answers[name] = good[name].replace("<td>", '<td colspan="two">', 1)
    result = parsescore.evaluate("table", truth, answers, quiet=True, pred_format=pred_format)
    bad = [n for n, s in zip(NAMES, states, strict=True) if s not in ("ok", "missing")]
    assert sorted(result.dataset["unreadable"]) == sorted(bad)
    missing = [n for n, s in zip(NAMES, states, strict=True) if s == "missing"]
    assert result.dataset["missing"] == missing
    for name, state in zip(NAMES, states, strict=True):
        if state == "ok":
            assert result.items[name] == baseline.items[name]
        else:  # unreadable scores exactly as missing
            assert result.items[name] == ZEROS
    assert result.totals["readable"] == states.count("ok") / len(NAMES)
    assert result.totals["TEDS"] == sum(result.items[n]["TEDS"] for n in NAMES) / len(NAMES)


# -- names --------------------------------------------------------------------------------------


def _write(folder: Path, tables: dict[str, str], suffix: str = ".html") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in tables.items():
        (folder / f"{name}{suffix}").write_text(text, encoding="utf-8")
    return folder


def test_answers_matching_no_truth_table_are_an_error(tmp_path: Path, cli: Cli) -> None:
    truth = _write(tmp_path / "truth", {"t1": TRUTH[NAMES[0]], "t2": TRUTH[NAMES[1]]})
    pred = _write(tmp_path / "pred", {"T1": PRED[NAMES[0]], "T2": PRED[NAMES[1]]})
    run = cli("table", "--truth", truth, "--pred", pred)
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == (
        f"error: no answer in {pred} matches a truth item of {truth}: truth ids such as 't1', "
        "answers such as 'T1'"
    )
    with pytest.raises(InputError, match="no answer in the answers matches"):
        parsescore.evaluate("table", {"t1": TRUTH[NAMES[0]]}, {"x": PRED[NAMES[0]]}, quiet=True)


def test_truth_and_answers_swapped_are_named(tmp_path: Path, cli: Cli) -> None:
    """Truth and answers are both tables, so the names match either way round; how each side
    is read tells them apart: a folder of Markdown answers given as --truth, which the
    reference's html does not read, while the --pred folder reads as truth."""
    pandoc = pandoc_path()
    rendered = render_all(pandoc, [PRED[n] for n in NAMES[:2]], "gfm")
    answers = _write(tmp_path / "answers", dict(zip(["t1", "t2"], rendered, strict=True)), ".md")
    truth = _write(tmp_path / "truth", {"t1": TRUTH[NAMES[0]], "t2": TRUTH[NAMES[1]]})
    swapped = cli("table", "--truth", answers, "--pred", truth, "--pred-format", "auto")
    assert swapped.code == 2
    assert " ".join(swapped.err.split()) == (
        f"error: {answers}: folder has no .html files but 2 .md files, which the html format "
        "does not read; format auto reads them; did you swap --truth and --pred?"
    )
    (answers / "notes.html").write_text("<p>notes</p>", encoding="utf-8")  # now one truth name
    swapped = cli("table", "--truth", answers, "--pred", truth, "--pred-format", "auto")
    assert swapped.code == 2
    assert " ".join(swapped.err.split()) == (
        f"error: no answer in {truth} matches a truth item of {answers}: truth ids such as "
        "'notes', answers such as 't1'; did you swap --truth and --pred?"
    )
    right = cli("table", "--truth", truth, "--pred", answers, "--pred-format", "auto", "--quiet")
    assert right.code == 0, right.err
    # different names either way round: no question asked
    other = _write(tmp_path / "other", {"x1": PRED[NAMES[0]]})
    run = cli("table", "--truth", truth, "--pred", other)
    assert run.code == 2 and "did you swap" not in run.err


def test_truth_written_as_chat_answers_is_warned_about(tmp_path: Path) -> None:
    truth = {name: f"```html\n{TRUTH[name]}\n```" for name in NAMES}
    result = parsescore.evaluate("table", truth, {n: PRED[n] for n in NAMES}, quiet=True)
    assert (
        "3 of 3 truth tables are written as chat answers (a fenced block or <think>), which "
        f"truth is not unwrapped from ({', '.join(NAMES)}); did you swap --truth and --pred?"
        in result.warnings
    )


def test_missing_answers_score_zero_or_are_left_out(tmp_path: Path, cli: Cli) -> None:
    truth = _write(tmp_path / "truth", {n: TRUTH[n] for n in NAMES})
    pred = _write(tmp_path / "pred", {n: PRED[n] for n in NAMES[:2]} | {"extra": PRED[NAMES[0]]})
    run = cli("table", "--truth", truth, "--pred", pred, "--out", tmp_path / "o.json")
    assert run.code == 0, run.err
    doc = json.loads((tmp_path / "o.json").read_text())
    assert doc["missing"] == [NAMES[2]] and doc["extra"] == ["extra"]
    assert doc["metrics"]["TEDS"]["scores"][NAMES[2]] == 0.0 and doc["n_tables"] == 3
    assert f"1 missing (no answer; scored 0): {NAMES[2]}" in run.out
    assert "1 answers without truth ignored" in run.out
    assert "readable answers 0.6667; 1 missing" in run.out
    assert f"warning: 1 of 3 tables have no answer (scored as empty): {NAMES[2]}" in run.err
    run = cli(
        "table", "--truth", truth, "--pred", pred, "--allow-missing", "--out", tmp_path / "a.json",
        "--result", tmp_path / "env.json",
    )  # fmt: skip
    assert run.code == 0, run.err
    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["n_tables"] == 2 and list(doc["scores"]) == sorted(NAMES[:2])
    assert doc["missing"] == [NAMES[2]] and doc["options"]["allow_missing"] is True
    assert doc["metrics"]["readable"]["mean"] == 2 / 3  # of every truth table
    assert f"1 missing (no answer; left out, --allow-missing): {NAMES[2]}" in run.out
    assert "(left out with --allow-missing)" in run.err
    envelope = parsescore.load_result(tmp_path / "env.json")
    again = parsescore.load_result(tmp_path / "a.json")  # the --out document reads back alike
    assert again.items == envelope.items and again.totals == envelope.totals
    assert again.dataset == envelope.dataset
    scored = parsescore.evaluate("table", truth, pred, allow_missing=True, quiet=True)
    assert scored.totals["TEDS"] == sum(scored.items[n]["TEDS"] for n in NAMES[:2]) / 2


def test_grits_cell_lists_follow_the_same_name_rules(tmp_path: Path, cli: Cli) -> None:
    truth, pred = GOLDEN / "grits_truth.json", GOLDEN / "grits_pred.json"
    left_out = "PMC3099988_table_0"  # the one table grits_pred.json leaves out
    out = tmp_path / "g.json"
    run = cli("grits", "--truth", truth, "--pred", pred, "--allow-missing", "--out", out)
    assert run.code == 0, run.err
    doc = json.loads(out.read_text())
    assert doc["n_tables"] == 9 and left_out not in doc["scores"] and doc["missing"] == [left_out]
    assert doc["metrics"]["readable"]["mean"] == 0.9
    assert "readable answers 0.9000; 1 missing" in run.out
    renamed = tmp_path / "renamed.json"
    cells = json.loads(pred.read_text()).values()
    renamed.write_text(json.dumps({f"x{k}": table for k, table in enumerate(cells)}))
    run = cli("grits", "--truth", truth, "--pred", renamed)
    assert run.code == 2 and f"no answer in {renamed} matches a truth item of {truth}" in run.err


# -- reading options, strict, one pair ----------------------------------------------------------


def test_strict_stops_at_the_first_unreadable_answer_naming_its_line(
    tmp_path: Path, cli: Cli
) -> None:
    truth = _write(tmp_path / "truth", {"t1": TRUTH[NAMES[0]], "t2": TRUTH[NAMES[1]]})
    broken = "Here it is:\n```latex\n\\begin{tabular}{l}\na & {b \\\\ \\end{tabular}\n```\n"
    pred = _write(tmp_path / "pred", {"t1": broken}, ".tex")
    _write(pred, {"t2": PRED[NAMES[1]]})
    run = cli("table", "--truth", truth, "--pred", pred, "--pred-format", "auto", "--quiet")
    assert run.code == 0, run.err
    reason = (
        "latex: line 4, column 11, in the fenced block from line 3: malformed LaTeX: Unexpected "
        "closing environment: 'tabular'"
    )
    assert f"t1: {reason}" in " ".join(run.err.split())
    run = cli("table", "--truth", truth, "--pred", pred, "--pred-format", "auto", "--strict")
    assert run.code == 2
    assert run.err.strip() == (
        f"error: {pred / 't1.tex'} (line 4, column 11, in the fenced block from line 3): "
        "malformed LaTeX: Unexpected closing environment: 'tabular'"
    )


def test_latex_math_is_a_reading_option(tmp_path: Path, cli: Cli) -> None:
    row = "<tbody><tr><td>1.2 ± 0.3</td></tr></tbody>"
    truth = {"t": f"<html><body><table>{row}</table></body></html>"}
    answer = {"t": "\\begin{tabular}{l} 1.2 $\\pm$ 0.3 \\end{tabular}"}
    source = parsescore.evaluate("table", truth, answer, pred_format="latex", quiet=True)
    text = parsescore.evaluate(
        "table", truth, answer, pred_format="latex", latex_math="text", quiet=True
    )
    assert source.items["t"]["TEDS"] < 1.0 == text.items["t"]["TEDS"]
    assert "latex_math" not in source.options and text.options["latex_math"] == "text"
    (tmp_path / "truth.json").write_text(json.dumps(truth))
    (tmp_path / "pred.json").write_text(json.dumps(answer))
    cache = tmp_path / "cache"
    args = ["table", "--truth", tmp_path / "truth.json", "--pred", tmp_path / "pred.json"]
    args += ["--pred-format", "latex", "--cache", cache, "--out", tmp_path / "o.json"]
    assert "cache: 0 of 1 table items reused" in cli(*args).err
    run = cli(*args, "--latex-math", "text")
    assert "cache: 0 of 1 table items reused" in run.err  # another reading: another item
    assert json.loads((tmp_path / "o.json").read_text())["options"]["latex_math"] == "text"
    assert "cache: 1 of 1 table items reused" in cli(*args, "--latex-math", "text").err
    bad = cli(*args, "--latex-math", "tex")
    assert bad.code == 2 and "'tex' is not one of 'source', 'text'" in bad.err
    with pytest.raises(InputError, match="option 'latex_math' must be one of source, text"):
        parsescore.evaluate("table", truth, answer, latex_math="tex")


def test_score_pair_equals_a_one_item_dataset_on_disk(tmp_path: Path) -> None:
    pandoc = pandoc_path()
    name = NAMES[2]
    (latex,) = render_all(pandoc, [PRED[name]], "latex")
    answer = f"<think>\nThe table has a header.\n</think>\nHere:\n~~~tex\n{latex}~~~\n"
    pair = parsescore.score_pair("table", TRUTH[name], answer, pred_format="auto")
    (tmp_path / "truth.json").write_text(json.dumps({"t": TRUTH[name]}))
    _write(tmp_path / "pred", {"t": answer}, ".tex")
    dataset = parsescore.evaluate(
        "table", tmp_path / "truth.json", tmp_path / "pred", pred_format="auto", quiet=True
    )
    assert pair == dataset.items["t"]
    assert 0.5 < pair["TEDS"] < 1.0 and pair["readable"] == 1.0
    assert parsescore.score_pair("table", TRUTH[name], "no table")["readable"] == 0.0
    with pytest.raises(InputError, match="no <table> in the answer"):
        parsescore.score_pair("table", TRUTH[name], "no table", strict=True)


def test_every_table_format_is_an_expected_fence_name() -> None:
    """The chat-answer rule knows an info string for each format the kind reads."""
    assert set(FORMATS) <= set(FENCE_NAMES)


def test_mappings_take_the_values_json_collections_take() -> None:
    name = NAMES[0]
    as_text = parsescore.evaluate("table", {name: TRUTH[name]}, {name: PRED[name]}, quiet=True)
    as_record = parsescore.evaluate(
        "table", {name: {"html": TRUTH[name]}}, {name: PRED[name]}, quiet=True
    )
    assert as_record.items == as_text.items
    with pytest.raises(InputError, match="key 'pair': expected an HTML string or an object"):
        parsescore.score_pair("table", 3, PRED[name])  # type: ignore[arg-type]


def test_the_teds_command_reads_its_prediction_as_an_answer(cli: Cli) -> None:
    truth = TRUTH[NAMES[0]]
    plain = cli("teds", "-gt", truth, "-pred", truth)
    fenced = cli("teds", "-gt", truth, "-pred", f"Here:\n```html\n{truth}\n```\nDone.")
    assert plain.out == fenced.out == "1.0\n"
    tabular = "\\begin{tabular}{l} \\hline a \\\\ \\hline $\\pm$1 \\\\ \\end{tabular}"
    answer = f"Sure:\n```latex\n{tabular}\n```"
    cells = "<thead><tr><td>a</td></tr></thead><tbody><tr><td>{}</td></tr></tbody>"
    for math, cell in (("source", "$\\pm$1"), ("text", "±1")):
        gt = "<html><body><table>" + cells.format(cell) + "</table></body></html>"
        run = cli("teds", "-gt", gt, "-pred", answer, "--pred-format", "auto", "--latex-math", math)
        assert run.out == "1.0\n", run.err
