"""quick_match's faster paths against the plain definitions they replace (hypothesis).

- :func:`parsescore.document.match_mk.window_minimum`, run as Python and compiled by numba,
  against the scan of every window (short strings of one and of several 62-bit blocks);
- ``_window_distance`` through each of its paths (plain scan, Python kernel, compiled kernel);
- ``_merge_truncated`` with the compiled row loop (``merge_row``), the same as Python, and the
  Python loop: the same runs and costs;
- ``_rescue`` (``rescue_hits``) alike on each path; whole pages matched on each path: the
  same entries;
- ``_merge_duplicates`` (grouped by key) against the reference's loop over every pair; the
  leftover pairing's cost matrix against ``_distance`` pair by pair;
- the compiled kernel is loaded only once it pays (a fresh process, few windows: no numba).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from parsescore.document import match
from parsescore.document import match_kernels as mk

Kernel = Callable[[np.ndarray, np.ndarray, int, int], int]


def every_window(long: str, short: str) -> int:
    n = len(short)
    return min(Levenshtein.distance(short, long[k : k + n]) for k in range(len(long) - n + 1))


def compiled_kernels() -> dict[str, Any]:
    from parsescore.document.match_kernels_compiled import kernels

    return kernels


def compiled() -> Kernel:
    return compiled_kernels()["window_minimum"]  # type: ignore[no-any-return]


@st.composite
def pairs(draw: Callable[..., Any], longest: int = 160) -> tuple[str, str]:
    """A long string and a short one: a window of it with a few edits, or any string."""
    alphabet = draw(st.sampled_from(["ab", "abc d", "abcdefgh ", "aé中😀 "]))
    long = draw(st.text(alphabet=alphabet, min_size=1, max_size=longest))
    if draw(st.booleans()):
        start = draw(st.integers(0, len(long) - 1))
        stop = draw(st.integers(start + 1, len(long)))
        chars = list(long[start:stop])
        for _ in range(draw(st.integers(0, 1 + len(chars) // 4))):
            at = draw(st.integers(0, len(chars) - 1))
            chars[at] = draw(st.sampled_from(alphabet + "xyz"))
        short = "".join(chars)
    else:
        short = draw(st.text(alphabet=alphabet + "z", min_size=1, max_size=len(long)))
    return long, short


def check_minimum(kernel: Kernel, long: str, short: str, cutoff: int, enough: int) -> None:
    exact = every_window(long, short)
    found = kernel(mk.codes(long), mk.codes(short), cutoff, enough)
    if exact <= enough:
        assert exact <= found <= enough
    elif exact <= cutoff:
        assert found == exact
    else:
        assert found == cutoff + 1


@settings(max_examples=300, deadline=None)
@given(pairs(longest=90), st.data())
@example(("ab" * 40, "ba" * 31 + "b"), None)  # 63 characters: two blocks
def test_python_kernel_is_the_scan_of_every_window(
    pair: tuple[str, str], data: st.DataObject | None
) -> None:
    long, short = pair
    n = len(short)
    cutoff = data.draw(st.integers(0, n)) if data else n // 2
    enough = data.draw(st.integers(-1, cutoff)) if data else -1
    check_minimum(mk.window_minimum, long, short, cutoff, enough)


@settings(max_examples=1500, deadline=None)
@given(pairs(), st.data())
def test_compiled_kernel_is_the_scan_of_every_window(
    pair: tuple[str, str], data: st.DataObject
) -> None:
    long, short = pair
    n = len(short)
    cutoff = data.draw(st.integers(0, n))
    enough = data.draw(st.integers(-1, cutoff))
    check_minimum(compiled(), long, short, cutoff, enough)


def test_kernel_blocks_and_characters() -> None:
    """Block edges (62 bits, 124), characters outside the BMP, a window at either end."""
    kernel = compiled()
    for n in (1, 61, 62, 63, 124, 125, 130):
        short = ("ab😀c" * 40)[:n]
        for long in (short + "xyz" * 20, "xyz" * 20 + short, "q" * 5 + short[::-1] + "q" * 5):
            for cutoff in (0, n // 3, n):
                for enough in (-1, cutoff):
                    check_minimum(kernel, long, short, cutoff, enough)
                    check_minimum(mk.window_minimum, long, short, cutoff, enough)


@contextmanager
def forced(path: str) -> Iterator[None]:
    """quick_match forced through one of its paths: the plain Python loops and scan, the
    kernels run as Python, or compiled."""
    saved = match._compiled
    if path == "scan":
        match._compiled = lambda: None  # type: ignore[assignment]
    elif path == "python":
        plain = {name: getattr(mk, name) for name in mk.KERNELS}
        match._compiled = lambda: plain  # type: ignore[assignment]
    else:
        loaded = compiled_kernels()
        match._compiled = lambda: loaded  # type: ignore[assignment]
    try:
        yield
    finally:
        match._compiled = saved  # type: ignore[assignment]


thresholds = st.sampled_from([match.MERGE, match.RESCUE, 0.25, 0.5, 0.0, 1.0, 0.7])


@settings(max_examples=300, deadline=None)
@given(pair=pairs(longest=70), threshold=thresholds,
       path=st.sampled_from(["scan", "python", "compiled"]))  # fmt: skip
def test_window_distance_on_each_path(pair: tuple[str, str], threshold: float, path: str) -> None:
    long, short = pair
    exact = every_window(long, short) / len(short)
    with forced(path):
        found = match._window_distance(long, short, threshold)
    assert (found < threshold) == (exact < threshold)
    assert (found > threshold) == (exact > threshold)
    if exact <= threshold:
        assert exact <= found <= threshold


words = st.text(alphabet="abcd", min_size=1, max_size=12)


@st.composite
def cut_pages(draw: Callable[..., Any]) -> tuple[list[str], list[str]]:
    """Truth lines (some longer than one block) and predictions cut from them (split,
    dropped, misspelt, reordered) plus strays."""
    truth = draw(st.lists(st.lists(words, min_size=1, max_size=9), min_size=1, max_size=5))
    preds: list[str] = []
    for line in truth:
        cuts = sorted(draw(st.lists(st.integers(0, len(line)), max_size=3)))
        for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True):
            part = " ".join(line[a:b])
            if part and draw(st.booleans()):
                if draw(st.booleans()):
                    at = draw(st.integers(0, len(part) - 1))
                    part = part[:at] + "x" + part[at + 1 :]
                preds.append(part)
    preds += draw(st.lists(words, max_size=3))
    if not preds:
        preds = [draw(words)]
    if draw(st.booleans()):
        preds = draw(st.permutations(preds))
    return [" ".join(line) for line in truth], preds


@settings(max_examples=400, deadline=None)
@given(cut_pages())
@example(page=(["abcde xyz"], ["abqqq", "xyz"]))  # a run's first prediction exactly at MERGE
@example(page=(["abcd " * 20], ["abcd " * 8, "abcd abcd", "abcd " * 9]))  # several blocks
def test_merge_truncated_alike_on_every_path(page: tuple[list[str], list[str]]) -> None:
    """The compiled row loop (and the same run as Python) is the Python loop, which
    test_fast_paths proves to be the reference's loop as written."""
    gt, pred = page
    cost = match._cost_matrix(gt, pred)
    results = []
    for path in ("scan", "python", "compiled"):
        with forced(path):
            merged_cost, indices = match._merge_truncated(cost, gt, pred)
        results.append((merged_cost.tolist(), indices))
    assert results[0] == results[1] == results[2]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abc d", min_size=1, max_size=30), min_size=1, max_size=6),
       st.lists(st.text(alphabet="abc dx", min_size=1, max_size=30), min_size=1, max_size=8),
       st.data())  # fmt: skip
def test_pages_match_alike_on_every_path(
    truth: list[str], preds: list[str], data: st.DataObject
) -> None:
    """quick_match's entries with the compiled kernel are the plain scan's."""
    categories = ["text_block", "title", "header", "equation_isolated"]
    gt_items = [{"category_type": "text_block", "text": text, "order": k + 1,
                 "fine_category_type": data.draw(st.sampled_from(categories[:3]))}
                for k, text in enumerate(truth)]  # fmt: skip
    pred_items = [{"category_type": "text_all", "content": text, "position": [10 * k, 10 * k + 5]}
                  for k, text in enumerate(preds)]  # fmt: skip
    results = []
    for path in ("scan", "python", "compiled"):
        with forced(path):
            results.append(repr(match.quick_match(gt_items, pred_items, "page.jpg")))
    assert results[0] == results[1] == results[2]


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    return done.stdout.strip()


def test_numba_is_loaded_only_once_it_pays() -> None:
    scan = ("import sys; from parsescore.document import match as m; "
            "m._window_distance('abcdefgh' * 20, 'cdexgh', 0.6); ")  # fmt: skip
    assert _fresh(scan + "print('numba' in sys.modules)") == "False"
    over = scan.replace("m._window", "m.SCAN_BUDGET = 0; m._window") + (
        "m._window_distance('abcdefgh' * 20, 'cdexgh', 0.6); print(m._kernels_loaded is not None)"
    )
    assert _fresh(over) == "True"


@settings(max_examples=300, deadline=None)
@given(cut_pages(), st.data())
def test_rescue_alike_on_every_path(page: tuple[list[str], list[str]], data: st.DataObject) -> None:
    gt, pred = page
    unmatched = data.draw(st.lists(st.sampled_from(range(len(gt))), unique=True))
    swapped = data.draw(st.lists(st.sampled_from(range(len(pred))), unique=True))
    results = []
    for path in ("scan", "python", "compiled"):
        with forced(path):  # truth lines in predictions, and the other way round
            results.append((match._rescue(unmatched, gt, pred), match._rescue(swapped, pred, gt)))
    assert results[0] == results[1] == results[2]


def merge_duplicates_as_written(
    converted: list[dict[str, Any]], n_gt: int, gt_lines: list[str]
) -> list[dict[str, Any]]:
    """The reference's ``merge_duplicates_add_unmatched``, every entry against every other."""
    merged: list[dict[str, Any]] = []
    done_pred: set[tuple[Any, ...]] = set()
    done_gt: set[Any] = set()
    for entry in converted:
        key = tuple(entry["pred_idx"]) if isinstance(entry["pred_idx"], list) else (
            entry["pred_idx"],)  # fmt: skip
        if key in done_pred or key == ("",):
            continue
        new = {"gt_idx": [entry["gt_idx"]], "gt": entry["gt"], "pred_idx": entry["pred_idx"],
               "pred": entry["pred"], "edit": entry["edit"]}  # fmt: skip
        for other in converted:
            other_key = tuple(other["pred_idx"]) if isinstance(other["pred_idx"], list) else (
                other["pred_idx"],)  # fmt: skip
            if other_key == key and other is not entry:
                new["gt_idx"].append(other["gt_idx"])
                new["gt"] += other["gt"]
                done_gt.add(other["gt_idx"])
        merged.append(new)
        done_pred.add(key)
        done_gt.add(entry["gt_idx"])
    for i in range(n_gt):
        if i not in done_gt:
            merged.append({"gt_idx": [i], "gt": gt_lines[i], "pred_idx": [""], "pred": "",
                           "edit": 1})  # fmt: skip
    return merged


_pred_idx = st.one_of(st.just(""), st.just([""]), st.lists(st.integers(0, 3), max_size=2))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.just(""), st.integers(0, 5)), _pred_idx), max_size=8))
def test_merge_duplicates_is_the_loop_as_written(pairs: list[tuple[Any, Any]]) -> None:
    converted = [{"gt_idx": g, "gt": f"g{g}", "pred_idx": p, "pred": f"p{p}", "edit": k / 8}
                 for k, (g, p) in enumerate(pairs)]  # fmt: skip
    lines = [f"line {i}" for i in range(6)]
    assert match._merge_duplicates(converted, 6, lines) == merge_duplicates_as_written(
        converted, 6, lines
    )


_lines = st.text(alphabet="ab中 ", min_size=1, max_size=70)


@settings(max_examples=300, deadline=None)
@given(st.lists(_lines, min_size=1, max_size=4), st.lists(_lines, min_size=1, max_size=4))
def test_cost_matrix_is_distance_of_each_pair(gt: list[str], pred: list[str]) -> None:
    """_convert pairs leftovers on _cost_matrix where the reference divides pair by pair."""
    expected = [[match._distance(a, b) for b in pred] for a in gt]
    assert match._cost_matrix(gt, pred).tolist() == expected


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab\\^_$()x ", max_size=30))
def test_inline_formulas_need_their_delimiters(text: str) -> None:
    """inline_to_unicode returns a text without ``$`` or ``\\(`` unscanned: the pattern finds
    nothing there."""
    from parsescore.document.normalise import _INLINE, inline_to_unicode

    if "$" not in text and "\\(" not in text:
        assert _INLINE.search(text) is None
        assert inline_to_unicode(text) == text


# -- split_page's scans against the reference's regular expressions ----------------------------

_markdown = st.text(alphabet="ab$\\[]()\n _`lmthx", max_size=60)


@settings(max_examples=1500, deadline=None)
@given(_markdown)
@example("\\\\[a\\]$b$\\(c\\)$$d$$")
def test_delimited_is_the_regular_expressions_finditer(text: str) -> None:
    from parsescore.document.split import (
        _DISPLAY,
        _DISPLAY_PAIRS,
        _DOLLAR,
        _DOLLAR_PAIRS,
        _delimited,
    )

    for pattern, pairs in ((_DISPLAY, _DISPLAY_PAIRS), (_DOLLAR, _DOLLAR_PAIRS)):
        expected = []
        for found in pattern.finditer(text):
            index = next(k for k, group in enumerate(found.groups()) if group is not None)
            expected.append((found.start(), found.end(), index, found.group(index + 1)))
        assert _delimited(text, pairs) == expected


_runs = st.text(alphabet="_ a`\n", max_size=40).map(
    lambda t: t.replace("`", "```").replace("a", "```markdown\n")
)


@settings(max_examples=800, deadline=None)
@given(_runs)
def test_skipped_passes_change_nothing(text: str) -> None:
    """The passes skipped when their literal is absent are the reference's substitutions."""
    import re

    from parsescore.document.split import _remove_fences, _shorten_runs

    fences = text
    for pattern in (r"^```markdown\n?", r"^```html\n?", r"^```latex\n?"):
        fences = re.sub(pattern, "", fences, flags=re.MULTILINE)
    assert _remove_fences(text) == re.sub(r"```\n?$", "", fences, flags=re.MULTILINE)
    runs = re.sub(r" {4,}", "    ", re.sub(r"_{4,}", "____", text))
    assert _shorten_runs(text) == runs


@settings(max_examples=800, deadline=None)
@given(
    st.text(alphabet="ab\n", max_size=20),
    st.lists(st.tuples(st.integers(-3, 25), st.integers(-3, 25)), max_size=4),
)
@example("abcdef", [(1, 2), (4, 6)])  # in order and apart: the slices
def test_blank_spans_is_the_list_assignment(text: str, spans: list[tuple[int, int]]) -> None:
    from parsescore.document.split import _blank_spans

    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    assert _blank_spans(text, spans) == ("".join(chars) if spans else text)
