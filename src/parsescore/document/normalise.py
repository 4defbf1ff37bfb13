"""OmniDocBench v1.5's normalisations (``utils/data_preprocess.py``), reproduced.

- :func:`text_key`: a text block as OmniDocBench compares it (inline math with ``\\``, ``^`` or
  ``_`` turned into Unicode by pylatexenc, escaped ``\\t``/``\\n`` removed, everything but word
  characters and CJK dropped);
- :func:`formula_key`: a display formula (delimiters, ``\\tag``, ``\\begin``/``\\end``, font and
  spacing commands removed, lower-cased; the removals are plain substring replacements, so
  ``\\textbf`` loses its ``\\text`` first and ``\\right`` inside ``\\rightarrow`` goes too);
- :func:`table_key`: an HTML table (``th`` → ``td``, ``thead`` and ``span`` unwrapped, entities
  decoded, NFKC, attributes ``style``/``height``/``width``/``align``/``class`` and ``tbody``,
  ``sup``, ``sub``, ``div``, ``p``, ``colgroup`` dropped, whitespace collapsed).

The reference parses tables with BeautifulSoup's ``html.parser`` builder; :func:`_soup_html`
rebuilds the same serialisation from the standard library's parser for the cases that builder
handles (well-nested HTML; see docs/document.md for the limits).
"""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from html.parser import HTMLParser

__all__ = [
    "clean_string",
    "formula_key",
    "inline_to_unicode",
    "latex_to_text",
    "table_cell_texts",
    "table_key",
    "text_key",
]

_INLINE = re.compile(r"\$(.*?)\$|\\\((.*?)\\\)")
_ESCAPED = re.compile(r"\\([\\_&%^])")
_NOT_WORD = re.compile(r"[^\w\u4e00-\u9fff]")


@lru_cache(maxsize=4096)
def latex_to_text(latex: str) -> str:
    """pylatexenc's ``LatexNodes2Text().latex_to_text`` (cached: pages repeat formulas)."""
    from pylatexenc.latex2text import LatexNodes2Text

    return str(LatexNodes2Text().latex_to_text(latex))


def inline_to_unicode(text: str) -> str:
    """Inline formulas holding ``\\``, ``^`` or ``_`` replaced by their Unicode text."""
    if "$" not in text and "\\(" not in text:
        return text  # no inline formula (most blocks): the scan finds nothing
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


def clean_string(text: str) -> str:
    """Escaped and real tabs/newlines removed, then only word characters and CJK kept."""
    for token in ("\\t", "\\n", "\t", "\n", "/t", "/n"):
        text = text.replace(token, "")
    return _NOT_WORD.sub("", text)


def text_key(text: str) -> str:
    """A text block as OmniDocBench compares it."""
    return clean_string(inline_to_unicode(text))


_FORMULA_REMOVED = (
    "\\mathbf", "\\mathrm", "\\mathnormal", "\\mathit", "\\mathbb", "\\mathcal", "\\mathscr",
    "\\mathfrak", "\\mathsf", "\\mathtt", "\\textbf", "\\text", "\\boldmath", "\\boldsymbol",
    "\\operatorname", "\\bm", "\\symbfit", "\\mathbfcal", "\\symbf", "\\scriptscriptstyle",
    "\\notag", "\\setlength", "\\coloneqq", "\\space", "\\thickspace", "\\thinspace",
    "\\medspace", "\\nobreakspace", "\\negmedspace", "\\quad", "\\qquad", "\\enspace",
    "\\substackw", " ", "$$", "\\left", "\\right", "\\displaystyle", "\\text",
)  # fmt: skip
_DISPLAY = re.compile(r"\\\[(.+?)(?<!\\)\\\]")
_FORMULA_PATTERNS = tuple(
    re.compile(p)
    for p in (r"\\tag\{.*?\}", r"\\hspace\{.*?\}", r"\\begin\{.*?\}", r"\\end\{.*?\}",
              r"\\arraycolsep.*?\}")
)  # fmt: skip


def formula_key(text: str) -> str:
    """A display formula as OmniDocBench compares it."""
    text = text.strip().strip("$").strip("\n")
    match = _DISPLAY.search(text)
    if match:
        text = match.group(1).strip()
    for pattern in _FORMULA_PATTERNS:
        text = pattern.sub("", text)
    text = text.strip(".")
    for token in _FORMULA_REMOVED:
        text = text.replace(token, "")
    return text.lower()


# --- tables ------------------------------------------------------------------------------------

_VOID = frozenset(
    (
        "area", "base", "basefont", "bgsound", "br", "col", "command", "embed", "frame", "hr",
        "image", "img", "input", "isindex", "keygen", "link", "menuitem", "meta", "nextid",
        "param", "source", "spacer", "track", "wbr",
    )
)  # fmt: skip
_RAW_TEXT = frozenset(("script", "style"))


class _Node:
    __slots__ = ("attrs", "children", "name")

    def __init__(self, name: str, attrs: list[tuple[str, str]]) -> None:
        self.name = name
        self.attrs = attrs
        self.children: list[_Node | str] = []


class _Builder(HTMLParser):
    """The tree BeautifulSoup's ``html.parser`` builder makes: tags as written, an end tag closes
    the nearest open tag of its name (and everything opened after it), stray end tags ignored."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Node("[document]", [])
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        merged: dict[str, str] = {}
        for key, value in attrs:
            merged[key] = "" if value is None else value
        node = _Node(tag, list(merged.items()))
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].name == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        children = self.stack[-1].children
        if children and isinstance(children[-1], str):
            children[-1] += data
        else:
            children.append(data)

    def handle_comment(self, data: str) -> None:
        self.stack[-1].children.append(_Comment(data))

    def handle_decl(self, decl: str) -> None:
        self.stack[-1].children.append(_Raw(f"<!{decl}>"))


class _Comment(str):
    """A comment kept verbatim."""


class _Raw(str):
    """Markup kept verbatim (a declaration)."""


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _serialise(node: _Node, out: list[str], raw: bool = False) -> None:
    for child in node.children:
        if isinstance(child, _Comment):
            out.append(f"<!--{child}-->")
        elif isinstance(child, _Raw):
            out.append(str(child))
        elif isinstance(child, str):
            out.append(child if raw else _escape_text(child))
        else:
            attrs = "".join(
                f' {k}="{_escape_text(v).replace(chr(34), "&quot;")}"' for k, v in child.attrs
            )
            if child.name in _VOID:
                out.append(f"<{child.name}{attrs}/>")
                continue
            out.append(f"<{child.name}{attrs}>")
            _serialise(child, out, child.name in _RAW_TEXT)
            out.append(f"</{child.name}>")


def _unwrap(node: _Node, names: frozenset[str]) -> None:
    children: list[_Node | str] = []
    for child in node.children:
        if isinstance(child, _Node):
            _unwrap(child, names)
            if child.name in names:
                children.extend(child.children)
                continue
        children.append(child)
    # adjacent strings stay separate nodes in the reference, but serialise the same
    node.children = children


def _rename_th(node: _Node) -> None:
    for child in node.children:
        if isinstance(child, _Node):
            if child.name == "th":
                child.name = "td"
            elif child.name == "math":
                pass
            _rename_th(child)


def _replace_math(node: _Node) -> None:
    for index, child in enumerate(node.children):
        if isinstance(child, _Node):
            if child.name == "math":
                node.children[index] = "$" + dict(child.attrs).get("alttext", "") + "$"
            else:
                _replace_math(child)


_ASCII_SPACES = str.maketrans("", "", "\x20\x0a\x09\x0c\x0d")


def _collapse_space(node: _Node, keep: bool = False) -> None:
    """BeautifulSoup stores a string of ASCII spaces only as one newline (if it held one) or one
    space, except inside ``pre`` and ``textarea``."""
    for index, child in enumerate(node.children):
        if isinstance(child, _Node):
            _collapse_space(child, keep or child.name in ("pre", "textarea"))
        elif (
            not keep
            and not isinstance(child, _Comment | _Raw)
            and child
            and not child.translate(_ASCII_SPACES)
        ):
            node.children[index] = "\n" if "\n" in child else " "


#: One token of plain HTML: a start tag with double-quoted attributes free of ``&<>``, an end
#: tag, or text holding neither ``<`` nor ``&`` (what the standard parser passes through as is).
_PLAIN_TOKEN = re.compile(
    r'<([a-zA-Z][a-zA-Z0-9]*)((?:[ \t\n]+[a-zA-Z][a-zA-Z0-9_-]*="[^"&<>]*")*)[ \t\n]*(/?)>'
    r"|</([a-zA-Z][a-zA-Z0-9]*)>"
    r"|([^<&]+)"
)
#: :data:`_PLAIN_TOKEN` with the whole token as the first group (for ``findall``).
_PLAIN_TOKENS = re.compile(f"({_PLAIN_TOKEN.pattern})")
_PLAIN_ATTRIBUTE = re.compile(r'([a-zA-Z][a-zA-Z0-9_-]*)="([^"]*)"')
#: Tags whose content the standard parser reads raw (in some Python version): not plain.
_RAW_CONTENT = frozenset(
    ("script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
     "noscript", "plaintext")
)  # fmt: skip


def _plain_tree(text: str) -> _Node | None:
    """The tree :class:`_Builder` makes of ``text`` when the text is plain HTML (every
    character in a :data:`_PLAIN_TOKEN`, no raw-content tag), built from one regular
    expression's tokens instead of ``html.parser``'s scanner; None when it is not plain.
    The builder's rules, inlined: tag and attribute names lower-cased, values as written (a
    repeated attribute keeps its first place and last value), void tags never opened,
    ``<x/>`` opened and closed, an end tag closes the nearest open tag of its name (a stray
    one is ignored), adjacent texts joined."""
    root = _Node("[document]", [])
    stack = [root]
    children = root.children
    at = 0
    for match in _PLAIN_TOKEN.finditer(text):
        if match.start() != at:
            return None
        at = match.end()
        name, attributes, closed, end, data = match.groups()
        if data is not None:
            if children and type(children[-1]) is str:
                children[-1] += data
            else:
                children.append(data)
            continue
        tag = (name if end is None else end).lower()
        if tag in _RAW_CONTENT:
            return None
        if end is None:
            merged: dict[str, str] = {}
            if attributes:
                for key, value in _PLAIN_ATTRIBUTE.findall(attributes):
                    merged[key.lower()] = value
            node = _Node(tag, list(merged.items()))
            children.append(node)
            if tag in _VOID or closed:
                continue
            stack.append(node)
        else:
            for depth in range(len(stack) - 1, 0, -1):
                if stack[depth].name == tag:
                    del stack[depth:]
                    break
            else:
                continue
        children = stack[-1].children
    if at != len(text):
        return None
    return root


def _parsed_tree(text: str) -> _Node:
    """The tree :class:`_Builder` makes of ``text`` through ``html.parser``."""
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root


def _parse(text: str) -> _Node:
    root = _plain_tree(text)
    if root is None:
        root = _parsed_tree(text)
    _collapse_space(root)
    return root


def _soup_html(text: str) -> str:
    """``str(soup)`` after OmniDocBench's edits: th→td, thead unwrapped, math→alttext, span
    unwrapped."""
    root = _parse(text)
    _rename_th(root)
    _unwrap(root, frozenset(("thead",)))
    _replace_math(root)
    _unwrap(root, frozenset(("span",)))
    out: list[str] = []
    _serialise(root, out)
    return "".join(out)


#: Tags :func:`_soup_html` unwraps (their content kept, their tags dropped).
_UNWRAPPED = frozenset(("thead", "span"))


def _plain_soup(text: str) -> str | None:
    """``html.unescape(_soup_html(text))`` for plain HTML (what :func:`_plain_tree` reads), in
    one pass over the same tokens without building the tree; None when the text is not plain.

    The tree's edits become rules of the stream: a start tag is written when it opens (``th``
    as ``td``, ``thead`` and ``span`` not at all, a void tag as ``<x/>``), an end tag when its
    element closes (by its own end tag, an ancestor's, or the end of the text), so ``<x/>`` of
    a non-void tag is ``<x></x>``; a ``math`` element is its ``$alttext$`` and nothing inside
    it is written; texts joined across stray end tags are collapsed (ASCII spaces only: one
    newline or one space) unless inside ``pre``. Plain text holds no ``&`` and plain attribute
    values no ``&<>"``, so escaping and ``html.unescape`` cancel out and both are left out.
    """
    out: list[str] = []
    names: list[str] = []  # open elements (below the document), innermost last
    pre = 0  # open pre elements
    math = -1  # depth of the math element being replaced (-1: none open)
    pending: str | None = None  # adjacent texts not yet written (one text node)
    covered = 0

    def text_node(data: str) -> None:
        if math < 0:
            if not pre and not data.translate(_ASCII_SPACES):
                data = "\n" if "\n" in data else " "
            out.append(data)

    def close(depth: int) -> None:
        """Close the open elements from the innermost down to ``depth``."""
        nonlocal pre, math
        for index in range(len(names) - 1, depth - 1, -1):
            name = names[index]
            if name == "pre":
                pre -= 1
            if math < 0:
                if name not in _UNWRAPPED:
                    out.append("</td>" if name == "th" else f"</{name}>")
            elif index == math:
                math = -1
        del names[depth:]

    # findall's tuples (no match objects); the tokens cover the text when their lengths add
    # up to its length (they do not overlap), checked at the end
    for whole, name, attributes, closed, end, data in _PLAIN_TOKENS.findall(text):
        covered += len(whole)
        if data:
            pending = data if pending is None else pending + data
            continue
        if end:
            tag = end.lower()
            if tag in _RAW_CONTENT:
                return None
            if names and names[-1] == tag:  # the usual end tag: the innermost element's
                if pending is not None:
                    text_node(pending)
                    pending = None
                if math < 0 and tag not in _CLOSE_SPECIAL:
                    names.pop()
                    out.append(f"</{tag}>")
                else:
                    close(len(names) - 1)
                continue
            for depth in range(len(names) - 2, -1, -1):
                if names[depth] == tag:
                    if pending is not None:
                        text_node(pending)
                        pending = None
                    close(depth)
                    break
            continue
        tag = name.lower()
        if tag in _RAW_CONTENT:
            return None
        if pending is not None:
            text_node(pending)
            pending = None
        merged: dict[str, str] = {}
        if attributes:
            for key, value in _PLAIN_ATTRIBUTE.findall(attributes):
                merged[key.lower()] = value
        void = tag in _VOID
        if math < 0:
            if tag == "math":
                out.append("$" + merged.get("alttext", "") + "$")
            elif tag not in _UNWRAPPED:
                written = "td" if tag == "th" else tag
                attrs = "".join(f' {k}="{v}"' for k, v in merged.items()) if merged else ""
                if void:
                    out.append(f"<{written}{attrs}/>")
                elif closed:
                    out.append(f"<{written}{attrs}></{written}>")
                else:
                    out.append(f"<{written}{attrs}>")
        if void or closed:
            continue
        if tag == "math" and math < 0:
            math = len(names)
        if tag == "pre":
            pre += 1
        names.append(tag)
    if covered != len(text):
        return None
    if pending is not None:
        text_node(pending)
    close(0)
    return "".join(out)


#: End tags :func:`_plain_soup` closes through its general rule (written otherwise, counted).
_CLOSE_SPECIAL = _UNWRAPPED | {"th", "pre"}


_TABLE_BODY = re.compile(r"<table\b[^>]*>(.*)</table>", re.DOTALL | re.IGNORECASE)
_ATTRIBUTES = tuple(
    re.compile(p)
    for p in ('( style=".*?")', '( height=".*?")', '( width=".*?")', '( align=".*?")',
              '( class=".*?")')
)  # fmt: skip
_HTML_PREFIX = '<html><body><table border="1" >'


def table_key(text: str) -> str:
    """An HTML table as OmniDocBench normalises it (``normalized_html_table``)."""
    result = ""
    if "<table" in text.replace(" ", "").replace("'", '"'):
        soup = _plain_soup(text)
        if soup is None:
            soup = html.unescape(_soup_html(text))
        result = soup.replace("\n", "")
        result = unicodedata.normalize("NFKC", result).strip()
        result = "".join(_TABLE_BODY.findall(result))
        for pattern in _ATTRIBUTES:
            result = pattern.sub("", result)
        result = re.sub("</?tbody>", "", result)
        result = re.sub(r"\s+", " ", result)
        result = _HTML_PREFIX + result + "</table></body></html>"
    for tag in ("sup", "sub", "span", "div", "p"):
        result = result.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    result = result.replace('<spandata-span-identity="">', "")
    return re.sub("<colgroup>.*?</colgroup>", "", result)


def _string_of(node: _Node) -> str | None:
    """BeautifulSoup's ``.string``: the only text below a chain of single children."""
    if len(node.children) != 1:
        return None
    child = node.children[0]
    if isinstance(child, _Node):
        return _string_of(child)
    return str(child)


def table_cell_texts(text: str) -> list[str]:
    """The texts of a table's ``td`` cells that have one (an unmatched predicted table's cells
    join the text pool this way)."""
    cells: list[str] = []

    def walk(node: _Node) -> None:
        for child in node.children:
            if isinstance(child, _Node):
                if child.name == "td":
                    string = _string_of(child)
                    if string:
                        cells.append(re.sub(r"\$\\cdot\$", "", string).strip())
                walk(child)

    walk(_parse(text))
    return cells
