"""The Zhang–Shasha kernel against hand-computed distances and against APTED itself."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from apted import APTED, Config
from apted.helpers import Tree
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.shared.tables.ted import postorder_arrays, tree_edit_distance


def _arrays(children: list[list[int]], labels: list[int]) -> tuple[np.ndarray, np.ndarray]:
    order, leftmost = postorder_arrays(children, 0)
    return leftmost, np.array([labels[i] for i in order], dtype=np.int64)


def _unit(n_labels: int) -> np.ndarray:
    return 1.0 - np.eye(n_labels)


def test_hand_computed_distances() -> None:
    # a(b, c) vs a(c): delete b → 1
    l1, c1 = _arrays([[1, 2], [], []], [0, 1, 2])
    l2, c2 = _arrays([[1], []], [0, 2])
    assert tree_edit_distance(l1, l2, c1, c2, _unit(3)) == 1.0
    # a(b(c)) vs a(c): delete the inner b → 1; vs d(e): rename 2 + delete 1 = 3
    l3, c3 = _arrays([[1], [2], []], [0, 1, 2])
    assert tree_edit_distance(l3, l2, c3, c2, _unit(5)) == 1.0
    l4, c4 = _arrays([[1], []], [3, 4])
    assert tree_edit_distance(l3, l4, c3, c4, _unit(5)) == 3.0
    # identical trees → 0; against an empty forest → node count
    assert tree_edit_distance(l1, l1, c1, c1, _unit(3)) == 0.0
    assert tree_edit_distance(l1, np.empty(0, np.int64), c1, np.empty(0, np.int64), _unit(3)) == 3.0


def test_fractional_rename_costs_are_used() -> None:
    l1, c1 = _arrays([[1], []], [0, 1])
    l2, c2 = _arrays([[1], []], [0, 2])
    costs = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.25], [1.0, 0.25, 0.0]])
    assert tree_edit_distance(l1, l2, c1, c2, costs) == 0.25


class _Node(Tree):
    def __init__(self, label: int, children: list[_Node]) -> None:
        self.name = label
        self.children = children


def _random_tree(rng: random.Random, n: int, n_labels: int) -> tuple[list[list[int]], list[int]]:
    children: list[list[int]] = [[] for _ in range(n)]
    for node in range(1, n):
        children[rng.randrange(node)].append(node)
    return children, [rng.randrange(n_labels) for _ in range(n)]


def _to_apted(children: list[list[int]], labels: list[int], node: int = 0) -> _Node:
    return _Node(labels[node], [_to_apted(children, labels, c) for c in children[node]])


@pytest.mark.parametrize("seed", range(40))
def test_random_trees_match_apted(seed: int) -> None:
    rng = random.Random(seed)
    n_labels = 4
    costs = np.array(
        [
            [0.0 if a == b else rng.choice([0.3, 0.7, 1.0]) for b in range(n_labels)]
            for a in range(n_labels)
        ]
    )
    costs = np.minimum(costs, costs.T)
    t1 = _random_tree(rng, rng.randint(1, 25), n_labels)
    t2 = _random_tree(rng, rng.randint(1, 25), n_labels)

    class _Costs(Config):
        def rename(self, a: _Node, b: _Node) -> float:
            return float(costs[a.name, b.name])

    expected = APTED(_to_apted(*t1), _to_apted(*t2), _Costs()).compute_edit_distance()
    l1, c1 = _arrays(*t1)
    l2, c2 = _arrays(*t2)
    assert tree_edit_distance(l1, l2, c1, c2, costs) == pytest.approx(expected, abs=1e-12)


def test_deep_tree_does_not_recurse() -> None:
    n = 5000
    children = [[i + 1] for i in range(n - 1)] + [[]]
    order, leftmost = postorder_arrays(children, 0)
    assert order[0] == n - 1 and order[-1] == 0
    assert (leftmost == 0).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 40), st.integers(1, 40))
def test_python_and_compiled_kernels_give_the_same_floats(seed: int, n1: int, n2: int) -> None:
    """The small-pair Python loops and the numba kernel: bit-identical distances."""
    rng = random.Random(seed)
    n_labels = 5
    costs = np.array([[rng.random() for _ in range(n_labels)] for _ in range(n_labels)])
    l1, c1 = _arrays(*_random_tree(rng, n1, n_labels))
    l2, c2 = _arrays(*_random_tree(rng, n2, n_labels))
    python = tree_edit_distance(l1, l2, c1, c2, costs, compiled=False)
    compiled = tree_edit_distance(l1, l2, c1, c2, costs, compiled=True)
    assert python == compiled


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 4), (8, 6), (12, 9)])
def test_teds_is_the_same_on_both_sides_of_the_threshold(
    rows: int, cols: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whichever kernel the size picks, TEDS and TEDS-S give the same numbers."""
    from parsescore.shared.tables import ted_small
    from parsescore.shared.tables.teds import TEDS
    from parsescore.table.synthetic import random_pair

    gt, pred = random_pair(rows * 13 + cols, rows, cols, spans=True)
    scores = []
    monkeypatch.setattr(ted_small, "PYTHON_CELLS_BUDGET", 10**12)
    for small_from in (0, 10**12):  # everything compiled, then everything in Python
        monkeypatch.setattr(ted_small, "COMPILED_FROM", small_from)
        if small_from:  # a loaded kernel is used for every pair: unload it
            monkeypatch.delitem(sys.modules, "parsescore.shared.tables.ted_compiled")
        spent = ted_small._python_cells_spent
        scores.append((TEDS()(gt, pred), TEDS(True)(gt, pred)))
        ran_python = ted_small._python_cells_spent > spent
        assert ran_python == bool(small_from) or TEDS().tree(gt).same_as(TEDS().tree(pred))  # type: ignore[union-attr,arg-type]
    assert scores[0] == scores[1]
