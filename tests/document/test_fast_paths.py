"""The document kind's fast paths against plain transcriptions of what they replace: each gives
the same values on every input (hypothesis), so the parity goldens need not cover every case.

- ``_window_distance`` (windows skipped by the neighbour bound, or by the compiled kernel's
  bounds when it is loaded) against a scan of every window;
- ``_merge_truncated`` (conditions tested cheapest first, distances carried) against the
  reference's loop transcribed as written, every condition computed in its order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from parsescore.document.match import (
    MERGE,
    RESCUE,
    _cost_matrix,
    _final_subsets,
    _merge_truncated,
    _window_distance,
)

# small alphabets, so that windows, merges and ties happen often
texts = st.text(alphabet="abc d", min_size=1, max_size=40)
words = st.text(alphabet="abcd", min_size=1, max_size=12)


def every_window(long: str, short: str) -> int:
    n = len(short)
    return min(Levenshtein.distance(short, long[k : k + n]) for k in range(len(long) - n + 1))


@settings(max_examples=400, deadline=None)
@given(texts, texts, st.sampled_from([MERGE, RESCUE, 0.25, 0.5, 0.0, 1.0]))
def test_window_distance_is_the_scan_of_every_window(a: str, b: str, threshold: float) -> None:
    long, short = (a, b) if len(a) >= len(b) else (b, a)
    exact = every_window(long, short) / len(short)
    found = _window_distance(long, short, threshold)
    # on the same side of the threshold, exact on it (the callers only compare)
    assert (found < threshold) == (exact < threshold)
    assert (found > threshold) == (exact > threshold)
    if exact <= threshold:
        assert exact <= found <= threshold


def _window_or_false(gt: str, pred: str) -> float | bool:
    if len(gt) >= len(pred) > 0:
        return every_window(gt, pred) / len(pred)
    return False


def _distance(a: str, b: str) -> float:
    return Levenshtein.distance(a, b) / max(len(a), len(b))


def _decision(gt: str, preds: list[str], sub: list[float | bool]) -> tuple[bool, bool]:
    """The reference's merge decision, each condition in its order."""
    if len(preds) == 1:
        return False, False
    current = " ".join(preds[:-1])
    merged = " ".join(preds)
    if _distance(gt, merged) > _distance(gt, current):
        return False, False
    if any(d is False or d > MERGE for d in sub[:-1]):
        return False, False
    added = sub[-1]
    if added is False:
        return False, False
    return added < MERGE, len(merged) <= len(gt)


def merge_as_written(
    cost: np.ndarray, norm_gt: list[str], norm_pred: list[str]
) -> tuple[np.ndarray, list[Any]]:
    """The reference's ``merge_lists`` step, transcribed loop for loop."""
    fixed = np.argwhere(cost < 0.25)
    fixed_gt = [i[0] for i in fixed]
    fixed_pred = [i[1] for i in fixed]
    free_gt = [i for i in range(cost.shape[0]) if i not in fixed_gt]
    free_pred = [j for j in range(cost.shape[1]) if j not in fixed_pred]
    subsets: list[list[int]] = []
    subset_costs: list[float] = []
    for i in free_gt:
        candidates: list[list[int]] = []
        distances: list[float] = []
        for j in free_pred:
            step = 1
            merged = [norm_pred[j]]
            while not (j + step in fixed_pred or j + step >= len(norm_pred)):
                merged.append(norm_pred[j + step])
                sub = [_window_or_false(norm_gt[i], norm_pred[k]) for k in range(j, j + step + 1)]
                merge, go_on = _decision(norm_gt[i], merged, sub)
                if not merge:
                    break
                step += 1
                if not go_on:
                    break
            candidates.append(list(range(j, j + step)))
            line = " ".join(norm_pred[k] for k in range(j, j + step))
            distances.append(
                Levenshtein.distance(norm_gt[i], line) / max(len(line), len(norm_gt[i]))
            )
        if distances:
            best = min(distances)
            chosen = candidates[distances.index(best)]
            if chosen:
                subsets.append(chosen)
                subset_costs.append(best)
    final = _final_subsets(subsets, subset_costs)
    if not final:
        return cost, list(range(len(norm_pred)))
    indices: list[Any] = list(range(len(norm_pred)))
    for subset in final:
        at = indices.index(subset[0])
        for _ in subset:
            indices.pop(at)
        indices.insert(at, subset)
    lines = [" ".join(norm_pred[s[0] : s[-1] + 1]) if isinstance(s, list) else norm_pred[s]
             for s in indices]  # fmt: skip
    return _cost_matrix(norm_gt, lines), indices


@st.composite
def pages(draw: Callable[..., Any]) -> tuple[list[str], list[str]]:
    """Truth lines and predictions cut from them (split, dropped, misspelt) plus strays."""
    truth = draw(st.lists(st.lists(words, min_size=1, max_size=5), min_size=1, max_size=5))
    preds: list[str] = []
    for line in truth:
        cut = draw(st.integers(0, len(line)))
        for part in (line[:cut], line[cut:]):
            if part and draw(st.booleans()):
                preds.append(" ".join(part))
    preds += draw(st.lists(words, max_size=3))
    if not preds:
        preds = [draw(words)]
    order = draw(st.permutations(range(len(preds))))
    if draw(st.booleans()):
        preds = [preds[k] for k in order]
    return [" ".join(line) for line in truth], preds


@settings(max_examples=400, deadline=None)
@given(pages())
@example(page=(["abcde xyz"], ["abqqq", "xyz"]))  # a run's first prediction exactly at MERGE
def test_merge_truncated_is_the_loop_as_written(page: tuple[list[str], list[str]]) -> None:
    gt, pred = page
    cost = _cost_matrix(gt, pred)
    fast_cost, fast_indices = _merge_truncated(cost, gt, pred)
    slow_cost, slow_indices = merge_as_written(cost, gt, pred)
    assert fast_indices == slow_indices
    assert fast_cost.tolist() == slow_cost.tolist()


# -- tables: plain HTML tokenised by one regular expression, the rest by html.parser ---------

_tags = st.sampled_from(["table", "TR", "td", "Th", "thead", "tbody", "span", "br", "img", "p",
                         "math", "sub", "script", "title", "colgroup", "col"])
_values = st.text(alphabet='ab 1"&<>\n', max_size=6)
_attributes = st.lists(
    st.tuples(st.sampled_from(["colspan", "ROWSPAN", "class", "alttext", "data-x", "a_b"]),
              _values, st.sampled_from(['"', "'", ""])),
    max_size=3,
)  # fmt: skip
_spaces = st.sampled_from(["", " ", "  ", "\n", "\t"])
_token = st.one_of(
    st.builds(lambda t, a, w, c: f"<{t}" + "".join(f" {k}={q}{v}{q}" for k, v, q in a)
              + w + ("/" if c else "") + ">", _tags, _attributes, _spaces, st.booleans()),
    st.builds(lambda t, w: f"</{t}{w}>", _tags, _spaces),
    st.text(alphabet="ab 1\n\t±&;<>#x", max_size=8),
    st.sampled_from(["&amp;", "&lt;", "&#177;", "<!-- c -->", "<!DOCTYPE html>", "< b", "</ b>"]),
)  # fmt: skip


def _serialised(root: Any) -> str:
    from parsescore.document.normalise import _serialise

    out: list[str] = []
    _serialise(root, out)
    return "".join(out)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_token, max_size=25))
def test_plain_html_tree_is_html_parsers(tokens: list[str]) -> None:
    from parsescore.document.normalise import _parsed_tree, _plain_tree

    text = "".join(tokens)
    plain = _plain_tree(text)
    if plain is not None:
        assert _serialised(plain) == _serialised(_parsed_tree(text))


def test_plain_html_covers_ordinary_tables() -> None:
    from parsescore.document.normalise import _plain_tree

    table = ('<table border="1">\n<thead><tr><th colspan="2">A b</th></tr></thead>\n'
             '<tr><td rowspan="2">1 ± 2</td><td>x<br/>y</td></tr></table>')  # fmt: skip
    assert _plain_tree(table) is not None
    for odd in ("a &amp; b", "<script>x</script>", "a < b", "<td class=x>", "<!-- c -->"):
        assert _plain_tree(odd) is None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["text_block", "title", "header", "footer", "page_number",
                                 "equation_isolated"]), min_size=1, max_size=8), st.data())
def test_category_is_counters_most_common(cats: list[str], data: st.DataObject) -> None:
    from collections import Counter

    from parsescore.document.match import IGNORED, _category

    indices = data.draw(st.lists(st.integers(0, len(cats) - 1), min_size=1, max_size=6))
    clean = [cats[i] for i in indices if cats[i] not in IGNORED]
    expected = Counter(clean or [cats[i] for i in indices]).most_common(1)[0][0]
    assert _category(indices, cats) == expected
