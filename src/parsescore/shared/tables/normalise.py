"""Opt-in HTML normalisation in the style of OmniDocBench's table preprocessing.

OmniDocBench (``utils/data_preprocess.py``, ``normalized_html_table``) rewrites both tables
before TEDS so that presentational differences do not count. This module does the same steps
with lxml (OmniDocBench uses BeautifulSoup and regular expressions, so odd markup may come out
differently; see docs/table.md):

1. the first ``table`` anywhere in the document is kept (a bare ``<table>`` is accepted);
2. ``th`` → ``td``; ``thead``, ``tbody``, ``span``, ``sup``, ``sub``, ``div``, ``p`` unwrapped;
   ``colgroup`` removed; ``<math alttext="x">`` replaced by the text ``$x$``;
3. ``style``, ``height``, ``width``, ``align`` and ``class`` attributes removed;
4. text: newlines removed, Unicode NFKC, runs of whitespace → one space;
5. the result is wrapped as ``<html><body><table>…</table></body></html>``.
"""

from __future__ import annotations

import re
import unicodedata

from lxml import etree, html

__all__ = ["UNWRAPPED_TAGS", "normalise_html"]

UNWRAPPED_TAGS = ("thead", "tbody", "span", "sup", "sub", "div", "p")
_DROPPED_ATTRIBUTES = ("style", "height", "width", "align", "class")
_WHITESPACE = re.compile(r"\s+")


def _clean_text(text: str | None) -> str | None:
    if text is None:
        return None
    text = unicodedata.normalize("NFKC", text.replace("\n", ""))
    return _WHITESPACE.sub(" ", text)


def normalise_html(text: str) -> str:
    """Normalised HTML of the first table in ``text`` (unchanged when it has no table).

    >>> normalise_html('<table><thead><tr><th style="x">Ａ</th></tr></thead></table>')
    '<html><body><table><tr><td>A</td></tr></table></body></html>'
    """
    if not text or not text.strip():
        return text
    parser = html.HTMLParser(remove_comments=True, encoding="utf-8")
    root = html.fromstring(text, parser=parser)
    tables = [root] if root.tag == "table" else root.xpath(".//table")
    if not tables:
        return text
    table = tables[0]
    for math in table.xpath(".//math"):
        alttext = math.get("alttext", "")
        replacement = f"${alttext}$" + (math.tail or "")
        parent = math.getparent()
        previous = math.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + replacement
        else:
            parent.text = (parent.text or "") + replacement
        parent.remove(math)
    for colgroup in table.xpath(".//colgroup"):
        colgroup.drop_tree()
    for th in table.xpath(".//th"):
        th.tag = "td"
    etree.strip_tags(table, *UNWRAPPED_TAGS)
    for element in table.iter():
        if not isinstance(element.tag, str):
            continue
        for name in _DROPPED_ATTRIBUTES:
            element.attrib.pop(name, None)
        if element is not table:
            element.text = _clean_text(element.text)
            element.tail = _clean_text(element.tail)
        else:
            element.text = _clean_text(element.text)
    body = html.tostring(table, encoding="unicode", with_tail=False)
    return f"<html><body>{body}</body></html>"
