"""Fuzzing the flowchart and sequence readers (issue 30, item 2), and the linear rewrites of
item 1 against the patterns they replace.

- Each reader (Mermaid flowchart, DOT, Flowde JSON, PlantUML, Mermaid sequenceDiagram), given
  any text made of its syntax's pieces, returns its model or raises an InputError with a
  one-line message: no other exception escapes (RecursionError included).
- Each hand-written or rewritten matcher gives exactly what the quadratic regex it replaces
  gave (the old patterns are kept here as the specification).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.flowchart.formats import (
    _unemphasise,
    _unfence,
    read_dot,
    read_json,
    read_mermaid,
)
from parsescore.sequence.mermaid import _PNAME, _without_directives, parse_mermaid
from parsescore.sequence.parser import parse_plantuml
from parsescore.shared import distance

PIECES = {
    "mermaid": [
        "flowchart TD\n",
        "graph LR;",
        "```mermaid\n",
        "```",
        "---\n",
        "%%",
        "A",
        "B",
        "-->",
        "---",
        "-.->",
        "==>",
        "<-->",
        "~~~",
        "-- x -->",
        "|t|",
        "&",
        "[",
        "]",
        "(",
        ")",
        "{",
        "}",
        '"',
        "`",
        "**",
        "_",
        "<br>",
        "#quot;",
        "subgraph ",
        "end",
        "\n",
        " ",
        "@{ ",
        "shape: rect",
        ":::c",
        "style A fill:#f9f",
        "click A",
        "direction LR",
        ";",
    ],
    "dot": [
        "digraph",
        "graph",
        "strict",
        "subgraph",
        "node",
        "edge",
        "{",
        "}",
        "[",
        "]",
        "=",
        ";",
        ",",
        "->",
        "--",
        "a",
        "b1",
        '"x y"',
        '"',
        "<",
        ">",
        "<b>",
        "label",
        ":",
        "n",
        "/*",
        "*/",
        "//",
        "#",
        "\n",
        " ",
        "\\",
        "+",
        "-1.5",
        "cluster_a",
    ],
    "json": [
        "{",
        "}",
        "[",
        "]",
        '"nodes"',
        '"text"',
        '"x"',
        ":",
        ",",
        "1",
        "-",
        "null",
        "true",
        " ",
        "\n",
        '"',
        "\\",
        "e9",
        "0.5",
    ],
    "plantuml": [
        "@startuml\n",
        "@enduml\n",
        "participant ",
        "actor ",
        '"L N"',
        " as ",
        "A",
        "B",
        "->",
        "-->",
        "<-",
        "->>",
        "x",
        "o",
        ":",
        " hi",
        "\n",
        " ",
        "\\\n",
        "note over A",
        "end note",
        "group g",
        "alt",
        "else",
        "end",
        "box",
        "end box",
        "!define X ",
        "X",
        "!$v = ",
        "$v",
        "!if ",
        "!else",
        "!endif",
        "!include ",
        "f.iuml",
        "!undef X",
        "'",
        "/'",
        "'/",
        "[",
        "]",
        "#red",
        "<<s>>",
        "activate A",
        "return",
        "skinparam {",
        "}",
        "(",
        ")",
        "==",
        "%true()",
    ],
    "mermaid sequence": [
        "sequenceDiagram\n",
        "participant ",
        "actor ",
        "A",
        "B",
        " as ",
        "->>",
        "-->>",
        "-x",
        "-)",
        "<<->>",
        "-|\\",
        ":",
        " hi",
        "\n",
        ";",
        " ",
        "+",
        "-",
        "loop ",
        "alt ",
        "else",
        "par ",
        "and",
        "end",
        "Note over ",
        "Note left of ",
        ",",
        "box ",
        "rect ",
        "%%",
        "%%{",
        "}%%",
        "#",
        "#quot;",
        "@{",
        '"type": "actor"',
        "}",
        "create ",
        "autonumber",
        "accDescr {",
        "---\n",
        "<br>",
    ],
}

READERS = {
    "mermaid": lambda text: read_mermaid(text, path="x.mmd"),
    "dot": lambda text: read_dot(text, path="x.dot"),
    "json": read_json,
    "plantuml": lambda text: parse_plantuml(
        text, path="x.puml", includes={"f.iuml": "!include f.iuml\nA -> B\n"}
    ),
    "mermaid sequence": lambda text: parse_mermaid(text, path="x.mmd"),
}


def _texts(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces) | st.text(max_size=3), max_size=40).map("".join)


@pytest.mark.parametrize("reader", list(READERS))
def test_a_reader_gives_its_model_or_one_input_error(reader: str) -> None:
    read = READERS[reader]

    @given(_texts(PIECES[reader]))
    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def check(text: str) -> None:
        try:
            read(text)
        except InputError as exc:
            message = str(exc)
            assert message and "\n" not in message.strip(), message
            assert "Traceback" not in message

    check()


@pytest.mark.parametrize("reader", list(READERS))
def test_deep_nesting_is_an_input_error(reader: str) -> None:
    """Nesting far past the recursion limit: an InputError (never a RecursionError)."""
    deep = {
        "mermaid": "flowchart TD\n" + "subgraph s\n" * 5_000 + "A\n" + "end\n" * 5_000,
        "dot": "digraph {" + "{" * 5_000 + "a" + "}" * 5_001,
        "json": "[" * 100_000 + "]" * 100_000,
        "plantuml": "@startuml\n!if " + "(" * 5_000 + "1" + ")" * 5_000 + "\nA -> B\n!endif\n",
        "mermaid sequence": "sequenceDiagram\n" + "loop x\n" * 5_000 + "A->>B: hi\n",
    }[reader]
    try:
        READERS[reader](deep)
    except InputError as exc:
        assert "\n" not in str(exc).strip()


# -------------------------------------------------------------------- rewrites = old patterns

_OLD_NORMALISATION = {
    "_SPACES_AROUND_NEWLINE_RE": (re.compile(r" *\n *"), "\n"),
    "_SPACE_BEFORE_PUNCT_RE": (re.compile(r"\s+([,.;:!?%)\]])"), r"\1"),
    "_EQUALS_RE": (re.compile(r"\s*=\s*"), " = "),
    "_PLUS_RE": (re.compile(r"[^\S\n]*\+[^\S\n]*"), "+"),
}


@given(st.text(alphabet=" \t\n\r\x0b\u2003=+,.)a", max_size=40))
@settings(max_examples=3000, deadline=None)
def test_normalisation_patterns_match_as_before(text: str) -> None:
    for name, (old, replacement) in _OLD_NORMALISATION.items():
        new: re.Pattern[str] = getattr(distance, name)
        assert new.sub(replacement, text) == old.sub(replacement, text), name


_OLD_FENCE = re.compile(r"(\s*```[ \t]*(?:mermaid)?[ \t]*\r?\n)(.*?)\n?[ \t]*```\s*", re.DOTALL)


@given(
    st.lists(
        st.sampled_from(["```", "`", " ", "\t", "\n", "\r", "mermaid", "a", "````"]), max_size=14
    ).map("".join)
)
@settings(max_examples=3000, deadline=None)
def test_unfencing_matches_the_old_fence_pattern(text: str) -> None:
    old = _OLD_FENCE.fullmatch(text)
    assert _unfence(text) == (None if old is None else (old.group(1), old.group(2)))


_OLD_EMPHASIS = (
    (re.compile(r"\*\*(.+?)\*\*", re.DOTALL), "**", False),
    (re.compile(r"__(.+?)__", re.DOTALL), "__", False),
    (re.compile(r"\*(.+?)\*", re.DOTALL), "*", False),
    (re.compile(r"(?<![A-Za-z0-9])_(.+?)_(?![A-Za-z0-9])", re.DOTALL), "_", True),
)


@given(st.text(alphabet="*_a-\n é", max_size=24))
@settings(max_examples=3000, deadline=None)
def test_unemphasising_matches_the_old_emphasis_patterns(text: str) -> None:
    for old, mark, flanked in _OLD_EMPHASIS:
        assert _unemphasise(text, mark, flanked) == old.sub(r"\1", text), mark


_OLD_DIRECTIVE = re.compile(r"%%\{.*?\}%%", re.DOTALL)
_OLD_PNAME = re.compile(
    r"[^<>:,;@\s][^<>:,;@]*?(?=[ \t]+as[ \t]|[ \t]*@\{|[ \t]*(?:\n|\Z))", re.IGNORECASE
)


@given(st.lists(st.sampled_from(["%%{", "}%%", "%", "{", "}", "\n", "a"]), max_size=12))
@settings(max_examples=3000, deadline=None)
def test_directives_go_as_with_the_old_pattern(pieces: list[str]) -> None:
    text = "".join(pieces)
    old = _OLD_DIRECTIVE.sub(lambda m: "\n" * m[0].count("\n"), text)
    assert _without_directives(text) == old


@given(
    st.lists(
        st.sampled_from([" ", "\t", "as", "AS", "a", "@{", "@", "\n", "\r", ":", "x y", "\x0c"]),
        max_size=10,
    ).map("".join),
    st.integers(0, 4),
)
@settings(max_examples=3000, deadline=None)
def test_declared_names_match_as_with_the_old_pattern(text: str, start: int) -> None:
    old = _OLD_PNAME.match(text, start)
    new = re.compile(_PNAME, re.IGNORECASE).match(text, start)
    assert (old and old.span()) == (new and new.span())
