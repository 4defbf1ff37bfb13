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

import itertools
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


#: The delimiters of ``_DISPLAY`` and ``_DOLLAR`` (the reference's regular expressions, kept
#: above as the definition), tried in this order at each position.
_DISPLAY_PAIRS = (("$$", "$$"), ("\\[", "\\]"), ("$", "$"), ("\\(", "\\)"))
_DOLLAR_PAIRS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"))


def _delimited(text: str, pairs: tuple[tuple[str, str], ...]) -> list[tuple[int, int, int, str]]:
    """What ``finditer`` of ``open1(.*?)close1|open2(.*?)close2|...`` (DOTALL) finds, as
    ``(start, end, alternative, content)``, in linear time: the regular expression rescans the
    rest of the text from every opener that is never closed (quadratic on ``\\[`` repeated),
    while a closer not found from one position is not found from any later one either, and a
    closer found is the answer until the scan passes it."""
    found: list[tuple[int, int, int, str]] = []
    memo: dict[str, tuple[int, int]] = {}

    def find(needle: str, start: int) -> int:
        cached = memo.get(needle)
        if cached is not None and cached[0] <= start and (cached[1] == -1 or cached[1] >= start):
            return cached[1]
        result = text.find(needle, start)
        memo[needle] = (start, result)
        return result

    openers = {opener for opener, _ in pairs}  # a match starts where one of them does
    position = 0
    length = len(text)
    while position < length:
        candidates = [i for i in (find(opener, position) for opener in openers) if i >= 0]
        if not candidates:
            break
        position = min(candidates)
        for index, (opener, closer) in enumerate(pairs):
            if text.startswith(opener, position):
                close = find(closer, position + len(opener))
                if close >= 0:
                    end = close + len(closer)
                    found.append((position, end, index, text[position + len(opener) : close]))
                    position = end
                    break
        else:
            position += 1
    return found


def _dollar_sub(line: str, keep: tuple[int, ...], found: list[tuple[int, int, int, str]]) -> str:
    """``_DOLLAR.sub`` with ``\\[`` + the groups of ``keep`` (alternatives) + ``\\]``, given
    ``found``, the line's ``_delimited(line, _DOLLAR_PAIRS)``."""
    out: list[str] = []
    cursor = 0
    for start, end, index, content in found:
        out.append(line[cursor:start])
        out.append("\\[" + (content if index in keep else "") + "\\]")
        cursor = end
    out.append(line[cursor:])
    return "".join(out)


def _table_lines(text: str) -> list[str]:
    """``_MD_TABLE_LINE.findall(text)`` in linear time: from a ``|`` to the first ``|`` + newline
    after it (what ``\\|\\s*.*?\\s*\\|\\n`` matches, DOTALL), then on after it; none at all
    once no ``|`` + newline is left."""
    found: list[str] = []
    position = text.find("|")
    while position >= 0:
        close = text.find("|\n", position + 1)
        if close < 0:
            break
        found.append(text[position : close + 2])
        position = text.find("|", close + 2)
    return found


_CODE_OPEN = re.compile(r"```(\w+)\n")


def _code_blocks(text: str) -> list[tuple[int, int, str]]:
    """``_CODE.finditer`` (a fence with a language, then up to the next fence) in linear time:
    once no fence follows an opening one, none follows any later one either."""
    found: list[tuple[int, int, str]] = []
    position = text.find("```")
    while position >= 0:
        opening = _CODE_OPEN.match(text, position)
        if opening is None:
            position = text.find("```", position + 1)
            continue
        close = text.find("```", opening.end())
        if close < 0:
            break
        found.append((position, close + 3, text[opening.end() : close]))
        position = text.find("```", close + 3)
    return found


def _blank_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with every span replaced by as many spaces (one pass, whatever their number)."""
    if not spans:
        return text
    ordered = all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    if ordered and all(0 <= start <= end <= len(text) for start, end in spans):
        pieces, cursor = [], 0  # in order and apart: slices, not a list of every character
        for start, end in spans:
            pieces += [text[cursor:start], " " * (end - start)]
            cursor = end
        pieces.append(text[cursor:])
        return "".join(pieces)
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


class _Finder:
    """``text.find`` whose answers are kept while still valid: a needle not found from one
    position is not found from a later one, and one found is the answer until passed — the
    scans below stay linear where the reference's lazy patterns rescan the rest of the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.memo: dict[str, tuple[int, int]] = {}

    def find(self, needle: str, start: int) -> int:
        cached = self.memo.get(needle)
        if cached is not None and cached[0] <= start and (cached[1] == -1 or cached[1] >= start):
            return cached[1]
        result = self.text.find(needle, start)
        self.memo[needle] = (start, result)
        return result


def _remove_images(text: str) -> str:
    """``_IMAGE.sub("", text)`` in linear time: ``![``, then on the same line the first ``](``
    and after it the first ``)``."""
    finder, out, cursor = _Finder(text), [], 0
    position = finder.find("![", 0)
    while position >= 0:
        line_end = finder.find("\n", position)
        line_end = len(text) if line_end < 0 else line_end
        middle = finder.find("](", position + 2)
        close = -1 if middle < 0 or middle >= line_end else finder.find(")", middle + 2)
        if close < 0 or close >= line_end:
            position = finder.find("![", position + 1)
            continue
        out.append(text[cursor:position])
        cursor = close + 1
        position = finder.find("![", cursor)
    out.append(text[cursor:])
    return "".join(out)


#: ``_LATEX_STYLE`` as linear scans: the opening (a pattern ending in ``{``, or ``{\s*``),
#: whether the content may span lines, whether trailing white space before ``}`` is dropped.
_LATEX_STYLE_SCANS = (
    (re.compile(r"\\title\{"), False, False),
    (re.compile(r"\\title\s*\{\s*"), True, True),
    (re.compile(r"\\text\s*\{\s*"), True, True),
    (re.compile(r"\\section\*?\{"), False, False),
    (re.compile(r"\\section\*?\{\s*"), True, True),
)


def _unwrap_command(text: str, opening: re.Pattern[str], lines: bool, strip: bool) -> str:
    """``pattern.sub(r"\\1", text)`` of one ``_LATEX_STYLE`` pattern, in linear time."""
    finder, out, cursor = _Finder(text), [], 0
    match = opening.search(text)
    while match is not None:
        close = finder.find("}", match.end())
        if close < 0:
            break
        newline = -1 if lines else finder.find("\n", match.end())
        if newline >= 0 and newline < close:
            match = opening.search(text, match.start() + 1)
            continue
        content = text[match.end() : close]
        out += [text[cursor : match.start()], content.rstrip() if strip else content]
        cursor = close + 1
        match = opening.search(text, cursor)
    out.append(text[cursor:])
    return "".join(out)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _remove_fences(text: str) -> str:
    if "```" not in text:
        return text  # each pattern holds a fence (the scans, tried at every line, are costly)
    text = re.sub(r"^```markdown\n?", "", text, flags=re.MULTILINE)
    text = re.sub(r"^```html\n?", "", text, flags=re.MULTILINE)
    text = re.sub(r"^```latex\n?", "", text, flags=re.MULTILINE)
    return re.sub(r"```\n?$", "", text, flags=re.MULTILINE)


def _shorten_runs(text: str) -> str:
    """Runs of four or more ``_`` (spaces) made four: a run of exactly four is left as it is,
    so the scan is needed only where five follow one another."""
    if "_____" in text:
        text = re.sub(r"_{4,}", "____", text)
    if "     " in text:
        text = re.sub(r" {4,}", "    ", text)
    return text


#: Scans of the text the reference makes for nested tables, restarting after each unclosed
#: opening tag; a page that needs more is unreadable (bounded time on ``<table>`` repeated).
MAX_TABLE_RESTARTS = 100


def _nested(text: str, begin: str, end: str) -> list[tuple[int, int]]:
    """Outermost begin…end spans, as the reference's stack scan finds them (an unclosed begin
    restarts the scan after it). Lengths are those of the *patterns*, as in the reference: a
    ``\\end{tabular}`` span takes one character more than the match, and the scan steps by the
    end pattern's length after a begin."""
    from parsescore.core.errors import InputError

    spans: list[tuple[int, int]] = []
    begin_re, end_re = re.compile(begin), re.compile(end)
    offset = 0
    for _ in range(MAX_TABLE_RESTARTS + 1):
        found, unclosed = _nested_pass(text, offset, begin_re, end_re, len(end))
        spans.extend(found)
        if unclosed is None:
            return spans
        offset = unclosed + len(begin)
    shown = begin.replace("(?:[^>]*)", "").replace("\\\\", "\\")
    raise InputError(
        f"more than {MAX_TABLE_RESTARTS} unclosed {shown} tags; expected balanced tables"
    )


def _nested_pass(
    text: str, offset: int, begin_re: re.Pattern[str], end_re: re.Pattern[str], end_len: int
) -> tuple[list[tuple[int, int]], int | None]:
    """One scan from ``offset``: its spans and the first opening left unclosed (if any). A
    search's answer is kept while the scan has not passed it (linear, not quadratic)."""
    spans: list[tuple[int, int]] = []
    pos, stack = offset, []
    b = begin_re.search(text, pos)
    e = end_re.search(text, pos)
    while pos < len(text):
        if b is not None and b.start() < pos:
            b = begin_re.search(text, pos)
        if e is not None and e.start() < pos:
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
    return spans, (stack[0] if stack else None)


def _latex_tables(text: str) -> list[tuple[int, str]]:
    found: list[tuple[tuple[int, int], str]] = []
    begin, end_tag = "\\begin{table}", "\\end{table}"
    position = text.find(begin)  # finditer of begin(.*?)end, DOTALL, in linear time
    while position >= 0:
        close = text.find(end_tag, position + len(begin))
        if close < 0:
            break
        stop = close + len(end_tag)
        found.append(((position, stop), text[position:stop]))
        position = text.find(begin, stop)
    text = _blank_spans(text, [span for span, _ in found])
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
    # the reference replaces each line's first occurrence in turn, which is where it was found
    # (an earlier copy would have been found first; the HTML put in holds no "|")
    pieces: list[str] = []
    cursor = 0
    for match in _table_lines(text):
        at = text.index(match, cursor)
        pieces += [text[cursor:at], _markdown_table_to_html(match)]
        cursor = at + len(match)
    text = _tables_to_placeholders("".join(pieces) + text[cursor:])
    return text.replace("<table>", '<table border="1" >').replace(
        "<td>", '<td colspan="1" rowspan="1">'
    )


def split_page(text: str) -> list[Block]:
    """The page's blocks sorted by position (stable), as ``md_tex_filter`` returns them."""
    text = _remove_images(text)
    text = _remove_fences(text)
    text = _shorten_runs(text)
    for tag in ("<html>", "</html>", "<body>", "</body>"):
        text = text.replace(tag, "")
    blocks: list[Block] = []
    spans: list[tuple[int, int]] = []
    for start, table in _latex_tables(text):
        end = start + len(table)
        blocks.append(Block("latex_table", start, end, table))
        spans.append((start, end))
    text, spans = _blank_spans(text, spans), []
    for start, end in _nested(text, r"<table(?:[^>]*)>", r"</table>"):
        table = text[start:end]
        blocks.append(Block("html_table", start, start + len(table), table))
        spans.append((start, start + len(table)))
    text = _blank_spans(text, spans)
    blanked: list[tuple[int, int]] = []  # display formulas, in order and apart
    for start, end, _, _ in _delimited(text, _DISPLAY_PAIRS):
        matched = text[start:end]
        line = " ".join(matched.strip().split("\n"))
        inner = _delimited(line, _DOLLAR_PAIRS)  # _DOLLAR.search is its first
        if not inner:
            blanked.append((start, end))
            blocks.append(Block("equation_isolated", start, end, line))
        elif inner[0][2] == 0 and inner[0][3]:
            line = _dollar_sub(line, (0,), inner)
            blanked.append((start, end))
            blocks.append(Block("equation_isolated", start, end, line))
        else:
            line = _dollar_sub(line, (1, 2), inner)
            blocks.append(Block("equation_isolated", start, end, line, "equation_inline"))
    text = _blank_spans(text, blanked)
    if len(_table_lines(text + "\n")) >= 2:
        text = _markdown_tables_to_html(text)
        for match in list(_HTML_TABLE.finditer(text)):
            start, end = match.start(), match.end()
            text = _blank(text, start, end)
            blocks.append(Block("html_table", start, end, match.group(0).strip(), "md2html_table"))
    spans = []
    for start, end, code in _code_blocks(text):
        spans.append((start, end))
        blocks.append(Block("text_all", start, end, code.strip(), "code"))
    text = _blank_spans(text, spans)
    for opening, lines, strip in _LATEX_STYLE_SCANS:
        text = _unwrap_command(text, opening, lines, strip)
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
