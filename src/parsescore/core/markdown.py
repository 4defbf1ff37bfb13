"""Markdown the project writes, made so that no text in it renders as HTML in a Markdown viewer.

Two helpers:

- :func:`markdown_text`: one piece of text (an answer's label, an item id) as inline Markdown
  that shows exactly that text: every character Markdown or HTML would read as markup is
  escaped, line breaks become spaces;
- :func:`inert_markdown`: a whole document (e.g. ``index.md`` of ``parsescore demo``, built from
  the kinds' sections) with its Markdown kept (headings, tables, emphasis, links, code) but no
  raw HTML (outside code, ``<`` and the ``&`` of a character reference are escaped) and no
  link to a ``javascript:``,
  ``vbscript:``, ``data:`` or ``file:`` address.

>>> markdown_text('<img src=x onerror=alert(1)> *bold*')
'&lt;img src=x onerror=alert\\\\(1\\\\)&gt; \\\\*bold\\\\*'
>>> inert_markdown('# Title\\n\\n<script>alert(1)</script> `a<b`\\n')
'# Title\\n\\n&lt;script>alert(1)&lt;/script> `a<b`\\n'
"""

from __future__ import annotations

import re

__all__ = ["inert_markdown", "markdown_text"]

#: ASCII punctuation Markdown may read as markup (CommonMark lets each be backslash-escaped).
_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
#: A link destination (inline, or a reference definition) whose scheme runs code or reads files.
_BAD_LINK = re.compile(
    r"(\]\(\s*|^ {0,3}\[[^\]\n]*\]:\s*)(javascript|vbscript|data|file):",
    re.IGNORECASE | re.MULTILINE,
)


def markdown_text(text: str) -> str:
    """``text`` as inline Markdown that renders as that very text, never as markup or HTML."""
    text = " ".join(text.splitlines())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _PUNCTUATION.sub(r"\\\1", text)


def _inert_line(line: str) -> str:
    """A line outside code blocks: ``&`` and ``<`` escaped except inside code spans."""
    pieces: list[str] = []
    done = 0
    for span in _CODE_SPAN.finditer(line):
        pieces.append(_escape_html(line[done : span.start()]))
        pieces.append(span.group(0))
        done = span.end()
    pieces.append(_escape_html(line[done:]))
    return "".join(pieces)


#: An ``&`` that starts a character reference (``&#115;``, ``&#x73;``, ``&lt;``); any other ``&``
#: is shown as it is by Markdown, and is left so.
_REFERENCE = re.compile(r"&(?=#|[A-Za-z][A-Za-z0-9]*;)")


def _escape_html(text: str) -> str:
    return _REFERENCE.sub("&amp;", text).replace("<", "&lt;")


def inert_markdown(document: str) -> str:
    """``document`` with its Markdown kept but nothing a viewer would render as HTML: outside
    fenced code blocks and code spans, ``<`` and an ``&`` starting a character reference are
    escaped (no tag, comment, autolink or character reference survives), and a link to a
    ``javascript:``, ``vbscript:``, ``data:`` or ``file:`` address loses its scheme's colon."""
    lines = document.split("\n")
    out: list[str] = []
    fence: str | None = None
    for line in lines:
        opening = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            closing = opening is not None and opening.group(1)[0] == fence[0]
            if closing and len(line.strip()) >= len(fence) and not line.strip().strip(fence[0]):
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            out.append(line)
            continue
        out.append(_inert_line(line))
    return _BAD_LINK.sub(r"\1\2%3A", "\n".join(out))
