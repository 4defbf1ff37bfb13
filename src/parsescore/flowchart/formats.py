"""Flowcharts as models and tools write them: Flowde's JSON, Mermaid (``flowchart``/``graph``)
and Graphviz DOT; the readers of the kind's format registry (``KIND.formats``) and the lookups
built on it (by name, by extension, by content).

The Mermaid and DOT readers give a :class:`Flowchart`: the Flowde model (numbered nodes with
text, labels and ``points_to``; additional texts) plus the labels written on arrows. The mapping
is the one of the project's format spec (docs/flowchart.md, "Formats"): nodes numbered in order
of first appearance, a label's mark-up cleaned, subgraph titles as node labels, every link one
directed edge (both ways for ``<-->``, none for ``~~~``), chains and ``&`` expanded. The JSON
reader gives Flowde's document as written (Flowde's rules check it with the rest of its folder).

Readers are total: any text gives a flowchart or an :class:`~parsescore.core.errors.InputError` with
line and column; sizes and nesting are capped.

>>> chart = read_mermaid('''flowchart TD
...     A[Screened] -->|eligible| B(Included)
...     A --> C{{Excluded}}''')
>>> [(n.node_number, n.text, n.points_to) for n in chart.nodes]
[(1, 'Screened', (2, 3)), (2, 'Included', ()), (3, 'Excluded', ())]
>>> chart.edge_labels
{(1, 2): 'eligible'}
"""

from __future__ import annotations

import html
import re
import threading
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError, total_reader
from parsescore.core.files import env_limit, parse_json
from parsescore.core.kinds import Format
from parsescore.flowchart.kind import KIND

__all__ = [
    "FlowNode",
    "Flowchart",
    "clean_label",
    "detect_format",
    "extensions_text",
    "flowchart_format",
    "flowde_data",
    "format_of",
    "is_dot",
    "is_json",
    "is_mermaid",
    "read_dot",
    "read_flowchart",
    "read_json",
    "read_mermaid",
]

#: Caps that keep a hostile file bounded in time and memory.
MAX_CHARS = 1_000_000
#: pydot parses about 8 kB a second: 100 kB (a ~1,000-node graph) is read in about 12 s at most;
#: ``PARSESCORE_MAX_DOT_CHARS`` changes it.
MAX_DOT_CHARS = 100_000
#: pydot's parser spends about a millisecond on each name in a statement: at most this many
#: (``PARSESCORE_MAX_DOT_NAMES``) are read from a DOT file (a 999-node chart with 2,000 edges
#: names about 5,000).
MAX_DOT_NAMES = 8_000
MAX_NESTING = 50
MAX_NODES = 999  # Flowde's node numbers are below 1000
#: Longest node text, edge label or title after clean-up (``PARSESCORE_MAX_LABEL_CHARS``).
MAX_LABEL_CHARS = 10_000
MAX_EDGES = 100_000


@dataclass(frozen=True)
class FlowNode:
    """One node: its number (1..n), text, subgraph titles (outermost first), targets, and the
    id the file gave it (for messages and comparisons; not scored)."""

    node_number: int
    text: str
    labels: tuple[str, ...] = ()
    points_to: tuple[int, ...] = ()
    node_id: str = ""


@dataclass(frozen=True)
class Flowchart:
    """One flowchart read from a file: Flowde's four parts and the labels on its edges."""

    nodes: tuple[FlowNode, ...]
    additional_texts: tuple[str, ...] = ()
    edge_labels: dict[tuple[int, int], str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The flowchart as a Flowde prediction file (all four parts)."""
        return {
            "nodes": [
                {
                    "node_number": n.node_number,
                    "text": n.text,
                    "labels": list(n.labels),
                    "points_to": list(n.points_to),
                }
                for n in self.nodes
            ],
            "additional_texts": list(self.additional_texts),
        }


# ---------------------------------------------------------------------------------------------
# The format registry (``KIND.formats``): by name, by extension, by content


def flowchart_format(name: str) -> Format:
    """The registry's format called ``name``; another name is an InputError naming them."""
    for entry in KIND.formats:
        if entry.name == name:
            return entry
    names = ", ".join(entry.name for entry in KIND.formats)
    raise InputError(f"unknown flowchart format {name!r}; expected auto or one of {names}")


def extensions_text() -> str:
    """Every format's extensions, for messages: ``.json, .mmd, .mermaid, .dot or .gv``."""
    found = [ext for entry in KIND.formats for ext in entry.extensions]
    return ", ".join(found[:-1]) + f" or {found[-1]}"


def format_of(path: Path, forced: str = "auto") -> str | None:
    """The format of ``path``: ``forced`` unless ``auto``, else by extension (None: not ours)."""
    if forced != "auto":
        return flowchart_format(forced).name
    suffix = path.suffix.lower()
    return next((entry.name for entry in KIND.formats if suffix in entry.extensions), None)


def detect_format(text: str) -> str | None:
    """The format ``text`` is written in, by its content: the first of the registry whose
    detector says so (None: none of them).

    JSON starts with ``{`` or ``[``; DOT with ``[strict] graph|digraph [id] {`` (after
    comments); Mermaid with front matter, a ``%%`` line, or a diagram keyword (``flowchart``,
    ``graph TD``, or another diagram type, which the Mermaid reader then names).

    >>> detect_format("flowchart LR\\n  A --> B"), detect_format("digraph G { a -> b }")
    ('mermaid', 'dot')
    >>> detect_format('{"nodes": []}'), detect_format("Sorry, I cannot read the image.")
    ('json', None)
    """
    return next(
        (entry.name for entry in KIND.formats if entry.detect is not None and entry.detect(text)),
        None,
    )


def read_flowchart(text: str, fmt: str, *, path: Path | str | None = None) -> Any:
    """``text`` read by the registry's reader of ``fmt`` (a :class:`Flowchart`, or Flowde's
    JSON document); its errors name ``path``."""
    reader = flowchart_format(fmt).read
    try:
        return reader(text)
    except InputError as exc:
        if path is None or exc.path is not None:
            raise
        raise InputError(exc.reason, path=path, where=exc.where) from None


def flowde_data(model: Any) -> tuple[Any, dict[tuple[int, int], str] | None]:
    """What Flowde's checks read from a reader's model: the Flowde JSON document, and the
    labels on its edges (None: Flowde's JSON has none)."""
    if isinstance(model, Flowchart):
        return model.as_json(), model.edge_labels
    return model, None


@total_reader("Flowde JSON file")
def read_json(text: str) -> Any:
    """A Flowde JSON file's content (strict JSON: a repeated key is an error); Flowde's rules
    check it with the rest of its folder."""
    return parse_json(text)


def _head(text: str) -> str:
    return text.lstrip("\ufeff \t\r\n")


_DOT_HEAD = re.compile(
    r"(?:\s++|//[^\n]*+|#[^\n]*+|/\*.*?\*/)*+(?:strict\s+)?(?:di)?graph\b"
    r"(?:\s*(?:\"(?:[^\"\\]|\\.)*\"|[\w.]+))?\s*\{",
    re.IGNORECASE | re.DOTALL,
)


def is_json(text: str) -> bool:
    """Whether ``text`` is JSON (starts with ``{`` or ``[``)."""
    return _head(text).startswith(("{", "["))


def is_dot(text: str) -> bool:
    """Whether ``text`` is DOT: ``[strict] graph|digraph [id] {`` after comments."""
    return bool(_DOT_HEAD.match(_head(text)[:10_000]))


def is_mermaid(text: str) -> bool:
    """Whether ``text`` is Mermaid: front matter, a ``%%`` line or a diagram keyword first (not
    DOT's ``graph {``)."""
    head = _head(text)
    if head.startswith(("---", "%%")):
        return True
    first = head.split("\n", 1)[0].strip()
    matched = re.match(r"(flowchart|graph)\b", first) or _OTHER_DIAGRAMS.match(first)
    return bool(matched) and not is_dot(text)


# ---------------------------------------------------------------------------------------------
# Label clean-up (shared by both formats and by the reference tests)

# `</br>` too: an HTML parser reads that end tag as a `<br>` (so does Mermaid's sanitiser)
_BR = re.compile(r"<br\s*/?>|</br(?=[\s/>])[^<>]*>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_MERMAID_CODE = re.compile(r"(?<!&)#(\d+|[A-Za-z]+);")
#: Markdown-string emphasis, in the order it is removed: (mark, whether a single mark must not
#: touch a letter or digit on its outer side, as ``_`` must not).
_EMPHASIS = (("**", False), ("__", False), ("*", False), ("_", True))


def _is_word_char(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _unemphasise(text: str, mark: str, flanked: bool) -> str:
    """``text`` with each ``<mark>x<mark>`` pair replaced by ``x``, pairs taken left to right,
    each closed by the nearest mark after at least one character: what
    ``re.sub(r"<mark>(.+?)<mark>", r"\1", text, flags=re.DOTALL)`` gives (with ``flanked``:
    no letter or digit before the opening ``_`` or after the closing one).

    By hand, in one pass: the lazy regex looked for a closing mark from every opening one
    (40,000 ``-_a`` took minutes). Once an opening mark has no closing one, no later one has."""
    size = len(mark)
    out: list[str] = []
    done = position = 0
    while True:
        start = text.find(mark, position)
        while flanked and start > 0 and _is_word_char(text[start - 1]):
            start = text.find(mark, start + 1)
        if start < 0:
            break
        end = text.find(mark, start + size + 1)
        while flanked and end >= 0 and end + size < len(text) and _is_word_char(text[end + size]):
            end = text.find(mark, end + 1)
        if end < 0:
            break
        out.append(text[done:start])
        out.append(text[start + size : end])
        done = position = end + size
    out.append(text[done:])
    return "".join(out)


def _mermaid_code(m: re.Match[str]) -> str:
    code = m.group(1)
    return f"&#{code};" if code.isdigit() else f"&{code};"


def clean_label(raw: str, *, mermaid_codes: bool = True) -> str:
    """A label as plain text, by the format spec's clean-up rules (in order).

    >>> clean_label('"`**Bold** and _it_`"')
    'Bold and it'
    >>> clean_label('"a<br/>b &amp; <i>c</i> #9829;"')
    'a\\nb & c ♥'
    """
    text = raw.strip()
    markdown = False
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "`":
        text, markdown = text[1:-1], True
    if markdown:
        for mark, flanked in _EMPHASIS:
            text = _unemphasise(text, mark, flanked)
    text = _BR.sub("\n", text).replace("\\n", "\n")
    text = _TAG.sub("", text)
    if mermaid_codes:
        text = _MERMAID_CODE.sub(_mermaid_code, text)
    text = html.unescape(text)
    return "\n".join(line.strip() for line in text.splitlines()).strip()


# ---------------------------------------------------------------------------------------------
# Building a flowchart from ids, texts and edges (both formats)


@dataclass
class _Builder:
    """Collects nodes (by id, first appearance first), edges and subgraph membership."""

    texts: dict[str, str | None] = field(default_factory=dict)
    edge_ids: set[str] = field(default_factory=set)  # Mermaid's `A e1@--> B`
    edges: list[tuple[list[str], list[str], str, bool]] = field(default_factory=list)
    # subgraph id -> (title or None, parent subgraph id or None)
    subgraphs: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    home: dict[str, str] = field(default_factory=dict)  # node id -> innermost subgraph
    mentions: dict[str, list[str]] = field(default_factory=dict)  # open subgraph -> node ids
    additional_texts: list[str] = field(default_factory=list)
    path: Path | str | None = None

    def node(self, node_id: str, text: str | None = None) -> None:
        if node_id not in self.texts:
            if len(self.texts) >= MAX_NODES * 4:
                raise InputError(f"more than {MAX_NODES} nodes (cap)", path=self.path)
            self.texts[node_id] = None
        if text is not None:
            self.texts[node_id] = text

    def mention(self, node_id: str, subgraph: str | None) -> None:
        """``node_id`` appears inside the open ``subgraph`` (None: at the top level)."""
        if subgraph is not None:
            self.mentions.setdefault(subgraph, []).append(node_id)

    def close(self, subgraph: str) -> None:
        """A subgraph ends: it takes the nodes it mentions that no subgraph took yet.

        Subgraphs end inner first, so a node belongs to the innermost subgraph that mentions it
        (and, between siblings, to the first that ends), as in Mermaid's flowDb.
        """
        for node_id in self.mentions.pop(subgraph, []):
            self.home.setdefault(node_id, subgraph)

    def build(self) -> Flowchart:
        subgraph_ids = set(self.subgraphs)
        ids = [i for i in self.texts if i not in subgraph_ids]
        if len(ids) > MAX_NODES:
            raise InputError(
                f"{len(ids)} nodes; at most {MAX_NODES} are supported (Flowde's node numbers "
                "are below 1000)",
                path=self.path,
            )
        number = {node_id: k + 1 for k, node_id in enumerate(ids)}
        inside = self._members()
        targets: dict[int, dict[int, None]] = {number[i]: {} for i in ids}
        edge_labels: dict[tuple[int, int], str] = {}
        count = 0
        for sources, ends, label, both in self.edges:
            for a in self._expand(sources, inside):
                for b in self._expand(ends, inside):
                    for s, t in ((a, b), (b, a)) if both else ((a, b),):
                        pair = (number[s], number[t])
                        count += 1
                        if count > MAX_EDGES:
                            raise InputError(f"more than {MAX_EDGES} edges (cap)", path=self.path)
                        targets[pair[0]][pair[1]] = None
                        if label and pair not in edge_labels:
                            edge_labels[pair] = label
        self._check_lengths()
        nodes = []
        for node_id in ids:
            raw = self.texts[node_id]
            text = raw if raw else node_id
            nodes.append(
                FlowNode(
                    number[node_id],
                    text,
                    self._titles(node_id),
                    tuple(targets[number[node_id]]),
                    node_id,
                )
            )
        return Flowchart(tuple(nodes), tuple(self.additional_texts), edge_labels)

    def _check_lengths(self) -> None:
        """Refuse a node text, edge label, title or additional text longer than
        ``PARSESCORE_MAX_LABEL_CHARS`` (a bound on the text distances computed from them)."""
        limit = env_limit("PARSESCORE_MAX_LABEL_CHARS", MAX_LABEL_CHARS)
        texts = [
            *((f"node {i[:30]!r}", t) for i, t in self.texts.items() if t),
            *((f"node {i[:30]!r}", i) for i in self.texts),
            *(("an edge label", label) for _, _, label, _ in self.edges),
            *((f"subgraph {i[:30]!r}", t) for i, (t, _) in self.subgraphs.items() if t),
            *(("an additional text", t) for t in self.additional_texts),
        ]
        for what, text in texts:
            if len(text) > limit:
                raise InputError(
                    f"{what} has a text of {len(text)} characters, more than the limit of "
                    f"{limit} (PARSESCORE_MAX_LABEL_CHARS)",
                    path=self.path,
                )

    def _members(self) -> dict[str, list[str]]:
        """Every subgraph's nodes, nested subgraphs' included (for subgraphs as endpoints)."""
        members: dict[str, list[str]] = {s: [] for s in self.subgraphs}
        for node_id in self.texts:  # in node order
            if node_id in self.subgraphs or node_id not in self.home:
                continue
            sub: str | None = self.home[node_id]
            while sub is not None:
                members[sub].append(node_id)
                sub = self.subgraphs[sub][1]
        return members

    def _expand(self, ids: Iterable[str], inside: dict[str, list[str]]) -> Iterator[str]:
        for node_id in ids:
            if node_id in inside:
                yield from inside[node_id]
            else:
                yield node_id

    def _titles(self, node_id: str) -> tuple[str, ...]:
        titles: list[str] = []
        sub = self.home.get(node_id)
        while sub is not None:
            title, parent = self.subgraphs[sub]
            if title and title != sub:
                titles.append(title)
            sub = parent
        return tuple(reversed(titles))


# ---------------------------------------------------------------------------------------------
# Mermaid

_OTHER_DIAGRAMS = re.compile(
    r"(sequenceDiagram|classDiagram(?:-v2)?|stateDiagram(?:-v2)?|erDiagram|gantt|pie|journey|"
    r"gitGraph|mindmap|timeline|quadrantChart|requirementDiagram|C4\w*|sankey(?:-beta)?|"
    r"xychart(?:-beta)?|block(?:-beta)?|packet(?:-beta)?|kanban|architecture(?:-beta)?|"
    r"radar(?:-beta)?|treemap(?:-beta)?|zenuml|info)\b"
)
_FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\r?\n.*?\r?\n---[ \t]*(?=\r?\n|\Z)", re.DOTALL)
_LINE_COMMENT = re.compile(r"^[ \t]*%%[^\n]*", re.MULTILINE)
_FENCE_HEAD = re.compile(r"\s*+```[ \t]*+(?:mermaid)?[ \t]*+\r?\n")


def _unfence(text: str) -> tuple[str, str] | None:
    """``(opening line, body)`` of a text that is one Markdown code block (None: it is not).

    By hand, not one regex: a lazy body followed by spaces, a fence and spaces made the engine
    rescan the rest of the text from every position (a fence and 200,000 spaces: minutes)."""
    head = _FENCE_HEAD.match(text)
    if head is None:
        return None
    end = len(text.rstrip())
    if end - 3 < head.end() or not text.startswith("```", end - 3):
        return None
    start = end - 3
    while start > head.end() and text[start - 1] in " \t":
        start -= 1
    if start > head.end() and text[start - 1] == "\n":
        start -= 1
    return head.group(0), text[head.end() : start]


#: The Mermaid parser's options (the grammar is ``mermaid.lark``).
_MERMAID_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": False,
}
#: The parser built from ``mermaid.lark``, saved (``Lark.save``) after a first line naming what
#: it was built from (:func:`_mermaid_tables_key`): loading it takes a millisecond where
#: analysing the grammar takes tens, in every fresh process. Rewritten by
#: :func:`write_mermaid_tables`; a test checks it matches the grammar and the locked lark.
_MERMAID_TABLES = "mermaid_lalr.bin"


def _mermaid_grammar() -> str:
    return (resources.files("parsescore.flowchart") / "mermaid.lark").read_text("utf-8")


def _mermaid_tables_key(grammar: str) -> bytes:
    """What a saved parser depends on: the grammar, the options and lark's version."""
    import hashlib

    import lark

    made_from = repr((grammar, sorted(_MERMAID_OPTIONS.items()), lark.__version__))
    return hashlib.sha256(made_from.encode("utf-8")).hexdigest().encode("ascii")


@cache
def _mermaid_parser() -> Any:
    """The Mermaid parser: the saved one when it was built from this grammar, these options
    and this lark version, else built from the grammar (the same parser, slower to make)."""
    from lark import Lark

    grammar = _mermaid_grammar()
    saved = resources.files("parsescore.flowchart") / _MERMAID_TABLES
    try:
        with saved.open("rb") as f:
            if f.readline().rstrip(b"\n") == _mermaid_tables_key(grammar):
                return Lark.load(f)
    except FileNotFoundError:
        pass
    return Lark(grammar, **_MERMAID_OPTIONS)


def write_mermaid_tables(path: Path) -> None:
    """Save the parser built from ``mermaid.lark`` to ``path`` (after the grammar or lark
    changes: ``python -c "from parsescore.flowchart.formats import write_mermaid_tables as w;
    w(Path('src/parsescore/flowchart/mermaid_lalr.bin'))"``)."""
    from lark import Lark

    grammar = _mermaid_grammar()
    with path.open("wb") as f:
        f.write(_mermaid_tables_key(grammar) + b"\n")
        Lark(grammar, **_MERMAID_OPTIONS).save(f)


def _blank(m: re.Match[str]) -> str:
    """The match replaced by as many newlines, so that line numbers stay right."""
    return "\n" * m.group(0).count("\n")


def _where(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


@total_reader("Mermaid flowchart")
def read_mermaid(text: str, *, path: Path | str | None = None) -> Flowchart:
    """A Mermaid ``flowchart``/``graph`` diagram as a :class:`Flowchart` (see module doc)."""
    from lark import Token, Tree
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput

    if len(text) > MAX_CHARS:
        raise InputError(f"{len(text)} characters; at most {MAX_CHARS} are read (cap)", path=path)
    text = text.lstrip("\ufeff")
    fenced = _unfence(text)
    if fenced:  # a Markdown code block around the diagram: its lines, numbered as in the file
        text = "\n" * fenced[0].count("\n") + fenced[1]
    source = _FRONT_MATTER.sub(_blank, text, count=1)
    source = _LINE_COMMENT.sub("", source)
    first = next((line.strip() for line in source.splitlines() if line.strip()), "")
    other = _OTHER_DIAGRAMS.match(first)
    if other:
        raise InputError(
            f"a Mermaid {other.group(1)}, not a flowchart; expected 'flowchart' or 'graph' "
            "on the first line",
            path=path,
            where=_where(source, source.find(first)),
        )
    if not first.startswith(("flowchart", "graph")):
        shown = repr(first[:30]) if first else "an empty text"
        raise InputError(
            f"not a Mermaid flowchart: found {shown}; expected 'flowchart' or 'graph' "
            "(with a direction such as TD or LR) on the first line",
            path=path,
            where=_where(source, max(source.find(first), 0)),
        )
    try:
        tree = _mermaid_parser().parse(source)
    except UnexpectedCharacters as exc:
        start = exc.pos_in_stream or 0
        near = source[start : start + 20].split("\n")[0]
        raise InputError(
            f"cannot read {near!r}; expected a node, a link, 'subgraph', 'end' or a style line",
            path=path,
            where=f"line {exc.line}, column {exc.column}",
        ) from None
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None)
        expected = set(getattr(exc, "expected", ()) or ())
        ended = token is None or token.type in ("$END", "NEWLINE", "SEMICOLON")
        shown = "end of the line" if ended else repr(str(token))
        wants = (
            "a node after the link"
            if expected and expected <= {"NODE_ID", "PIPE_TEXT"}
            else "a node, a link, 'subgraph', 'end' or a style line"
        )
        line, column = exc.line, exc.column
        if line is None or line < 1:  # lark gives no place at the end of the text: name the
            end = source.rstrip()  # end of its last word, not the blank lines after it
            line, column = end.count("\n") + 1, len(end) - end.rfind("\n")
        raise InputError(
            f"unexpected {shown}; expected {wants}",
            path=path,
            where=f"line {line}, column {column}",
        ) from None
    except RecursionError:
        raise InputError("the text is nested too deeply (cap)", path=path) from None

    builder = _Builder(path=path)
    stack: list[tuple[str, Token]] = []
    anonymous = 0
    for statement in tree.children:
        if not isinstance(statement, Tree):
            continue
        rule = statement.data
        if rule == "chain":
            _mermaid_chain(statement, builder, stack[-1][0] if stack else None, path)
        elif rule == "subgraph_start":
            token = statement.children[0]
            assert isinstance(token, Token)
            if len(stack) >= MAX_NESTING:
                raise InputError(
                    f"subgraphs nested more than {MAX_NESTING} deep (cap)",
                    path=path,
                    where=f"line {token.line}, column {token.column}",
                )
            sub_id, title = _subgraph_head(str(token)[len("subgraph") :])
            if sub_id is None:
                sub_id = f"subGraph{anonymous}"
                anonymous += 1
            parent = stack[-1][0] if stack else None
            if sub_id not in builder.subgraphs:
                builder.subgraphs[sub_id] = (title, parent)
            stack.append((sub_id, token))
        elif rule == "subgraph_end":
            token = statement.children[0]
            assert isinstance(token, Token)
            if not stack:
                raise InputError(
                    "'end' without an open subgraph",
                    path=path,
                    where=f"line {token.line}, column {token.column}",
                )
            builder.close(stack.pop()[0])
    if stack:
        sub_id, token = stack[-1]
        raise InputError(
            f"subgraph {sub_id!r} is never closed; expected 'end'",
            path=path,
            where=f"line {token.line}, column {token.column}",
        )
    return builder.build()


_QUOTED = re.compile(r'"([^"\n]*)"')


def _subgraph_head(rest: str) -> tuple[str | None, str | None]:
    """``(id, title)`` of ``subgraph <rest>``, as Mermaid's flowDb names them.

    ``subgraph id [title]`` has both; ``subgraph text`` has the text as id and title (so no
    label), unless the text holds a space: then Mermaid numbers the id and the text is a title.
    Mermaid's parser joins a head written in pieces, a quoted piece without its quotes:
    ``subgraph "Main" timeline`` is the title ``Main timeline``.
    """
    rest = rest.strip()
    bracket = _bracket_start(rest)
    if bracket > 0 and rest.endswith("]"):
        head = _QUOTED.sub(r"\1", rest[:bracket]).strip()
        if head:
            return head, clean_label(rest[bracket + 1 : -1])
    if not rest:
        return None, None
    if len(rest) >= 2 and rest[0] == rest[-1] == '"' and '"' not in rest[1:-1]:
        inner = rest[1:-1]  # one quoted text (perhaps a markdown string): clean_label reads it
        inner = inner[1:-1] if len(inner) >= 2 and inner[0] == inner[-1] == "`" else inner
    else:
        inner = rest = _QUOTED.sub(r"\1", rest)
    if re.search(r"\s", inner):
        return None, clean_label(rest)  # Mermaid names it subGraphN
    return inner, None


def _bracket_start(text: str) -> int:
    """The index of the first ``[`` outside quotes (-1: none)."""
    quoted = False
    for index, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif char == "[" and not quoted:
            return index
    return -1


_LINK_TEXT = re.compile(r"^[xo<]?(?:--|==|-\.)(.*?)(?:--+|==+|\.+-)[\->xo=]?$", re.DOTALL)


def _mermaid_link(token: str, pipe: str | None) -> tuple[str, bool, bool]:
    """``(label, both directions, visible)`` of a link token (and its ``|text|``)."""
    visible = not token.startswith("~")
    both = token[0] in "<xo" and token[-1] in ">xo" and len(token) > 2
    label = ""
    if pipe is not None:
        label = clean_label(pipe[1:-1])
    elif token[-1] not in "-=" or token.count("-") + token.count("=") > 3 or " " in token:
        m = _LINK_TEXT.match(token)
        if m and m.group(1).strip():
            label = clean_label(m.group(1))
    return label, both, visible


_EDGE_DATA = re.compile(r"@\{\s*(?:(?:animate|animation|curve)\s*:\s*[^,}]*,?\s*)+\}")


def _shape_text(shape: str) -> str | None:
    """The label a shape gives (None: ``@{ shape: ... }`` without a label keeps the text)."""
    if shape.startswith("@{"):
        m = re.search(r"""\blabel\s*:\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^,}\n]*)""", shape)
        return clean_label(m.group(1)) if m else None
    for opener, closer in (
        ("(((", ")))"),
        ("[[", "]]"),
        ("[(", ")]"),
        ("((", "))"),
        ("([", "])"),
        ("(-", "-)"),
        ("{{", "}}"),
        ("[/", ""),
        ("[\\", ""),
    ):
        if shape.startswith(opener) and (not closer or shape.endswith(closer)):
            inner = shape[len(opener) : len(shape) - (len(closer) or 2)]
            return clean_label(inner)
    return clean_label(shape[1:-1])


def _mermaid_chain(chain: Any, builder: _Builder, subgraph: str | None, path: Any) -> None:
    groups: list[list[str]] = []
    links: list[tuple[str, bool, bool]] = []
    parts = chain.children
    if len(parts) == 1 and len(parts[0].children) == 1:
        lone = parts[0].children[0].children
        shape = lone[1].children[0] if len(lone) > 1 and hasattr(lone[1], "children") else ""
        edge_data = str(lone[0]) in builder.edge_ids or _EDGE_DATA.fullmatch(str(shape))
        if edge_data and str(lone[0]) not in builder.texts and str(shape).startswith("@{"):
            return  # `e1@{ animate: true }`: data of edge e1 (maybe Mermaid's own id), no node
    for part in parts:
        if part.data == "group":
            ids = []
            for node in part.children:
                node_id = str(node.children[0])
                text = None
                for child in node.children[1:]:
                    if getattr(child, "data", None) == "shape":
                        text = _shape_text(str(child.children[0]))
                builder.node(node_id, text)
                builder.mention(node_id, subgraph)
                ids.append(node_id)
            groups.append(ids)
        else:  # link
            builder.edge_ids.update(str(t)[:-1] for t in part.children if t.type == "EDGE_ID")
            tokens = [str(t).rstrip() for t in part.children if t.type in ("LINK", "TEXT_LINK")]
            pipes = [str(t) for t in part.children if t.type == "PIPE_TEXT"]
            links.append(_mermaid_link(tokens[0], pipes[0] if pipes else None))
    for k, (label, both, visible) in enumerate(links):
        if visible:
            builder.edges.append((groups[k], groups[k + 1], label, both))


# ---------------------------------------------------------------------------------------------
# Graphviz DOT

_DOT_ESCAPES = re.compile(r"\\([nlrNGETHL])")
_RESERVED = {"node", "edge", "graph", "subgraph"}


def _dot_text(value: object, node_id: str = "") -> str:
    """A DOT label (quoted, HTML-like or plain) as plain text."""
    raw = str(value).strip()
    if raw.startswith("<") and raw.endswith(">"):
        return clean_label(raw[1:-1], mermaid_codes=False)
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        raw = raw[1:-1].replace('\\"', '"').replace("\\\n", "")

    def escape(m: re.Match[str]) -> str:
        return node_id if m.group(1) == "N" else "\n" if m.group(1) in "nlr" else ""

    text = _DOT_ESCAPES.sub(escape, raw)
    return "\n".join(line.strip() for line in text.splitlines()).strip()


def _dot_id(name: object) -> str:
    """A node id without its port (``a:p1:n`` is node ``a``), unquoted."""
    text = str(name)
    if text.startswith("<") and text.endswith(">"):  # an HTML-like id
        return text[1:-1]
    if text.startswith('"'):
        end = text.find('"', 1)
        while end > 0 and text[end - 1] == "\\":
            end = text.find('"', end + 1)
        return text[1:end] if end > 0 else text.strip('"')
    return text.split(":")[0]


_DOT_TOKEN = re.compile(
    r""""(?:[^"\\]|\\.)*+"?|/\*(?:[^*]|\*(?!/))*+(?:\*/)?|(?://|\#)[^\n]*+|[<\[\]=]|[\w.]++""",
    re.DOTALL,
)


def _dot_names(text: str) -> int:
    """How many names (ids, quoted or HTML strings) DOT statements hold outside attribute lists
    (``[...]``) and not after ``=``: what pydot's parser spends its time on. One linear scan."""
    names = brackets = 0
    after_equals = False
    position = 0
    while True:
        token = _DOT_TOKEN.search(text, position)
        if token is None:
            return names
        first = token.group(0)[0]
        position = token.end()
        if first == "<":  # an HTML string: up to its matching '>'
            depth = 1
            while depth and position < len(text):
                char = text[position]
                depth += 1 if char == "<" else -1 if char == ">" else 0
                position += 1
        elif first in "/#":  # a comment
            continue
        elif first in "[]":
            brackets = max(brackets + (1 if first == "[" else -1), 0)
            after_equals = False
            continue
        elif first == "=":
            after_equals = True
            continue
        if not brackets and not after_equals:
            names += 1
        after_equals = False


_PYDOT_LOCK = threading.Lock()


@contextmanager
def _linear_pydot() -> Iterator[None]:
    """pydot with a linear ``Graph.add_node``, for one parse.

    pydot's own looks up every earlier statement of the same node first (building a ``Node`` of
    each), so ``a a a …`` took quadratic time; this one does the same without the look-up."""
    from pydot.core import Graph

    def add_node(self: Any, node: Any) -> None:
        name = node.get_name()
        earlier = self.obj_dict["nodes"].get(name)
        if earlier:
            earlier.append(node.obj_dict)
        else:
            self.obj_dict["nodes"][name] = [node.obj_dict]
        if not earlier or node.get_parent_graph() is None:
            node.set_parent_graph(self.get_parent_graph())
        node.set_sequence(self.get_next_sequence_number())

    with _PYDOT_LOCK:
        original = Graph.add_node
        Graph.add_node = add_node  # type: ignore[method-assign, assignment]
        try:
            yield
        finally:
            Graph.add_node = original  # type: ignore[method-assign]


@total_reader("DOT file")
def read_dot(text: str, *, path: Path | str | None = None) -> Flowchart:
    """A Graphviz DOT graph (read with pydot) as a :class:`Flowchart` (see module doc)."""
    limit = env_limit("PARSESCORE_MAX_DOT_CHARS", MAX_DOT_CHARS)
    if len(text) > limit:
        raise InputError(
            f"{len(text)} characters; at most {limit} are read from a DOT file "
            "(PARSESCORE_MAX_DOT_CHARS)",
            path=path,
        )
    if text.count("{") > MAX_NESTING * 200:
        raise InputError("too many subgraphs (cap)", path=path)
    depth = deepest = 0
    for char in text:  # braces inside strings count too: a safe over-estimate
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    if deepest > MAX_NESTING:
        raise InputError(f"subgraphs nested more than {MAX_NESTING} deep (cap)", path=path)
    names = _dot_names(text)
    most = env_limit("PARSESCORE_MAX_DOT_NAMES", MAX_DOT_NAMES)
    if names > most:
        raise InputError(
            f"{names} names in statements; at most {most} are read from a DOT file "
            "(PARSESCORE_MAX_DOT_NAMES)",
            path=path,
        )
    with warnings.catch_warnings():  # pydot's grammar uses pyparsing's older names
        warnings.simplefilter("ignore", DeprecationWarning)
        from pydot.dot_parser import GraphParser
    from pyparsing import ParseBaseException

    try:
        with _linear_pydot():
            graphs = list(GraphParser.parser.parse_string(text, parse_all=True))
    except ParseBaseException as exc:
        raise InputError(
            f"DOT syntax error: {exc.msg}; found {exc.line[exc.column - 1 : exc.column + 19]!r}",
            path=path,
            where=f"line {exc.lineno}, column {exc.column}",
        ) from None
    except RecursionError:
        raise InputError("the text is nested too deeply (cap)", path=path) from None
    if not graphs:
        raise InputError("no graph found; expected 'digraph { ... }' or 'graph { ... }'", path=path)
    graph = graphs[0]
    builder = _Builder(path=path)
    label = graph.get_attributes().get("label")
    if label is not None and _dot_text(label):
        builder.additional_texts.append(_dot_text(label))
    _dot_walk(graph, builder, None, 0)
    return builder.build()


def _dot_endpoint(
    end: Any, builder: _Builder, subgraph: str | None, depth: int, default: str | None
) -> list[str]:
    """The node ids of an edge end: a node (port dropped) or an anonymous ``{a b}`` subgraph."""
    if isinstance(end, str | int | float):
        node_id = _dot_id(end)
        _dot_node(builder, node_id, None, default, subgraph)
        return [node_id]
    from pydot import Subgraph

    inner = Subgraph(obj_dict=dict(end)) if not isinstance(end, Subgraph) else end
    before = set(builder.texts)
    _dot_walk(inner, builder, subgraph, depth + 1, default)
    return [i for i in _dot_ids_in(inner) if i in builder.texts or i not in before]


def _dot_node(
    builder: _Builder, node_id: str, label: object, default: str | None, subgraph: str | None
) -> None:
    """A node statement or edge end; a new node without a label takes ``node [label=...]``."""
    if label is None and node_id not in builder.texts:
        label = default
    builder.node(node_id, None if label is None else _dot_text(label, node_id) or None)
    builder.mention(node_id, subgraph)


def _dot_ids_in(graph: Any) -> list[str]:
    ids: list[str] = []
    for node in graph.get_nodes():
        if node.get_name() not in _RESERVED:
            ids.append(_dot_id(node.get_name()))
    for edge in graph.get_edges():
        for end in (edge.get_source(), edge.get_destination()):
            if isinstance(end, str | int | float):
                ids.append(_dot_id(end))
    for sub in graph.get_subgraphs():
        ids.extend(_dot_ids_in(sub))
    return ids


def _dot_walk(
    graph: Any, builder: _Builder, subgraph: str | None, depth: int, default: str | None = None
) -> None:
    """Add a graph's statements in their order (pydot's ``sequence``), subgraphs recursively;
    ``default`` is the ``node [label=...]`` in force."""
    if depth > MAX_NESTING:
        raise InputError(f"subgraphs nested more than {MAX_NESTING} deep (cap)", path=builder.path)
    items: list[tuple[int, str, Any]] = []
    for node in graph.get_nodes():
        items.append((node.obj_dict.get("sequence", 0), "node", node))
    for edge in graph.get_edges():
        items.append((edge.obj_dict.get("sequence", 0), "edge", edge))
    for sub in graph.get_subgraphs():
        items.append((sub.obj_dict.get("sequence", 0), "subgraph", sub))
    for _, what, obj in sorted(items, key=lambda item: item[0]):
        if what == "node":
            name = obj.get_name()
            label = obj.get_attributes().get("label")
            if name == "node":
                default = label if label is not None else default
            elif name == "graph" and label is not None:
                _dot_graph_label(builder, subgraph, label)
            elif name not in _RESERVED:
                _dot_node(builder, _dot_id(name), label, default, subgraph)
        elif what == "edge":
            ends = [
                _dot_endpoint(end, builder, subgraph, depth, default)
                for end in (obj.get_source(), obj.get_destination())
            ]
            label = obj.get_attributes().get("label")
            builder.edges.append(
                (ends[0], ends[1], "" if label is None else _dot_text(label), False)
            )
        else:
            name = str(obj.get_name()).strip('"')
            title = None
            if name.startswith("cluster"):
                label = obj.get_attributes().get("label")
                title = None if label is None else _dot_text(label) or None
            sub_id = f"{name or 'subgraph'}#{len(builder.subgraphs)}"
            builder.subgraphs[sub_id] = (title, subgraph)
            _dot_walk(obj, builder, sub_id, depth + 1, default)
            builder.close(sub_id)


def _dot_graph_label(builder: _Builder, subgraph: str | None, label: object) -> None:
    """``graph [label=...]``: the additional text at the top, a cluster's title inside one."""
    text = _dot_text(label)
    if not text:
        return
    if subgraph is None:
        builder.additional_texts[:] = [text]
    elif subgraph.startswith("cluster"):
        builder.subgraphs[subgraph] = (text, builder.subgraphs[subgraph][1])
