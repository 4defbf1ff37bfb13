"""A page's Markdown split into blocks as OmniDocBench v1.5 splits it (``md_tex_filter`` in its
``utils/extract.py``, with ``utils/table_utils.py`` for pipe tables).

Order of the passes (each replaces what it took by spaces, so later positions stay put): images
and code fences removed, runs of ``_``/spaces shortened, ``<html>``/``<body>`` dropped; LaTeX
tables (``table`` environments, then nested ``tabular``); HTML tables (nested ones inside the
outer); formulas in ``$$``, ``\\[``, ``$``, ``\\(`` (inline ones stay in the text too, marked
``equation_inline``); pipe tables (the whole remaining text goes through the reference's
Markdown-to-HTML conversion when two ``|…|`` lines exist, which drops lines holding ``:`` or
``---`` inside a table); fenced code blocks with a language; then paragraphs split on blank lines
(or on single newlines when that gives one chunk).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Block", "split_page"]


@dataclass(slots=True)
class Block:
    """One predicted block.

    Attributes:
        category: ``text_all``, ``equation_isolated``, ``html_table`` or ``latex_table``.
        start, end: the block's position (the reference's ``position``; used for ordering).
        content: the block's text as the reference keeps it.
        fine: the finer type (``text_block``, ``code``, ``equation_inline``, ``md2html_table``)
            or "" when the reference sets none.
    """

    category: str
    start: int
    end: int
    content: str
    fine: str = ""

    @property
    def kind(self) -> str:
        """The reference's ``pred_category_type``: the fine type, else the category."""
        return self.fine or self.category


_IMAGE = re.compile(r"!\[.*?\]\(.*?\)")
_DISPLAY = re.compile(r"\$\$(.*?)\$\$|\\\[(.*?)\\\]|\$(.*?)\$|\\\((.*?)\\\)", re.DOTALL)
_DOLLAR = re.compile(r"\$\$(.*?)\$\$|\$(.*?)\$|\\\((.*?)\\\)", re.DOTALL)
_MD_TABLE_LINE = re.compile(r"\|\s*.*?\s*\|\n", re.DOTALL)
_HTML_TABLE = re.compile(r"(<table.*?</table>)", re.DOTALL)
_CODE = re.compile(r"```(\w+)\n(.*?)```", re.DOTALL)
_LATEX_STYLE = (
    (re.compile(r"\\title\{(.*?)\}"), r"\1"),
    (re.compile(r"\\title\s*\{\s*(.*?)\s*\}", re.DOTALL), r"\1"),
    (re.compile(r"\\text\s*\{\s*(.*?)\s*\}", re.DOTALL), r"\1"),
    (re.compile(r"\\section\*?\{(.*?)\}"), r"\1"),
    (re.compile(r"\\section\*?\{\s*(.*?)\s*\}", re.DOTALL), r"\1"),
)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _remove_fences(text: str) -> str:
    text = re.sub(r"^```markdown\n?", "", text, flags=re.MULTILINE)
    text = re.sub(r"^```html\n?", "", text, flags=re.MULTILINE)
    text = re.sub(r"^```latex\n?", "", text, flags=re.MULTILINE)
    return re.sub(r"```\n?$", "", text, flags=re.MULTILINE)


def _nested(text: str, begin: str, end: str) -> list[tuple[int, int]]:
    """Outermost begin…end spans, as the reference's stack scan finds them (an unclosed begin
    restarts the scan after it). Lengths are those of the *patterns*, as in the reference: a
    ``\\end{tabular}`` span takes one character more than the match, and the scan steps by the
    end pattern's length after a begin."""
    spans: list[tuple[int, int]] = []
    begin_re, end_re = re.compile(begin), re.compile(end)
    end_len = len(end)
    pos, stack = 0, []
    while pos < len(text):
        b = begin_re.search(text, pos)
        e = end_re.search(text, pos)
        if not b and not e:
            break
        if b and (not e or b.start() < e.start()):
            stack.append(b.start())
            pos = b.start() + end_len
        elif e:
            if stack:
                first = stack.pop()
                if not stack:
                    spans.append((first, e.start() + end_len))
            pos = e.start() + end_len
    if stack:
        restart = stack[0] + len(begin)
        spans.extend((s + restart, t + restart) for s, t in _nested(text[restart:], begin, end))
    return spans


def _latex_tables(text: str) -> list[tuple[int, str]]:
    found: list[tuple[tuple[int, int], str]] = []
    for match in re.finditer(r"\\begin{table}(.*?)\\end{table}", text, re.DOTALL):
        found.append(((match.start(), match.end()), match.group(0)))
        text = _blank(text, match.start(), match.end())
    for start, end in _nested(text, r"\\begin{tabular}", r"\\end{tabular}"):
        found.append(((start, end), text[start:end]))
    found.sort(key=lambda item: item[0][0])
    return [(span[0], table) for span, table in found]


def _markdown_table_to_html(table: str) -> str:
    rows = [row.strip() for row in table.strip().split("\n")]
    out = "<table>\n  <thead>\n    <tr>\n"
    for cell in (c.strip() for c in rows[0].split("|")[1:-1]):
        out += f"      <th>{cell}</th>\n"
    out += "    </tr>\n  </thead>\n  <tbody>\n"
    for row in rows[2:]:
        out += "    <tr>\n"
        for cell in (c.strip() for c in row.split("|")[1:-1]):
            out += f"      <td>{cell}</td>\n"
        out += "    </tr>\n"
    return out + "  </tbody>\n</table>\n"


def _table_rule(line: str) -> bool:
    # The reference's find_md_table_mode: any ":" or "---" in the line.
    return ":" in line or "---" in line


def _merge_tables(block: str) -> str:
    block = re.sub(r"<!--[\s\S]*?-->", "", block)
    lines_out: list[str] = []
    for table in re.findall(r"<table>[\s\S]*?</table>", block):
        lines = table.split("\n")
        lines = [ln.replace("<th>", "<td>").replace("</th>", "</td>") if "<th>" in ln else ln
                 for ln in lines]  # fmt: skip
        kept = [ln for ln in lines if not re.search(r"</?t(able|head|body)>", ln)]
        if len(kept) > 2:
            lines_out.extend(kept)
    return "\n\n" + "<table>\n{}\n</table>".format("\n".join(lines_out)) + "\n\n"


def _tables_to_placeholders(text: str) -> str:
    out: list[str] = []
    in_table, block, last = False, "", ""
    for line in text.split("\n"):
        if "<table>" in line:
            in_table = True
            block += last
        elif in_table:
            if not _table_rule(last) and "</thead>" not in last:
                block += "\n" + last
            if "</table>" in last and "<table>" not in line:
                in_table = False
                out.append(_merge_tables(block))
                block = ""
        else:
            out.append(last)
        last = line
    if last:
        if in_table or "</table>" in last:
            block += "\n" + last
            out.append(_merge_tables(block))
        else:
            out.append(last)
    return "\n".join(out)


def _markdown_tables_to_html(text: str) -> str:
    text = text.replace("\r", "") + "\n"
    for match in _MD_TABLE_LINE.findall(text):
        text = text.replace(match, _markdown_table_to_html(match), 1)
    text = _tables_to_placeholders(text)
    return text.replace("<table>", '<table border="1" >').replace(
        "<td>", '<td colspan="1" rowspan="1">'
    )


def split_page(text: str) -> list[Block]:
    """The page's blocks sorted by position (stable), as ``md_tex_filter`` returns them."""
    text = _IMAGE.sub("", text)
    text = _remove_fences(text)
    text = re.sub(r"_{4,}", "____", text)
    text = re.sub(r" {4,}", "    ", text)
    for tag in ("<html>", "</html>", "<body>", "</body>"):
        text = text.replace(tag, "")
    blocks: list[Block] = []
    for start, table in _latex_tables(text):
        end = start + len(table)
        blocks.append(Block("latex_table", start, end, table))
        text = _blank(text, start, end)
    for start, end in _nested(text, r"<table(?:[^>]*)>", r"</table>"):
        table = text[start:end]
        blocks.append(Block("html_table", start, start + len(table), table))
        text = _blank(text, start, start + len(table))
    for match in list(_DISPLAY.finditer(text)):
        matched = match.group(0)
        if not matched:
            continue
        line = " ".join(matched.strip().split("\n"))
        start, end = match.start(), match.end()
        sub = _DOLLAR.search(line)
        if sub is None:
            text = _blank(text, start, end)
            blocks.append(Block("equation_isolated", start, end, line))
        elif sub.group(1):
            line = _DOLLAR.sub(r"\\[\1\\]", line)
            text = _blank(text, start, end)
            blocks.append(Block("equation_isolated", start, end, line))
        else:
            line = _DOLLAR.sub(r"\\[\2\3\\]", line)
            blocks.append(Block("equation_isolated", start, end, line, "equation_inline"))
    if len(_MD_TABLE_LINE.findall(text + "\n")) >= 2:
        text = _markdown_tables_to_html(text)
        for match in list(_HTML_TABLE.finditer(text)):
            start, end = match.start(), match.end()
            text = _blank(text, start, end)
            blocks.append(Block("html_table", start, end, match.group(0).strip(), "md2html_table"))
    for match in list(_CODE.finditer(text)):
        start, end = match.start(), match.end()
        text = _blank(text, start, end)
        blocks.append(Block("text_all", start, end, match.group(2).strip(), "code"))
    for pattern, replacement in _LATEX_STYLE:
        text = pattern.sub(replacement, text)
    chunks = text.split("\n\n")
    if len(chunks) == 1:
        chunks = text.split("\n")
    position = 0
    for chunk in chunks:
        start, end = position, position + len(chunk)
        position += len(chunk)
        chunk = chunk.strip().strip("\n")
        chunk = "\n".join(ln.strip() for ln in chunk.split("\n") if ln.strip())
        if not chunk:
            continue
        if chunk.startswith("<table") and chunk.endswith("</table>"):
            blocks.append(Block("html_table", start, end, chunk))
        elif chunk.startswith("$") and chunk.endswith("$"):
            if chunk.replace("$", "").strip():
                blocks.append(Block("equation_isolated", start, end, chunk.strip()))
        else:
            blocks.append(Block("text_all", start, end, chunk.strip(), "text_block"))
    blocks.sort(key=lambda block: block.start)
    return blocks
