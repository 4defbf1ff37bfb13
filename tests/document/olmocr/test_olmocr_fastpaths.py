"""The shortcuts of the olmocr-bench scoring give what the plain definitions give: the exact-
prefix expansion, the memoised and budgeted expansion, the repeat count on the text's end, the
alphanumeric count, one partial_ratio_alignment for partial_ratio, and batched KaTeX renders."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from parsescore.document.olmocr import maths, textops
from parsescore.document.olmocr.checks import _DISALLOWED, _alnum_count
from parsescore.document.olmocr.kernels import codes, expand_long, expand_short

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: small alphabets make near matches, ties and repeats common
_TEXT = st.text(alphabet="ab c", max_size=40)
_NEEDLE = st.text(alphabet="ab c", min_size=1, max_size=30)


@settings(max_examples=400, deadline=None)
@given(needle=_NEEDLE, tail=_TEXT, slack=st.integers(0, 6))
def test_exact_prefix_expands_to_no_edits(needle: str, tail: str, slack: int) -> None:
    """Both variants, in Python and compiled, give (0, len(needle)) when the text starts with
    the needle: the shortcut ``_slow_expand`` and ``_fast_expand`` take."""
    text = needle + tail
    dist = min(slack, len(needle))
    want = (0, len(needle))
    assert textops._expand_long(needle, text, dist) == want
    assert textops._expand_short(needle, text, dist) == want
    for kernel in (expand_long, expand_short):
        score, length = kernel(codes(needle), codes(text), dist)
        assert (int(score), int(length)) == want


@settings(max_examples=400, deadline=None)
@given(needle=_NEEDLE, text=_TEXT, slack=st.integers(0, 6))
def test_expansion_entry_points_agree(needle: str, text: str, slack: int) -> None:
    """``_slow_expand``, ``_fast_expand`` and the memoised ``_auto_expand`` (twice: computed,
    then remembered) give the variant's own answer."""
    dist = min(slack, len(needle))
    variant = textops._expand_long if len(needle) > max(dist * 2, 10) else textops._expand_short
    want = variant(needle, text, dist)
    assert textops._slow_expand(needle, text, dist) == want
    assert textops._fast_expand(needle, text, dist) == want
    assert textops._auto_expand(needle, text, dist) == want
    assert textops._auto_expand(needle, text, dist) == want


@settings(max_examples=300, deadline=None)
@given(needle=st.text(alphabet="ab c", min_size=3, max_size=24),
       text=st.text(alphabet="ab c", max_size=120), dist=st.integers(1, 3))  # fmt: skip
def test_near_matches_same_on_every_path(needle: str, text: str, dist: int) -> None:
    """fuzzysearch's candidates through the automatic path (memo, Python or kernels) are those
    of the pure Python and of the compiled expansion."""
    python = textops.raw_near_matches(needle, text, dist, compiled=False)
    assert textops.raw_near_matches(needle, text, dist, compiled=True) == python
    assert textops.raw_near_matches(needle, text, dist) == python
    assert textops.raw_near_matches(needle, text, dist) == python


def test_budget_switches_to_the_kernels_with_the_same_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the Python budget the kernels expand; the answers do not change."""
    cases = [("abcab cab", "xabcabcabcab cab", 2), ("needle in", "a needle in a haystack", 3),
             ("b a", "a ba b", 1), ("ccccc c", "cccc cccc c", 2)]  # fmt: skip
    before = [textops.raw_near_matches(n, t, d, compiled=False) for n, t, d in cases]
    monkeypatch.setattr(textops, "_EXPANDED", {})
    monkeypatch.setattr(textops, "_python_cells", textops._PYTHON_CELLS)
    assert [textops.raw_near_matches(n, t, d) for n, t, d in cases] == before


def _repeats_plainly(text: str, longest: int) -> list[int]:
    """The repeat count's definition on the whole text."""
    counts = [0] * longest
    if not text:
        return counts
    text = re.sub(r"\s+", " ", text)
    for size in range(1, longest + 1):
        if len(text) < size:
            continue
        count, pos = 0, len(text) - size
        while pos >= 0 and text[pos : pos + size] == text[-size:]:
            count += 1
            pos -= size
        counts[size - 1] = count
    return counts


@settings(max_examples=500, deadline=None)
@given(head=st.text(alphabet="ab \n\t\u3000", max_size=300),
       unit=st.text(alphabet="ab \n\t", min_size=1, max_size=6), times=st.integers(0, 200),
       end=st.text(alphabet=" \n\u2003b", max_size=4))  # fmt: skip
def test_tail_repeats_on_the_end_as_on_the_whole(head: str, unit: str, times: int,
                                                 end: str) -> None:  # fmt: skip
    """Long runs of a repeated unit (the count must widen past its first cut) and whitespace
    runs at any place (a cut must not split one)."""
    text = head + unit * times + end
    assert textops.tail_repeats(text, 5) == _repeats_plainly(text, 5)


@given(st.text())
def test_alnum_count(text: str) -> None:
    assert _alnum_count(text) == sum(c.isalnum() for c in text)
    assert _alnum_count(text.encode("ascii", "ignore").decode()) == sum(
        c.isalnum() for c in text if c.isascii()
    )


def test_no_disallowed_character_is_ascii() -> None:
    """The baseline test skips its CJK/emoji search on ASCII text."""
    assert not _DISALLOWED.findall("".join(chr(c) for c in range(128)))


@settings(max_examples=500, deadline=None)
@given(query=st.text(alphabet="abé cd", max_size=30), content=st.text(alphabet="abé cd",
                                                                       max_size=90))  # fmt: skip
def test_partial_ratio_is_its_alignments_score(query: str, content: str) -> None:
    alignment = fuzz.partial_ratio_alignment(query, content)
    assert fuzz.partial_ratio(query, content) == (0 if alignment is None else alignment.score)


def test_batched_renders_equal_single_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's formulas rendered in one exchange with node give the views one render each
    gives (the MathML compared and the characters laid out)."""
    from katex_ref import katex_dir

    monkeypatch.setenv(maths.KATEX_DIR_ENV, str(katex_dir()))
    formulas = ["\\frac{a}{b} + c^{2}", "x^2 + y^2 = z^2", "\\sqrt{a + b} \\leq c",
                "\\int_0^{3} u(v)\\,dv", "\\badmacro{x}", "\\alpha_{a} \\beta^{b} = 4"]  # fmt: skip
    monkeypatch.setattr(maths, "_RENDERED", {})
    maths.prerender_page(["\\frac{a}{b}"], ["$$" + "$$ and $$".join(formulas) + "$$"], [False])
    batched = {f: (maths._RENDERED[f].inner, maths._RENDERED[f].chars, maths._RENDERED[f].error)
               for f in formulas}  # fmt: skip
    for formula in formulas:
        maths._RENDERED.clear()
        single = maths.render(formula)
        assert (single.inner, single.chars, single.error) == batched[formula]
    assert batched["\\badmacro{x}"][2] is not None


def _tree(node: object) -> object:
    """A builder's tree as nested tuples (names, attributes, strings and whether counted)."""
    from parsescore.document.olmocr.tables import _Node

    if isinstance(node, _Node):
        return (node.name, sorted(node.attrs.items()), [_tree(c) for c in node.children])
    return node


_PLAIN_PIECES = st.sampled_from([
    "<table>", "</table>", "<thead>", "</thead>", "<tbody>", "</tbody>", "<tfoot>", "</tfoot>",
    "<tr>", "</tr>", "<th>", "</th>", "<td>", "</td>", "<br>", "<br/>", "</br>", "<td/>",
    "a", "cell 1", " ", "\n", "  \n ", "x>y", "",
])  # fmt: skip
#: pieces after which HTMLParser's tokeniser must do the work
_OTHER_PIECES = st.sampled_from(["<", "&amp;", "&", "<TD>", "<td class=x>", "<b>", "</td >",
                                 "</td/>", "<!-- c -->", "<br />"])  # fmt: skip


def _same_trees(text: str) -> None:
    from parsescore.document.olmocr.tables import _parse

    plain, general = _parse(text), _parse(text, plain=False)
    assert _tree(plain.root) == _tree(general.root)
    assert plain.closed_void == general.closed_void


@settings(max_examples=600, deadline=None)
@given(st.lists(_PLAIN_PIECES, max_size=50))
def test_plain_table_markup_cut_as_html_parser_cuts_it(pieces: list[str]) -> None:
    """The builder's tree from the plain-markup cut equals the one from HTMLParser's tokeniser."""
    _same_trees("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.lists(_PLAIN_PIECES, max_size=30), st.lists(_OTHER_PIECES, min_size=1, max_size=3),
       st.randoms())  # fmt: skip
def test_other_markup_goes_to_html_parser(pieces: list[str], others: list[str],
                                          rng: Any) -> None:  # fmt: skip
    for other in others:
        pieces.insert(rng.randint(0, len(pieces)), other)
    _same_trees("".join(pieces))


def test_repeats_with_the_same_text_decide_once_and_alike(tmp_path: Path) -> None:
    """Files with one text share a page and each test's verdict: every file's entry is what
    scoring that file alone gives, and the pass counts add up."""
    from parsescore.document.olmocr.bench import score_page
    from parsescore.document.olmocr.checks import parse_check

    table = "<table><tr><th>h1</th><th>h2</th></tr><tr><td>a1</td><td>b1</td></tr></table>"
    same = f"Winter report.\n\nThe **river** station data.\n\n{table}\n\nTotal growth last."
    other = "Winter report.\n\nTotal growth last. The river station data."
    texts = {"d_pg1_repeat1.md": same, "d_pg1_repeat2.md": same, "d_pg1_repeat3.md": other,
             "d_pg1_repeat4.md": same}  # fmt: skip
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    raw = [{"type": "present", "text": "river station data", "max_diffs": 1},
           {"type": "absent", "text": "Copyright 2001"},
           {"type": "order", "before": "The river station", "after": "Total growth last",
            "max_diffs": 1},
           {"type": "table", "cell": "a1", "right": "b1", "top_heading": "h1"},
           {"type": "baseline"}]  # fmt: skip
    checks = tuple(parse_check({"pdf": "d.pdf", "page": 1, "id": f"t{k}", **fields}, "x", k)
                   for k, fields in enumerate(raw))  # fmt: skip
    together = score_page((str(tmp_path), tuple(texts), checks, None, False))["tests"]
    for check in checks:
        entries = together[check.id]["verdicts"]
        assert [e["file"] for e in entries] == list(texts)
        for entry in entries:
            alone = score_page((str(tmp_path), (entry["file"],), checks, None, False))
            assert alone["tests"][check.id]["verdicts"] == [entry]
        assert together[check.id]["passes"] == sum(e["passed"] for e in entries)
    assert together["t2"]["passes"] == 3  # the order holds in the three copies only
