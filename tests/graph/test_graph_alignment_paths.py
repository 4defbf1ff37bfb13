"""Structural alignment's paths give the plain rule's pairs (hypothesis): containment by
``str.find``, by slices and by numpy window hashes; classes paired in plain Python from
listed pairs and groups of nodes, or in numpy score matrices."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_graph_properties import plain_structural_pairs

from parsescore.graph import evaluate
from parsescore.graph.canon import loose_text
from parsescore.graph.evaluate import structural_pairs

_TEXTS = st.lists(st.text(alphabet="ab0  \n\u00e9", min_size=4, max_size=12), unique=True)


@settings(max_examples=300, deadline=None)
@given(_TEXTS, _TEXTS)
def test_containment_paths_equal_every_pair(needles: list[str], texts: list[str]) -> None:
    """Words (spaces, doubled too) and newlines inside texts: the joined texts' separator must
    not make matches."""
    expected = sorted(
        (i, j)
        for i, needle in enumerate(needles)
        for j, text in enumerate(texts)
        if needle != text and needle in text
    )
    assert sorted(evaluate._contained_by_search(needles, texts)) == expected
    assert sorted(evaluate._contained_by_slices(needles, texts)) == expected
    assert sorted(evaluate._contained_in_python(needles, texts, 10**9) or []) == expected
    words = [n.split(" ") for n in needles], [t.split(" ") for t in texts]
    assert sorted(evaluate._contained_in_python(needles, texts, 10**9, words) or []) == expected
    assert evaluate._contained_in_python(needles, texts, -1) is None
    windows = evaluate._Windows(needles), evaluate._Windows(texts)
    assert sorted(evaluate._contained(*windows)) == expected


_VALUES = st.one_of(
    st.sampled_from(["EA", "KG", "abcd", "xabcdx", "abcdx", "ab cd ef", "x ab cd ef y"]),
    st.sampled_from(["long text " * 5, "long text " * 4, "a long text " * 4]),
    st.integers(0, 2),
    st.lists(st.sampled_from(["a", "B", "abcd"]), max_size=3),
)
_ATTRIBUTES = st.dictionaries(st.sampled_from(["u", "v", "w", "x"]), _VALUES, max_size=4)
_NODES = st.lists(st.tuples(st.sampled_from(["C", "D"]), _ATTRIBUTES), max_size=14)


@settings(max_examples=300, deadline=None)
@given(_NODES, _NODES)
def test_every_path_equals_the_plain_rule(truth_nodes: list[Any], got_nodes: list[Any]) -> None:
    """Tied scores (shared units, list elements, containment), every block listed or grouped,
    containment in Python or numpy, pairing in Python or in score matrices."""
    truth = {(cls, (f"t{i}",)): a for i, (cls, a) in enumerate(truth_nodes)}
    got = {(cls, (f"g{i}",)): a for i, (cls, a) in enumerate(got_nodes)}
    expected = plain_structural_pairs(truth, got)
    for listed, work in ((0, 10**9), (1, 10**9), (3, 10**9), (10**6, 10**9), (4, 0)):
        for steps in (0, 10**9):
            ours = structural_pairs(
                list(truth), list(got), truth, got, {"C", "D"}, brute_force_pairs=0,
                listed_block=listed, sparse_work=work, search_steps=steps,
            )  # fmt: skip
            assert ours == expected, (listed, work, steps)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.floats(), st.integers(-(10**30), 10**30)))
def test_numbers_are_prepared_as_their_loose_text(number: float) -> None:
    """Numbers skip :func:`loose_text` (a minus sign glued to the digits is a bullet to it)."""
    assert evaluate._loose_number(number) == loose_text(str(number))
