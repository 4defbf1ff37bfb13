"""The dataset pass's fast paths (compat.py) and the page tables' one-parse TEDS
(``TedsScorer.pair``) against plain transcriptions of what they replace: the same values, to
the bit and the type, on every input (hypothesis)."""

from __future__ import annotations

import functools
import math
import operator
import random
import struct
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from parsescore.document import compat
from parsescore.document.tables import teds_score
from parsescore.table.synthetic import random_pair

NAN = float("nan")


def _bits(value: Any) -> Any:
    """A value compared to the bit (NaN equals NaN, -0.0 differs from 0.0) and by type."""
    if isinstance(value, float):
        return (type(value), struct.pack("<d", value))
    if isinstance(value, dict):
        return {k: _bits(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_bits(v) for v in value]
    return (type(value), value)


# --- plain transcriptions (the code before the fast paths) -------------------------------------


def _isnan(value: float) -> bool:
    return isinstance(value, float) and math.isnan(value)


def plain_series_sum(values: Sequence[float]) -> float:
    array = [0.0 if _isnan(v) else float(v) for v in values]
    total = 0.0
    for start in range(0, len(array), compat._CHUNK):
        total += compat._pairwise(array, start, min(compat._CHUNK, len(array) - start))
    return total


def plain_series_mean(values: Sequence[float]) -> float:
    count = sum(1 for v in values if not _isnan(v))
    return plain_series_sum(values) / count if count else NAN


def plain_divide(a: float, b: float) -> float:
    if _isnan(a) or _isnan(b):
        return NAN
    if b == 0:
        return NAN if a == 0 else math.copysign(math.inf, a)
    return a / b


def plain_page_split(
    samples: list[dict[str, Any]], page_info: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    if not page_info:
        return {}
    rows: dict[str, list[tuple[str, str, float, int]]] = defaultdict(list)
    for sample in samples:
        img_id = str(sample["img_id"])
        name = img_id[:-4] if img_id.endswith((".jpg", ".png")) else compat._image_name(img_id)
        info = page_info[name]
        if not sample.get("metric"):
            continue
        for metric, score in sample["metric"].items():
            gt, pred = compat._sides(sample)
            upper = max(len(gt), len(pred))
            rows[metric].append((name, "ALL", score, upper))
            for key, value in info.items():
                if isinstance(value, list):
                    for issue in value:
                        if "table" not in issue:
                            rows[metric].append((name, issue, score, upper))
                else:
                    rows[metric].append((name, f"{key}: {value}", score, upper))
    result: dict[str, Any] = {}
    for metric, metric_rows in rows.items():
        groups: dict[tuple[str, str], list[tuple[float, int]]] = defaultdict(list)
        for name, attribute, score, upper in metric_rows:
            groups[(name, attribute)].append((score, upper))
        by_attribute: dict[str, list[float]] = defaultdict(list)
        for (_, attribute), values in sorted(groups.items()):
            if metric == "Edit_dist":
                weighted = plain_series_sum([float(np.float64(s) * u) for s, u in values])
                total = plain_series_sum([float(u) for _, u in values])
                by_attribute[attribute].append(plain_divide(weighted, total))
            else:
                by_attribute[attribute].append(plain_series_mean([float(s) for s, _ in values]))
        result[metric] = {a: compat._grouped_mean(v) for a, v in by_attribute.items()}
    return dict(compat._sorted(result))


# --- the sums ------------------------------------------------------------------------------------

numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1e6, 1e6),
    st.integers(-(10**6), 10**6),
    st.just(NAN),
    st.just(-0.0),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(numbers, max_size=300))
@example([-0.0])
@example([-0.0, -0.0, 1, 2, 3, 4, 5, 6, 7])
@example([NAN] * 9)
@example([True, 2.5])
def test_series_sum_and_mean(values: list[float]) -> None:
    assert _bits(compat._series_sum(values)) == _bits(plain_series_sum(values))
    assert _bits(compat._series_mean(values)) == _bits(plain_series_mean(values))


def test_series_sum_over_several_chunks() -> None:
    rng = random.Random(1)
    values: list[float] = [rng.random() * 10 ** rng.randint(-8, 8) for _ in range(20_000)]
    values[5] = NAN
    assert _bits(compat._series_sum(values)) == _bits(plain_series_sum(values))


@settings(max_examples=500, deadline=None)
@given(numbers, numbers)
def test_divide(a: float, b: float) -> None:
    assert _bits(compat._divide(a, b)) == _bits(plain_divide(a, b))


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(st.floats(allow_nan=True), st.integers(-(10**6), 10**6)),
    st.one_of(st.integers(0, 10**6), st.integers(2**52, 2**60), st.integers(-(2**60), 0)),
)
def test_weighted_is_numpy_product(score: float, upper: int) -> None:
    with np.errstate(over="ignore", invalid="ignore"):
        expected = float(np.float64(score) * upper)
        assert _bits(compat._weighted(score, upper)) == _bits(expected)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=True), st.integers(-5, 5)), max_size=40))
def test_python_sum_is_left_to_right(values: list[float]) -> None:
    """Python 3.10's ``sum``: left to right from the int 0 (not 3.12's compensated sum)."""
    expected = functools.reduce(operator.add, values, 0)
    assert _bits(compat._python_sum(values)) == _bits(expected)


# --- get_page_split ------------------------------------------------------------------------------

_PAGES = ["p1", "p2", "page_3", "p4"]
_INFO = {
    "p1": {"language": "en", "layout": "single", "special_issue": ["fuzzy", "table_x"]},
    "p2": {"language": "zh", "special_issue": []},
    "page_3": {"language": "en", "layout": "double", "special_issue": ["fuzzy", "fuzzy"]},
    "p4": {},
}


@st.composite
def samples(draw: st.DrawFn) -> list[dict[str, Any]]:
    found = []
    for _ in range(draw(st.integers(0, 30))):
        page = draw(st.sampled_from(_PAGES))
        block = draw(st.integers(0, 9))
        img_id = draw(st.sampled_from([page + ".jpg", page + ".png", f"{page}_{block}"]))
        metric: dict[str, Any] = {}
        if draw(st.booleans()):
            metric["Edit_dist"] = draw(st.floats(0, 1))
        if draw(st.booleans()):
            metric["TEDS"] = draw(st.one_of(st.floats(0, 1), st.just(0), st.just(NAN)))
        sample: dict[str, Any] = {
            "img_id": img_id,
            "gt": draw(st.text("ab", max_size=6)),
            "pred": draw(st.text("abc", max_size=8)),
            "norm_gt": draw(st.sampled_from(["", "xyz", "abcdefghijk"])),
        }
        if metric or draw(st.booleans()):
            sample["metric"] = metric
        found.append(sample)
    return found


@settings(max_examples=400, deadline=None)
@given(samples(), st.booleans())
def test_page_split(found: list[dict[str, Any]], no_info: bool) -> None:
    info = {} if no_info else _INFO
    assert _bits(compat._page_split(found, info)) == _bits(plain_page_split(found, info))


def test_page_split_unknown_page_is_a_key_error() -> None:
    for split in (compat._page_split, plain_page_split):
        try:
            split([{"img_id": "nowhere.jpg", "gt": "", "pred": ""}], _INFO)
        except KeyError as exc:
            assert exc.args == ("nowhere",)
        else:
            raise AssertionError("expected a KeyError")


# --- TEDS and TEDS-S from one parse --------------------------------------------------------------


def two_calls(gt: str, pred: str) -> tuple[float, float]:
    """``call_TEDS``'s two scorer calls, a failure scoring the int 0."""
    scores: list[float] = []
    for structure_only in (False, True):
        try:
            scores.append(teds_score(gt, pred, structure_only))
        except Exception:
            scores.append(0)
    return scores[0], scores[1]


_DOC = '<html><body><table border="1" >{}</table></body></html>'
_PIECES = [
    "<tr>", "</tr>", "<td>", "</td>", "<td colspan=\"2\">", "<td rowspan=\"3\">", "a", "b",
    "<b>", "</b>", "<td colspan=\"x\">", "<td colspan=\"5000\">", "<td colspan=\"0\">", " ",
]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 8), st.integers(1, 5), st.booleans(), st.booleans())
def test_pair_of_generated_tables(seed: int, rows: int, cols: int, spans: bool, b: bool) -> None:
    gt, pred = random_pair(seed, rows, cols, spans=spans, broken=b)
    assert _bits(teds_score.pair(gt, pred)) == _bits(two_calls(gt, pred))
    assert _bits(teds_score.pair(gt, gt)) == _bits(two_calls(gt, gt))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=20),
    st.lists(st.sampled_from(_PIECES), max_size=20),
    st.sampled_from([_DOC, "{}", "<p>{}</p>", "<html><body>{}</body></html>"]),
)
@example([], [], "   {}")
def test_pair_of_markup(one: list[str], other: list[str], frame: str) -> None:
    """Whole and broken tables, bad and absurd spans (errors score 0), no table, blanks."""
    gt, pred = frame.format("".join(one)), _DOC.format("".join(other))
    for a, b in ((gt, pred), (pred, gt), ("", pred), (gt, "")):
        assert _bits(teds_score.pair(a, b)) == _bits(two_calls(a, b))


# --- text keys -----------------------------------------------------------------------------------


def plain_inline_to_unicode(text: str) -> str:
    """``inline_to_unicode`` without its early return for texts holding no ``$`` or ``\\(``."""
    from parsescore.document.normalise import _ESCAPED, _INLINE, latex_to_text

    replacements: list[tuple[int, int, str]] = []
    for match in _INLINE.finditer(text):
        content = match.group(1) if match.group(1) is not None else match.group(2)
        clean = _ESCAPED.sub("", content)
        if any(char in clean for char in "\\^_"):
            if clean.endswith("\\"):
                clean += " "
            try:
                replacements.append((match.start(), match.end(), latex_to_text(clean)))
            except Exception:
                continue
    for start, end, unicode in sorted(replacements, reverse=True):
        text = text[:start] + unicode.strip() + text[end:]
    return text


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="a $\\()^_{}x\n", max_size=30))
@example("\\(x^2\\) and $a_b$")
@example("a \\( b")
def test_inline_to_unicode(text: str) -> None:
    from parsescore.document.normalise import inline_to_unicode

    assert inline_to_unicode(text) == plain_inline_to_unicode(text)
