"""The TEDS tree (tree.parse_table_tree: plain-lxml parse for whole documents, one-pass
postorder walk) against a direct recursive construction over ``lxml.html``'s parse."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from parsescore.shared.tables.tree import NodeKey, find_table, parse_table_tree
from parsescore.table.synthetic import random_pair, random_table_html


def _tokens(element: etree._Element) -> list[str]:
    """The spec's recursion: <tag>, text, children, </tag> (not unk), tail (not td)."""
    out = [f"<{element.tag}>", *(element.text or "")]
    for child in element:
        out += _tokens(child)
    if element.tag != "unk":
        out.append(f"</{element.tag}>")
    if element.tag != "td":
        out += list(element.tail or "")
    return out


def _expected(text: str, structure_only: bool) -> tuple[list[NodeKey], list[int], int] | None:
    """Postorder labels, leftmost leaves and ``.//*`` count, built the obvious way."""
    table = find_table(text)
    if table is None:
        return None
    labels: list[NodeKey] = []
    leftmost: list[int] = []

    def visit(element: etree._Element) -> int:
        if element.tag == "td":
            content = () if structure_only else tuple(_tokens(element)[1:-1])
            spans = [int(element.get(name) or 1) for name in ("colspan", "rowspan")]
            labels.append(("td", spans[0], spans[1], content))
            leftmost.append(len(labels) - 1)
            return len(labels) - 1
        firsts = [visit(child) for child in element]
        labels.append((element.tag, None, None, None))
        leftmost.append(firsts[0] if firsts else len(labels) - 1)
        return leftmost[-1]

    visit(table)
    return labels, leftmost, len(table.xpath(".//*"))


def _check(text: str) -> None:
    for structure_only in (False, True):
        expected = _expected(text, structure_only)
        tree = parse_table_tree(text, structure_only=structure_only)
        if expected is None:
            assert tree is None
            continue
        assert tree is not None
        labels, leftmost, descendants = expected
        assert [tree.keys[c] for c in tree.node_class] == labels
        assert list(tree.leftmost) == leftmost
        assert tree.n_nodes == len(labels) and tree.n_descendants == descendants
        assert sorted(map(repr, tree.keys)) == sorted(map(repr, set(labels)))  # distinct
        is_td = [key[0] == "td" for key in tree.keys]
        assert is_td == sorted(is_td, reverse=True)  # td classes first


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 12), st.integers(1, 6), st.booleans(), st.booleans())
def test_generated_tables(seed: int, rows: int, cols: int, spans: bool, broken: bool) -> None:
    gt, pred = random_pair(seed, rows, cols, spans=spans, broken=broken)
    _check(gt)
    _check(pred)


_PIECES = [
    "<html>", "<HTML>", "<!DOCTYPE html>", "<body>", "<table>", "</table>", "<tr>", "<td>",
    "</td>", "<th>", "<b>", "</b>", "<thead>", "<tbody>", "x", " ", "\n", "&amp;", "<!-- c -->",
    "<?pi x?>", "<td colspan='2'>", "<br>", "<table><tr><td>in</td></tr></table>", "<p>",
    "<unk>", "</unk>", "<head><title>t</title></head>", "<body><table>", "<i>", "</i>",
    "<sup>", "</sup>", "<td><b><i>deep</i>er</b> tail",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=25), st.sampled_from(["", "  ", "\n", "x"]))
def test_markup_soup(pieces: list[str], prefix: str) -> None:
    """Whole documents (plain-lxml path) and anything else (lxml.html's fragment path)."""
    text = prefix + "".join(pieces)
    try:
        find_table(text)
    except (ValueError, etree.LxmlError) as exc:
        with pytest.raises(type(exc)):
            parse_table_tree(text)
        return
    _check(text)


@pytest.mark.parametrize(
    "text",
    [
        "<html><body><table><tr><td>a</td></tr></table></body></html>",
        "  <HTML><BODY><TABLE><TR><TD>a</TD></TR></TABLE></BODY></HTML>",
        "<!doctype html><table><tr><td>a<b>b</b>c</td><th>h<i>i</i></th></tr></table>",
        "<table><tr><td>fragment</td></tr></table>",
        "x <html><body><table><tr><td>not a document</td></tr></table></body></html>",
        "<html><body><p>no table</p></body></html>",
        "<html><body><table></table></body></html>",
    ],
)
def test_documents_and_fragments(text: str) -> None:
    _check(text)


def test_a_big_table() -> None:
    _check(random_table_html(random.Random(3), 60, 15))
