"""Core assignment helpers and score types."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.shared.assign import augmented_assignment, match_text_lists, text_optimal_support
from parsescore.shared.distance import levenshtein
from parsescore.shared.scores import Counts, macro_mean, micro_counts


def brute_force_minimum(paired: np.ndarray, alone_t: np.ndarray, alone_p: np.ndarray) -> float:
    """Minimum over every partial matching, by enumeration (tiny sizes only)."""
    n_t, n_p = paired.shape
    best = float(alone_t.sum() + alone_p.sum())
    for k in range(1, min(n_t, n_p) + 1):
        for rows in itertools.combinations(range(n_t), k):
            for cols in itertools.permutations(range(n_p), k):
                cost = sum(paired[r, c] for r, c in zip(rows, cols, strict=True))
                cost += sum(alone_t[i] for i in range(n_t) if i not in rows)
                cost += sum(alone_p[j] for j in range(n_p) if j not in cols)
                best = min(best, cost)
    return best


matrices = st.integers(0, 4).flatmap(
    lambda n_t: st.integers(0, 4).flatmap(
        lambda n_p: st.tuples(
            st.lists(st.integers(0, 6), min_size=n_t * n_p, max_size=n_t * n_p).map(
                lambda v: np.array(v, dtype=float).reshape(n_t, n_p)
            ),
            st.lists(st.integers(0, 6), min_size=n_t, max_size=n_t).map(np.array),
            st.lists(st.integers(0, 6), min_size=n_p, max_size=n_p).map(np.array),
        )
    )
)


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_augmented_assignment_is_optimal_and_complete(data) -> None:  # type: ignore[no-untyped-def]
    paired, alone_t, alone_p = (np.asarray(x, dtype=float) for x in data)
    records = augmented_assignment(paired, alone_t, alone_p)
    assert sorted(r.true_index for r in records if r.true_index is not None) == list(
        range(paired.shape[0])
    )
    assert sorted(r.pred_index for r in records if r.pred_index is not None) == list(
        range(paired.shape[1])
    )
    total = sum(r.cost for r in records)
    assert total == brute_force_minimum(paired, alone_t, alone_p)
    if paired.size:
        support = text_optimal_support(paired, alone_t, alone_p, total)
        for r in records:  # the chosen optimum lies inside the support
            if r.true_index is not None and r.pred_index is not None:
                assert support.pairs[r.true_index, r.pred_index]
            elif r.true_index is not None:
                assert support.true_alone[r.true_index]
            else:
                assert support.pred_alone[r.pred_index]


def optimal_choices(paired: np.ndarray, alone_t: np.ndarray, alone_p: np.ndarray) -> set:
    """Every choice used by some minimum-cost matching, by enumeration (tiny sizes only)."""
    n_t, n_p = paired.shape
    best = brute_force_minimum(paired, alone_t, alone_p)
    used: set = set()
    for k in range(0, min(n_t, n_p) + 1):
        for rows in itertools.combinations(range(n_t), k):
            for cols in itertools.permutations(range(n_p), k):
                cost = sum(paired[r, c] for r, c in zip(rows, cols, strict=True))
                cost += sum(alone_t[i] for i in range(n_t) if i not in rows)
                cost += sum(alone_p[j] for j in range(n_p) if j not in cols)
                if cost == best:
                    used |= {("pair", r, c) for r, c in zip(rows, cols, strict=True)}
                    used |= {("true", i) for i in range(n_t) if i not in rows}
                    used |= {("pred", j) for j in range(n_p) if j not in cols}
    return used


@settings(max_examples=150, deadline=None)
@given(matrices)
def test_text_optimal_support_is_exactly_the_union_of_optimal_matchings(data) -> None:  # type: ignore[no-untyped-def]
    paired, alone_t, alone_p = (np.asarray(x, dtype=float) for x in data)
    if not paired.size:
        return
    total = brute_force_minimum(paired, alone_t, alone_p)
    support = text_optimal_support(paired, alone_t, alone_p, total)
    found = {("pair", int(i), int(j)) for i, j in zip(*np.nonzero(support.pairs), strict=True)}
    found |= {("true", int(i)) for i in np.nonzero(support.true_alone)[0]}
    found |= {("pred", int(j)) for j in np.nonzero(support.pred_alone)[0]}
    assert support.exact
    assert found == optimal_choices(paired, alone_t, alone_p)


def test_text_list_records_true_first_then_unmatched_predictions() -> None:
    records = match_text_lists(["b", "zzzz"], ["q", "b", "y"], levenshtein)
    assert [(r.true_index, r.pred_index) for r in records] == [(0, 1), (1, 0), (None, 2)]
    assert [r.cost for r in records] == [0.0, 4.0, 1.0]


def test_counts_scores_and_zero_denominators() -> None:
    c = Counts.from_sets({(1, 2), (2, 3)}, {(1, 2), (1, 3)})
    assert (c.tp, c.fp, c.fn) == (1, 1, 1)
    assert (c.precision, c.recall, c.f1, c.jaccard) == (0.5, 0.5, 0.5, 1 / 3)
    empty = Counts(0, 0, 0)
    assert (empty.precision, empty.recall, empty.f1, empty.jaccard) == (0.0, 0.0, 0.0, 1.0)
    assert micro_counts([c, Counts(2, 0, 1)]) == Counts(3, 1, 2)
    assert macro_mean([1.0, 0.5]) == 0.75
    with pytest.raises(ValueError):
        macro_mean([])


def test_written_files_get_ordinary_permissions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import stat

    from parsescore.core.files import write_json

    umask = os.umask(0o022)
    try:
        write_json(tmp_path / "out.json", {"a": 1})
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "out.json").stat().st_mode) == 0o644
    assert (tmp_path / "out.json").read_text() == '{\n  "a": 1\n}\n'
