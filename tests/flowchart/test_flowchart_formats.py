"""The Mermaid and DOT readers: one test per row of the format spec's mapping, the errors on bad
input (one line, with file, line and column), the caps, and fuzzing (any text gives a flowchart
or an InputError)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.flowchart.formats import (
    MAX_CHARS,
    MAX_DOT_CHARS,
    MAX_NESTING,
    Flowchart,
    clean_label,
    read_dot,
    read_mermaid,
)


def texts(chart: Flowchart) -> list[str]:
    return [n.text for n in chart.nodes]


def edges(chart: Flowchart) -> set[tuple[int, int]]:
    return {(n.node_number, t) for n in chart.nodes for t in n.points_to}


def labels(chart: Flowchart) -> list[tuple[str, ...]]:
    return [n.labels for n in chart.nodes]


# --- Mermaid: nodes ----------------------------------------------------------------------------


def test_nodes_are_numbered_in_order_of_first_appearance() -> None:
    chart = read_mermaid("flowchart TD\n  C --> A\n  B\n  A --> D\n  class B,E foo\n")
    assert [n.node_number for n in chart.nodes] == [1, 2, 3, 4]
    assert texts(chart) == ["C", "A", "B", "D"]  # a class line creates no node (E)


def test_a_node_in_no_edge_is_a_node_with_no_targets() -> None:
    chart = read_mermaid("graph LR\n  A --> B\n  Lonely[On its own]\n")
    assert chart.nodes[2].text == "On its own" and chart.nodes[2].points_to == ()


def test_a_node_never_given_a_label_has_its_id_as_text() -> None:
    chart = read_mermaid("graph LR\n  start1 --> B[Later]\n  B --> start1")
    assert texts(chart) == ["start1", "Later"]


@pytest.mark.parametrize(
    "shape",
    [
        "[t]", "(t)", "([t])", "[[t]]", "[(t)]", "((t))", "(((t)))", ">t]", "{t}", "{{t}}",
        "[/t/]", "[\\t\\]", "[/t\\]", "[\\t/]", '["t"]', '@{ shape: rect, label: "t" }',
        "@{ shape: diam, label: t }",
    ],
)  # fmt: skip
def test_every_node_shape_gives_its_text(shape: str) -> None:
    assert texts(read_mermaid(f"flowchart LR\n  A{shape} --> B")) == ["t", "B"]


def test_shape_data_without_a_label_keeps_the_text() -> None:
    chart = read_mermaid("flowchart LR\n  A[Decide] --> B\n  A@{ shape: diam }")
    assert texts(chart) == ["Decide", "B"]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ('"quoted"', "quoted"),
        ('"`**bold** and *it* and _u_`"', "bold and it and u"),
        ("a<br>b<br/>c<br />d", "a\nb\nc\nd"),
        ("a\\nb", "a\nb"),
        ("<b>bold</b> <i>x</i>", "bold x"),
        ("&amp; &lt; &#9829;", "& < ♥"),
        ("#9829; #quot;x#quot;", '♥ "x"'),
        ("  a  <br>  b  ", "a\nb"),
        # an HTML parser reads the end tag </br> as <br> (Mermaid's text is then "a<br>b")
        ("a</br>b</BR>c</br >d</br/>e</br x>f", "a\nb\nc\nd\ne\nf"),
        ("a</brx>b< /br>c", "ab< /br>c"),
    ],
)
def test_label_clean_up(raw: str, clean: str) -> None:
    assert clean_label(raw) == clean


# --- Mermaid: edges ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "link", ["-->", "---", "-.->", "-.-", "==>", "===", "--o", "--x", "--->", "-..->", "====>"]
)
def test_every_link_kind_gives_one_directed_edge(link: str) -> None:
    assert edges(read_mermaid(f"flowchart LR\n  A {link} B")) == {(1, 2)}


@pytest.mark.parametrize("link", ["<-->", "o--o", "x--x", "<==>", "<-.->"])
def test_two_headed_links_give_both_directions(link: str) -> None:
    assert edges(read_mermaid(f"flowchart LR\n  A {link} B")) == {(1, 2), (2, 1)}


def test_invisible_links_give_no_edge_but_their_nodes() -> None:
    chart = read_mermaid("flowchart LR\n  A ~~~ B")
    assert texts(chart) == ["A", "B"] and edges(chart) == set()


def test_chains_and_ampersands_expand_to_every_pair() -> None:
    chart = read_mermaid("flowchart LR\n  A & B --> C & D --> E")
    assert edges(chart) == {(1, 3), (1, 4), (2, 3), (2, 4), (3, 5), (4, 5)}


def test_duplicate_edges_are_one_edge() -> None:
    chart = read_mermaid("flowchart LR\n  A --> B\n  A -.-> B\n  A -->|x| B")
    assert chart.nodes[0].points_to == (2,) and chart.edge_labels == {(1, 2): "x"}


@pytest.mark.parametrize(
    "link", ["-->|yes| ", "-- yes --> ", "-. yes .-> ", "== yes ==> ", "---|yes| ", '-->|"yes"| ']
)
def test_edge_labels_in_both_forms(link: str) -> None:
    assert read_mermaid(f"flowchart LR\n  A {link}B").edge_labels == {(1, 2): "yes"}


def test_a_link_may_continue_on_the_next_line() -> None:
    chart = read_mermaid('flowchart TB\n  a["x"]\n  --> b["y"]')
    assert edges(chart) == {(1, 2)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # each as Mermaid 12.3.0 reads it (tests/tools/mermaid)
        ("A ~~~\n  B", set()),
        ("A -->\n  B", {(1, 2)}),
        ("A -->\n\n\n  B", {(1, 2)}),
        ("A -->   \r\n  B -->\n  C", {(1, 2), (2, 3)}),
        ("A -- yes -->\n  B", {(1, 2)}),
        ("A -->\n|yes| B", {(1, 2)}),
        ("A e1@-.->\n  B", {(1, 2)}),
        ("A -->\n  %% a comment\n  B", {(1, 2)}),
    ],
)
def test_a_link_may_end_its_line(text: str, expected: set[tuple[int, int]]) -> None:
    chart = read_mermaid(f"flowchart TD\n  {text}\n  Z")
    assert texts(chart)[:2] == ["A", "B"] and edges(chart) == expected


@pytest.mark.parametrize("text", ["A -->|yes|\n  B", "A -->;B"])
def test_a_link_text_may_not_end_its_line(text: str) -> None:
    with pytest.raises(InputError, match="line 2, column"):  # Mermaid refuses them too
        read_mermaid(f"flowchart TD\n  {text}")


# --- Mermaid: subgraphs ------------------------------------------------------------------------


def test_subgraph_titles_are_labels_outermost_first() -> None:
    chart = read_mermaid(
        "flowchart TB\n"
        "  subgraph p1 [Enrolment]\n    A --> B\n    subgraph p2 [Allocation]\n      C\n    end\n"
        "  end\n  B --> C\n"
    )
    assert labels(chart) == [("Enrolment",), ("Enrolment",), ("Enrolment", "Allocation")]


def test_a_node_belongs_to_the_innermost_subgraph_that_mentions_it() -> None:
    chart = read_mermaid(
        "flowchart TB\n  X\n  subgraph o [Outer]\n    X\n    subgraph i [Inner]\n      X\n"
        "    end\n  end\n"
    )
    assert labels(chart) == [("Outer", "Inner")]


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("subgraph one", ()),  # the title is the id
        ('subgraph "Screening"', ()),
        ("subgraph s1", ()),
        ("subgraph Phase One", ("Phase One",)),  # a spaced title: Mermaid numbers the id
        ('subgraph s1 ["Phase One"]', ("Phase One",)),
        ("subgraph s1[Screening]", ("Screening",)),
        # a head in pieces is joined, quoted pieces without their quotes (Mermaid 12.3.0)
        ('subgraph "Main" timeline', ("Main timeline",)),
        ('subgraph "Main"  big  timeline', ("Main  big  timeline",)),
        ('subgraph "A B" C', ("A B C",)),
        ('subgraph "Main"timeline', ()),  # id and title "Maintimeline"
        ('subgraph "a"-b', ()),
        ('subgraph "Main" timeline [Title]', ("Title",)),  # id "Main timeline"
        ('subgraph "a &amp; b" c', ("a & b c",)),
    ],
)
def test_subgraphs_without_a_distinct_title_give_no_label(
    head: str, expected: tuple[str, ...]
) -> None:
    chart = read_mermaid(f"flowchart TB\n  {head}\n    A\n  end\n")
    assert labels(chart) == [expected]


def test_a_subgraph_as_endpoint_links_every_node_inside_it() -> None:
    chart = read_mermaid(
        "flowchart TB\n  subgraph g [G]\n    A\n    subgraph h [H]\n      B\n    end\n  end\n"
        "  g --> C\n"
    )
    assert texts(chart) == ["A", "B", "C"] and edges(chart) == {(1, 3), (2, 3)}


def test_styling_comments_and_front_matter_count_nothing() -> None:
    chart = read_mermaid(
        "---\ntitle: A title\n---\n%%{init: {'theme': 'dark'}}%%\nflowchart LR\n"
        "  %% a comment\n  accTitle: t\n  accDescr: d\n  direction TB\n  A:::big --> B\n"
        "  classDef big fill:#f9f\n  class A big\n  style B fill:#fff\n  linkStyle 0 stroke:red\n"
        '  click A href "https://example.org"\n'
    )
    assert texts(chart) == ["A", "B"] and edges(chart) == {(1, 2)}
    assert chart.additional_texts == ()


def test_a_markdown_code_block_around_the_diagram_is_read() -> None:
    chart = read_mermaid("```mermaid\nflowchart LR\n  A --> B\n```\n")
    assert edges(chart) == {(1, 2)}
    with pytest.raises(InputError, match="line 3, column"):
        read_mermaid("```mermaid\nflowchart LR\n  A -->\n```")


def test_edge_data_is_not_a_node() -> None:
    chart = read_mermaid("flowchart LR\n  A e1@--> B\n  e1@{ animate: true }\n")
    assert texts(chart) == ["A", "B"]


# --- DOT ---------------------------------------------------------------------------------------


def test_dot_node_text_is_its_label_else_its_id() -> None:
    chart = read_dot('digraph { a [label="Screened\\n(n = 10)"]; a -> b; }')
    assert texts(chart) == ["Screened\n(n = 10)", "b"]


def test_dot_html_labels_give_their_text() -> None:
    chart = read_dot("digraph { a [label=<<b>Bold</b><br/>line &amp; more>]; }")
    assert texts(chart) == ["Bold\nline & more"]


def test_dot_edges_both_kinds_and_edge_labels() -> None:
    directed = read_dot('digraph { a -> b [label="yes"]; b -> c -> a; }')
    assert edges(directed) == {(1, 2), (2, 3), (3, 1)}
    assert directed.edge_labels == {(1, 2): "yes"}
    undirected = read_dot("graph { a -- b; }")
    assert edges(undirected) == {(1, 2)}  # one edge, in statement order


def test_dot_clusters_with_labels_are_node_labels_and_graph_label_an_additional_text() -> None:
    chart = read_dot(
        'digraph { label="Figure 1"; subgraph cluster_a { label="Enrolment"; x; '
        "subgraph cluster_b { label=Follow; y; } } subgraph plain { label=No; z; } x -> y -> z; }"
    )
    assert labels(chart) == [("Enrolment",), ("Enrolment", "Follow"), ()]
    assert chart.additional_texts == ("Figure 1",)


def test_dot_ports_and_anonymous_subgraph_endpoints() -> None:
    chart = read_dot("digraph { a:p1 -> b:s; {c d} -> e; node [shape=box]; }")
    assert texts(chart) == ["a", "b", "c", "d", "e"]
    assert edges(chart) == {(1, 2), (3, 5), (4, 5)}


# --- bad input ---------------------------------------------------------------------------------


def _one_line(exc: pytest.ExceptionInfo[InputError], path: str) -> str:
    message = str(exc.value)
    assert "\n" not in message and message.startswith(path)
    assert re.search(r"line \d+, column \d+", message), message
    return message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("classDiagram\n  class A", "a Mermaid classDiagram, not a flowchart"),
        ("gantt\n  title x", "a Mermaid gantt, not a flowchart"),
        ("sequenceDiagram\n  A->>B: hi", "a Mermaid sequenceDiagram, not a flowchart"),
        ("hello world", "not a Mermaid flowchart"),
        ("", "not a Mermaid flowchart"),
        ("flowchart TD\n  subgraph S\n    A --> B\n", "subgraph 'S' is never closed"),
        ("flowchart TD\n  A --> B\n  end\n", "'end' without an open subgraph"),
        ("flowchart TD\n  A -->\n", "expected a node after the link"),
        ("flowchart TD\n  A[open --> B\n", "cannot read '[open --> B'"),
    ],
)
def test_mermaid_errors_are_one_line_with_place(text: str, expected: str) -> None:
    with pytest.raises(InputError) as caught:
        read_mermaid(text, path="x.mmd")
    assert expected in _one_line(caught, "x.mmd")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("digraph { a -> ; }", "line 1, column 13"),
        ('digraph {\n a -> b\n c [label="x]\n}', "line 3"),
        ("graph { a -- b ", "line 1"),
        ("flowchart TD\n A --> B", "line 1, column 1"),
    ],
)
def test_dot_syntax_errors_are_one_line_with_place(text: str, where: str) -> None:
    with pytest.raises(InputError) as caught:
        read_dot(text, path="x.dot")
    message = _one_line(caught, "x.dot")
    assert "DOT syntax error" in message and where in message


def test_dot_size_cap_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "digraph { a -> b; b -> c; }"
    assert len(read_dot(text).nodes) == 3
    monkeypatch.setenv("PARSESCORE_MAX_DOT_CHARS", "20")
    with pytest.raises(InputError, match=r"at most 20 are read .*PARSESCORE_MAX_DOT_CHARS"):
        read_dot(text)


def test_caps_on_size_nodes_and_nesting() -> None:
    with pytest.raises(InputError, match=r"at most \d+ are read"):
        read_mermaid("flowchart TD\n" + "A-->B\n" * (MAX_CHARS // 6 + 1))
    with pytest.raises(InputError, match=r"at most \d+ are read from a DOT file"):
        read_dot("digraph {" + "a -> b;" * (MAX_DOT_CHARS // 7) + "}")
    with pytest.raises(InputError, match="at most 999"):
        read_mermaid("flowchart TD\n" + "\n".join(f"n{k}" for k in range(1000)))
    depth = MAX_NESTING + 1
    deep = "flowchart TD\n" + "subgraph s\n" * depth + "A\n" + "end\n" * depth
    with pytest.raises(InputError, match="nested more than"):
        read_mermaid(deep)
    with pytest.raises(InputError, match="nested more than"):
        read_dot("digraph {" + "subgraph {" * (MAX_NESTING + 1) + "a" + "}" * (MAX_NESTING + 2))


# --- fuzzing -----------------------------------------------------------------------------------

_PIECES = [
    "flowchart TD\n", "graph LR;", "A", "B1", "-->", "---", "-.->", "==>", "--o", "<-->", "~~~",
    "|x|", "-- t -->", "[t]", "(t)", "{t}", "((t))", '["q"]', "&", ";", "\n", " ", "subgraph s",
    "subgraph s [T]", "end", "%% c", "classDef c fill:#f", ":::c", "@{ shape: rect }", '"`**m**`"',
    "<br>", "#quot;", "[", "]", "(", "{", '"', "`", "direction LR",
]  # fmt: skip
_DOT_PIECES = [
    "digraph {", "graph {", "}", "a", "b", "->", "--", ";", "[", "]", "label=", '"x"', "<b>y</b>",
    "subgraph cluster_1 {", "{", "\n", " ", "node [shape=box]", "a:p", "=", ",",
]  # fmt: skip

_FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(
    st.one_of(st.text(max_size=200), st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
)
def test_mermaid_reader_gives_a_flowchart_or_an_input_error(text: str) -> None:
    try:
        chart = read_mermaid(text, path=Path("f.mmd"))
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert [n.node_number for n in chart.nodes] == list(range(1, len(chart.nodes) + 1))
    assert all(n.text for n in chart.nodes)


@_FUZZ
@given(
    st.one_of(
        st.text(max_size=200), st.lists(st.sampled_from(_DOT_PIECES), max_size=40).map("".join)
    )
)
def test_dot_reader_gives_a_flowchart_or_an_input_error(text: str) -> None:
    try:
        chart = read_dot(text, path=Path("f.dot"))
    except InputError as exc:
        assert "\n" not in str(exc)
        return
    assert [n.node_number for n in chart.nodes] == list(range(1, len(chart.nodes) + 1))
