"""Profile ``parsescore`` of the document kind, against independent computations: jiwer for
CER/WER, the table kind for TEDS/TEDS-S/GriTS of tables in any format, scipy's kendalltau for
τ; hypothesis properties of perfect, shuffled and invented answers; the command end to end."""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path
from typing import Any

import jiwer
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

import parsescore
from parsescore.core.errors import InputError
from parsescore.core.schema import validate
from parsescore.document.better import answer_blocks, order_scores, score_page
from parsescore.document.better_text import PROFILES, normaliser
from parsescore.shared.distance import error_counts

sys.path.insert(0, str(Path(__file__).parent))
from document_cases import write_cases

# -- texts and pages built for the tests --------------------------------------------------------

WORD = st.text(alphabet=string.ascii_lowercase + "éß", min_size=1, max_size=8)
SENTENCE = st.lists(WORD, min_size=1, max_size=8).map(" ".join)
TEXT = st.text(alphabet=string.ascii_letters + " \n\t.,-", max_size=40)


def _page(paragraphs: list[str], **blocks: Any) -> dict[str, Any]:
    layout = [{"category_type": "text_block", "anno_id": k, "order": k + 1, "text": text}
              for k, text in enumerate(paragraphs)]  # fmt: skip
    for k, (category, content) in enumerate(blocks.get("extra", [])):
        field = {"table": "html", "equation_isolated": "latex"}.get(category, "text")
        layout.append({"category_type": category, "anno_id": 100 + k,
                       "order": len(paragraphs) + k + 1, field: content})  # fmt: skip
    return {"page_info": {"image_path": "p.jpg"}, "layout_dets": layout, "extra": {"relation": []}}


def _distinct(paragraphs: list[str]) -> list[str]:
    """Paragraphs made unmistakable: each starts with its own number word."""
    return [f"paragraph{k} {text}" for k, text in enumerate(paragraphs)]


# -- CER and WER: jiwer's definitions ----------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=5))
def test_error_counts_are_jiwers(pairs: list[tuple[str, str]]) -> None:
    refs = [normaliser("none")(t) for t, _ in pairs]
    hyps = [normaliser("none")(h) for _, h in pairs]
    counts = [error_counts(t, h) for t, h in zip(refs, hyps, strict=True)]
    chars = sum(c.truth_chars for c in counts)
    words = sum(c.truth_words for c in counts)
    characters = jiwer.process_characters(refs, hyps)
    assert sum(c.char_edits for c in counts) == (
        characters.substitutions + characters.deletions + characters.insertions
    )
    if chars:
        assert sum(c.char_edits for c in counts) / chars == pytest.approx(jiwer.cer(refs, hyps),
                                                                          abs=1e-12)  # fmt: skip
    output = jiwer.process_words(refs, hyps)
    assert sum(c.word_edits for c in counts) == (
        output.substitutions + output.deletions + output.insertions
    )
    assert words == output.hits + output.substitutions + output.deletions
    if words:
        assert sum(c.word_edits for c in counts) / words == pytest.approx(output.wer, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(SENTENCE, min_size=1, max_size=5),
    st.lists(SENTENCE, max_size=5),
    st.sampled_from(sorted(PROFILES)),
)
def test_page_cer_and_wer_are_jiwers_over_the_alignment(
    truth: list[str], answer: list[str], profile: str
) -> None:
    metrics, counts, detail = score_page(_page(truth), "\n\n".join(answer), profile)
    normalise = normaliser(profile)
    refs, hyps = [], []
    for record in detail["alignment"]:
        refs.append(normalise(record["truth"]["content"]) if "truth" in record else "")
        hyps.append(normalise(record["answer"]["content"]) if "answer" in record else "")
    assume(any(refs))
    assert metrics["text_cer"] == pytest.approx(jiwer.cer(refs, hyps), abs=1e-12)
    if any(r.strip() for r in refs):
        assert metrics["text_wer"] == pytest.approx(jiwer.wer(refs, hyps), abs=1e-12)
    union = sum(max(len(r), len(h)) for r, h in zip(refs, hyps, strict=True))
    assert counts["text_union_chars"] == union
    assert metrics["text_union_error"] == pytest.approx(counts["text_union_edits"] / union)


# -- order: scipy's Kendall tau ----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=12))
def test_order_tau_is_scipys_and_accuracy_counts_pairs(pairs: list[tuple[int, int]]) -> None:
    truth = [float(t) for t, _ in pairs]
    answer = [float(a) for _, a in pairs]
    found = order_scores(truth, answer)
    agreeing = disagreeing = 0
    for i in range(len(pairs)):
        for j in range(i + 1, len(pairs)):
            product = (truth[i] - truth[j]) * (answer[i] - answer[j])
            agreeing += product > 0
            disagreeing += product < 0
    assert (found["pairs"], found["agreeing"]) == (agreeing + disagreeing, agreeing)
    expected = kendalltau(truth, answer).statistic
    if agreeing + disagreeing:
        assert found["accuracy"] == agreeing / (agreeing + disagreeing)
        assert found["tau"] == pytest.approx(expected, abs=1e-12)
    else:
        assert "tau" not in found and "accuracy" not in found


# -- properties of answers ---------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.lists(SENTENCE, min_size=2, max_size=6, unique=True), st.sampled_from(sorted(PROFILES)))
def test_a_perfect_answer_scores_no_error_and_full_order(
    paragraphs: list[str], profile: str
) -> None:
    paragraphs = _distinct(paragraphs)
    metrics = score_page(_page(paragraphs), "\n\n".join(paragraphs), profile)[0]
    assert metrics["text_cer"] == metrics["text_wer"] == metrics["text_union_error"] == 0.0
    assert metrics["order_accuracy"] == metrics["order_tau"] == 1.0
    assert metrics["order_edit"] == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(SENTENCE, min_size=3, max_size=7, unique=True), st.randoms(use_true_random=False))
def test_shuffled_paragraphs_lower_order_accuracy_only(
    paragraphs: list[str], rng: random.Random
) -> None:
    paragraphs = _distinct(paragraphs)
    shuffled = paragraphs[:]
    rng.shuffle(shuffled)
    assume(shuffled != paragraphs)
    page = _page(paragraphs)
    perfect = score_page(page, "\n\n".join(paragraphs), "unicode")[0]
    found = score_page(page, "\n\n".join(shuffled), "unicode")[0]
    for name in ("text_cer", "text_wer", "text_union_error"):
        assert found[name] == perfect[name] == 0.0
    assert found["order_accuracy"] < 1.0
    assert found["order_tau"] < 1.0
    assert found["order_edit"] > 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(SENTENCE, min_size=1, max_size=5, unique=True), SENTENCE)
def test_invented_text_raises_cer_and_the_union_error(paragraphs: list[str], invented: str) -> None:
    paragraphs = _distinct(paragraphs)
    page = _page(paragraphs)
    before = score_page(page, "\n\n".join(paragraphs), "unicode")[0]
    after = score_page(page, "\n\n".join([*paragraphs, "invented " + invented]), "unicode")[0]
    assert after["text_cer"] > before["text_cer"]
    assert after["text_union_error"] > before["text_union_error"]
    assert after["text_union_error"] <= 1.0


def test_a_missing_answer_is_an_empty_one() -> None:
    metrics, _, detail = score_page(_page(["one two", "three"]), None, "unicode")
    assert metrics["text_cer"] == metrics["text_wer"] == metrics["text_union_error"] == 1.0
    assert {r["status"] for r in detail["alignment"]} == {"missed"}


def test_a_paragraph_split_or_joined_by_the_answer_costs_no_more_than_the_join() -> None:
    split = score_page(_page(["alpha beta gamma", "delta"]), "alpha beta\n\ngamma\n\ndelta", "none")
    assert split[0]["text_cer"] == 0.0
    assert [r.get("answer_joined") for r in split[2]["alignment"]] == [[0, 12], None]
    joined = score_page(_page(["alpha beta", "gamma delta"]), "alpha beta gamma delta", "none")
    assert joined[0]["text_cer"] == 0.0
    assert joined[2]["alignment"][0]["truth_joined"] == [0, 1]
    invented = score_page(_page(["alpha beta"]), "alpha beta\n\nzzz qqq", "none")
    assert [r["status"] for r in invented[2]["alignment"]] == ["matched", "invented"]


def test_a_page_written_as_one_block_joins_in_one_run() -> None:
    paragraphs = [f"paragraph number {k} says something of its own" for k in range(80)]
    one_block = score_page(_page(paragraphs), " ".join(paragraphs), "unicode")
    assert one_block[0]["text_cer"] == 0.0
    assert len(one_block[2]["alignment"]) == 1
    truth_one_block = score_page(_page([" ".join(paragraphs)]), "\n\n".join(paragraphs), "none")
    assert truth_one_block[0]["text_cer"] == 0.0
    assert len(truth_one_block[2]["alignment"][0]["answer_joined"]) == 80


def test_page_furniture_is_optional() -> None:
    page = _page(["body text here"], extra=[("page_number", "12"), ("header", "Journal")])
    with_furniture = score_page(page, "Journal\n\nbody text here\n\n12", "unicode")
    without = score_page(page, "body text here", "unicode")
    assert with_furniture[0]["text_union_error"] == without[0]["text_union_error"] == 0.0
    statuses = sorted(r["status"] for r in with_furniture[2]["alignment"])
    assert statuses == ["absorbed", "absorbed", "matched"]


# -- tables in any format: the table kind's numbers --------------------------------------------

TABLE_HTML = ("<table><tr><td rowspan=\"2\">Model</td><td colspan=\"2\">Score</td></tr>"
              "<tr><td>Text</td><td>Table</td></tr><tr><td>Alpha</td><td>0.91</td>"
              "<td>0.85</td></tr></table>")  # fmt: skip
ANSWERS = {
    "html-fragment": TABLE_HTML.replace("<td>Alpha", "<th>Alpha").replace(
        "Alpha</td>", "Alpha</th>"
    ),
    "markdown": "| Model | Score | |\n|---|---|---|\n| | Text | Table |\n| Alpha | 0.91 | 0.8 |",
    "latex": "\\begin{tabular}{lll}\n\\multirow{2}{*}{Model} & \\multicolumn{2}{c}{Score} \\\\\n"
    " & Text & Table \\\\\nAlpha & 0.91 & 0.85 \\\\\n\\end{tabular}",
}


@pytest.mark.parametrize("format", sorted(ANSWERS))
def test_tables_in_any_format_score_as_the_table_kind_scores_them(format: str) -> None:
    page = _page([], extra=[("table", TABLE_HTML)])
    metrics = score_page(page, f"Some text.\n\n{ANSWERS[format]}\n", "unicode")[0]
    reference = parsescore.score_pair(
        "table", TABLE_HTML, ANSWERS[format], truth_format="html-fragment", pred_format=format,
        denominator="all_descendants", normalise=True,
    )  # fmt: skip
    assert metrics["table_teds_any"] == reference["TEDS"]
    assert metrics["table_teds_s_any"] == reference["TEDS-S"]
    assert metrics["table_grits_top"] == reference["GriTS-Top"]
    assert metrics["table_grits_con"] == reference["GriTS-Con"]


def test_the_truths_own_latex_table_scores_full_marks() -> None:
    page = _page([], extra=[("table", TABLE_HTML)])
    metrics = score_page(page, ANSWERS["latex"], "unicode")[0]
    assert metrics["table_teds_any"] == metrics["table_teds_s_any"] == 1.0
    assert metrics["table_grits_con"] == 1.0


def test_an_invented_table_halves_the_page_table_score() -> None:
    page = _page([], extra=[("table", TABLE_HTML)])
    metrics, counts, _ = score_page(page, f"{ANSWERS['latex']}\n\n{ANSWERS['latex']}", "unicode")
    assert counts["table_slots"] == 2
    assert metrics["table_teds_any"] == 0.5


def test_an_unreadable_answer_table_scores_zero_with_its_reason() -> None:
    page = _page([], extra=[("table", TABLE_HTML)])
    absurd = '<table><tr><td colspan="100000000">x</td></tr></table>'
    metrics, _, detail = score_page(page, absurd, "unicode")
    assert metrics["table_teds_any"] == 0.0
    (invented,) = [r for r in detail["alignment"] if r["status"] == "invented"]
    assert "colspan 100000000" in invented["unreadable"]


# -- splitting and normalisation ---------------------------------------------------------------


def test_answer_blocks() -> None:
    markdown = (
        "```markdown\n## Title **bold**\n\nText with $x^2$ inline.\n\n$$\nE = mc^2\n$$\n\n"
        "<table><tr><td>a</td></tr></table>\n\n* * *\n\n![fig](a.png)\n\n"
        "\\begin{equation}a=b\\end{equation}\n\n| a |\n|---|\n| 1 |\n```"
    )
    blocks = [(b.kind, b.content, b.format) for b in answer_blocks(markdown)]
    assert blocks == [
        ("text", "Title bold", ""),
        ("text", "Text with $x^2$ inline.", ""),
        ("formula", "E = mc^2", ""),
        ("table", "<table><tr><td>a</td></tr></table>", "html-fragment"),
        ("formula", "\\begin{equation}a=b\\end{equation}", ""),
        ("table", "| a |\n|---|\n| 1 |", "markdown"),
    ]


def test_a_short_delimiter_row_makes_a_markdown_table() -> None:
    blocks = answer_blocks("Intro\n| a | b |\n|:-|-:|\n| 1 | 2 |\nAfter")
    assert [(b.kind, b.content) for b in blocks] == [
        ("text", "Intro"),
        ("table", "| a | b |\n|:-|-:|\n| 1 | 2 |"),
        ("text", "After"),
    ]


def test_normalisation_profiles() -> None:
    text = "  Ｆull\u2013width  “quotes”\\tand\n\ntabs "
    assert normaliser("none")(text) == text.strip()
    assert normaliser("whitespace")(text) == "Ｆull\u2013width “quotes”\\tand tabs"
    assert normaliser("unicode")(text) == 'Full-width "quotes" and tabs'
    assert normaliser("omnidocbench")(text) == "Ｆullwidthquotesandtabs"


def test_the_option_offers_every_profile() -> None:
    import typing

    from parsescore.document.options import DocumentOptions

    hints = typing.get_type_hints(DocumentOptions)
    assert set(typing.get_args(hints["normalisation"])) == set(PROFILES)


def test_truncated_chains_are_joined_once() -> None:
    page = _page(["one ", "two ", "three"])
    page["extra"]["relation"] = [
        {"source_anno_id": 0, "target_anno_id": 1, "relation_type": "truncated"},
        {"source_anno_id": 1, "target_anno_id": 2, "relation_type": "truncated"},
    ]
    metrics, _, detail = score_page(page, "one two three", "unicode")
    assert metrics["text_cer"] == 0.0
    assert [r["truth"]["content"] for r in detail["alignment"]] == ["one two three"]


# -- the command and the library, end to end ---------------------------------------------------


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cases")
    write_cases(root)
    return root


COMPAT = ("text_edit", "text_edit_whole", "text_edit_sample_avg", "formula_edit", "table_teds",
          "table_teds_s", "table_edit", "reading_order_edit")  # fmt: skip


@pytest.mark.parametrize("case", ["perfect", "tables_latex", "missing_empty", "invented"])
def test_compat_numbers_are_unchanged_beside_the_new_ones(cases: Path, case: str) -> None:
    truth, pred = cases / "truth.json", cases / "pred" / case
    compat = parsescore.evaluate("document", truth, pred, quiet=True)
    better = parsescore.evaluate("document", truth, pred, profile="parsescore", quiet=True)
    assert {k: better.totals[k] for k in COMPAT if k in compat.totals} == {
        k: compat.totals[k] for k in COMPAT if k in compat.totals
    }
    assert better.native["omnidocbench"] == compat.native
    for page, values in compat.items.items():
        assert {k: better.items[page][k] for k in values} == values
    assert len(better.items) == len(json.loads(truth.read_text()))
    assert set(better.details) == set(better.items)
    for page, detail in compat.details.items():  # the compat drill-down is kept beside
        assert {k: better.details[page][k] for k in detail} == detail
        assert "alignment" in better.details[page]


def test_the_cases_say_what_the_profile_is_for(cases: Path) -> None:
    truth = cases / "truth.json"

    def run(case: str) -> dict[str, float]:
        found = parsescore.evaluate("document", truth, cases / "pred" / case,
                                    profile="parsescore", quiet=True)  # fmt: skip
        return found.totals

    perfect, latex, invented = run("perfect"), run("tables_latex"), run("invented")
    shuffled, missing = run("shuffled"), run("missing_empty")
    assert perfect["text_cer_pooled"] == perfect["text_union_error_pooled"] == 0.0
    assert perfect["table_teds_any_tables"] == 1.0 and perfect["order_accuracy_pooled"] == 1.0
    assert latex["table_teds"] == 0.0 and latex["table_teds_any_tables"] == 1.0
    assert invented["text_edit"] == perfect["text_edit"]  # OmniDocBench: invented text is free
    assert invented["text_union_error_pooled"] > 0.3  # here it costs
    assert shuffled["text_cer_pooled"] == 0.0 and shuffled["order_accuracy_pooled"] < 0.5
    assert missing["pages"] == 7 and missing["text_union_error_pooled"] > 0.6


def test_allow_missing_leaves_missing_pages_out(cases: Path) -> None:
    found = parsescore.evaluate("document", cases / "truth.json", cases / "pred/missing_empty",
                                profile="parsescore", allow_missing=True, quiet=True)  # fmt: skip
    assert found.totals["pages"] == 5 and set(found.items) == set(found.details)
    assert found.dataset["missing"] == ["paper_physics_7.png", "slides_agile.pdf_2.jpg"]


def test_an_unreadable_page_is_listed_and_scored_empty(cases: Path, tmp_path: Path) -> None:
    pred = tmp_path / "pred"
    pred.mkdir()
    for source in (cases / "pred" / "perfect").iterdir():
        (pred / source.name).write_bytes(source.read_bytes())
    (pred / "news_city_12.md").write_bytes(b"caf\xe9 \xff")
    found = parsescore.evaluate("document", cases / "truth.json", pred, profile="parsescore",
                                quiet=True)  # fmt: skip
    assert "not UTF-8" in found.dataset["unreadable"]["news_city_12.jpg"]
    assert found.items["news_city_12.jpg"]["text_union_error"] == 1.0
    with pytest.raises(InputError, match="not UTF-8"):
        parsescore.evaluate("document", cases / "truth.json", pred, profile="parsescore",
                            strict=True, quiet=True)  # fmt: skip


def test_a_dataset_without_tables_has_no_table_totals(cases: Path, tmp_path: Path) -> None:
    pages = json.loads((cases / "truth.json").read_text())
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps([p for p in pages if "news" in p["page_info"]["image_path"]]))
    found = parsescore.evaluate("document", truth, cases / "pred" / "perfect",
                                profile="parsescore", quiet=True)  # fmt: skip
    assert "table_teds_any_tables" not in found.totals and "table_teds_any" not in found.totals
    assert found.totals["text_cer_pooled"] == 0.0
    assert found.counts["news_city_12.jpg"]["table_slots"] == 0


def test_command_writes_a_document_that_reads_back(cases: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from parsescore.cli.main import app

    out, envelope = tmp_path / "out.json", tmp_path / "result.json"
    ran = CliRunner().invoke(app, [
        "document", "--truth", str(cases / "truth.json"), "--pred",
        str(cases / "pred" / "missing_empty"), "--profile", "parsescore", "--normalisation",
        "whitespace", "--out", str(out), "--result", str(envelope),
    ])  # fmt: skip
    assert ran.exit_code == 0, ran.output
    assert "parsescore profile's numbers" in ran.output
    assert "scored as empty answers" in ran.output
    document = json.loads(out.read_text())
    validate(document, "document")
    validate(json.loads(envelope.read_text()), "result")
    assert document["profile"] == "parsescore" and document["normalisation"] == "whitespace"
    assert document["missing"] == ["paper_physics_7.png", "slides_agile.pdf_2.jpg"]
    native, loaded = parsescore.load_result(out), parsescore.load_result(envelope)
    assert native.totals == loaded.totals
    assert native.items == loaded.items
    assert loaded.details["paper_physics_7.png"]["alignment"]


def test_an_unknown_normalisation_is_refused(cases: Path) -> None:
    with pytest.raises(InputError, match="normalisation"):
        parsescore.evaluate("document", cases / "truth.json", cases / "pred/perfect",
                            profile="parsescore", normalisation="nfc", quiet=True)  # fmt: skip


def test_the_metrics_declare_their_aggregation() -> None:
    from parsescore.core.kinds import Mean, Ratio, get_kind

    kind = get_kind("document")
    assert isinstance(kind.metric("text_cer_pooled").aggregate, Ratio)
    assert isinstance(kind.metric("text_union_error").aggregate, Mean)
    assert kind.metric("order_accuracy").higher_is_better is True
    assert kind.metric("text_wer").higher_is_better is False
