"""``parse_table_trees`` / ``build_trees`` (both TEDS trees from one parse and one walk) against
``parse_table_tree`` called once per flag: the same trees, field for field, and the same
errors, on generated tables, markup soup and span errors."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from parsescore.core.errors import InputError
from parsescore.shared.tables.score import rename_costs
from parsescore.shared.tables.tree import (
    NodeKey,
    TableTree,
    build_tree,
    build_trees,
    find_table,
    parse_table_tree,
    parse_table_trees,
)
from parsescore.table.synthetic import random_pair, random_table_html


def _same(one: TableTree, other: TableTree) -> None:
    assert one.keys == other.keys
    assert type(one.node_class) is type(other.node_class) is tuple
    assert type(one.leftmost) is type(other.leftmost) is tuple
    assert all(type(c) is int for c in (*one.node_class, *one.leftmost))
    assert one.node_class == other.node_class
    assert one.leftmost == other.leftmost
    assert (one.n_nodes, one.n_descendants) == (other.n_nodes, other.n_descendants)


def _outcome(call: object) -> object:
    try:
        return call()  # type: ignore[operator]
    except Exception as exc:
        return (type(exc), str(exc))


def _check(text: str, ignore: list[str] | None = None) -> None:
    both = _outcome(lambda: parse_table_trees(text, ignore_nodes=ignore))
    content = _outcome(lambda: parse_table_tree(text, ignore_nodes=ignore))
    structure = _outcome(lambda: parse_table_tree(text, structure_only=True, ignore_nodes=ignore))
    if not isinstance(both, tuple) or isinstance(both[0], type):  # None or an error
        assert both == content == structure
        return
    assert isinstance(content, TableTree) and isinstance(structure, TableTree)
    _same(both[0], content)
    _same(both[1], structure)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 12), st.integers(1, 6), st.booleans(), st.booleans())
def test_generated_tables(seed: int, rows: int, cols: int, spans: bool, broken: bool) -> None:
    gt, pred = random_pair(seed, rows, cols, spans=spans, broken=broken)
    _check(gt)
    _check(pred)
    _check(gt, ["b", "i"])


_PIECES = [
    "<html>", "<!DOCTYPE html>", "<body>", "<table>", "</table>", "<tr>", "<td>", "</td>",
    "<th>", "<b>", "</b>", "<thead>", "<tbody>", "x", "y", " ", "\n", "&amp;", "<!-- c -->",
    "<?pi x?>", "<td colspan='2'>", "<td rowspan=\"3\" colspan='0'>", "<td colspan='x'>",
    "<td rowspan='-2'>", "<td colspan='100000'>", "<br>", "<p>", "<unk>", "</unk>",
    "<table><tr><td>in</td></tr></table>", "<body><table>", "<i>", "</i>", "<sup>",
    "<td><b><i>deep</i>er</b> tail",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=25),
    st.sampled_from(["", "<html><body><table>", " <HTML><body><table>", "x"]),
)
def test_markup_soup(pieces: list[str], prefix: str) -> None:
    """Whole documents and fragments, bad and absurd spans (errors), nested tables."""
    _check(prefix + "".join(pieces))


def test_build_trees_is_build_tree_per_flag() -> None:
    table = find_table(random_table_html(random.Random(5), 30, 8))
    assert table is not None
    content, structure = build_trees(table)
    _same(content, build_tree(table, structure_only=False))
    _same(structure, build_tree(table, structure_only=True))


@pytest.mark.parametrize(
    "text",
    [
        "<html><body><table><tr><td colspan='2000'>a</td></tr></table></body></html>",
        "<html><body><table><tr><td rowspan='a'>a</td></tr></table></body></html>",
        "   ",
        "<html><body><p>no table</p></body></html>",
    ],
)
def test_errors_and_no_table(text: str) -> None:
    _check(text)
    if text.strip():
        outcome = _outcome(lambda: parse_table_trees(text))
        assert outcome is None or outcome[0] in (InputError,)
    else:
        with pytest.raises(etree.ParserError):
            parse_table_trees(text)


_STRUCTURE_KEYS = st.sampled_from(
    [("td", 1, 1, ()), ("td", 2, 1, ()), ("td", 1, 2, ()), ("td", 0, 1, ()), ("tr", None, None,
     None), ("th", None, None, None), ("table", None, None, None), ("b", None, None, None)]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_STRUCTURE_KEYS, min_size=1, max_size=8, unique=True),
       st.lists(_STRUCTURE_KEYS, min_size=1, max_size=8, unique=True))  # fmt: skip
def test_rename_costs_without_cell_content(keys1: list[NodeKey], keys2: list[NodeKey]) -> None:
    """The by-label shortcut (no cell has content, as in every TEDS-S tree) against the rule:
    1 where tag or spans differ, else 0."""
    costs = rename_costs(keys1, keys2)
    expected = [[0.0 if a[:3] == b[:3] else 1.0 for b in keys2] for a in keys1]
    assert costs.dtype == np.float64
    assert costs.tolist() == expected
