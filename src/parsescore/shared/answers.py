"""A model's answer as it arrives — prose around a fenced block, a ``<think>`` block first — made
into the content a reader reads: one rule for every kind, every format and ``predict``
(shared/specs/formats.md, "Chat answers").

1. Every ``<think>…</think>`` block is dropped (an unclosed ``<think>`` runs to the end; a
   ``</think>`` with no opening drops everything before it, as some servers strip the opening
   tag).
2. If the text holds fenced blocks (CommonMark: a line of at least three backticks or tildes,
   indented at most three spaces; the block ends at a line of at least as many of the same
   character, or at the end of the text; a tilde block must be closed), the first block whose
   info string names one of the expected formats is read, else the first block. A closing
   fence written at the end of the block's last line (``@enduml`````) also closes it, as
   models write it.
3. Without fences, a PlantUML answer (``plantuml`` expected) is what lies between the first
   ``@startuml`` line and the next ``@enduml`` line (both kept); other answers are the whole
   text.

Text that holds none of these markers is returned as it is, so that a plain answer scores exactly
as it did; a wrapped answer scores exactly as its content. The result says where the content came
from (:attr:`Answer.fence`) and where it starts in the answer, so that a reader's error can name
the answer's own line (:meth:`Answer.relocate`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from parsescore.core.errors import InputError

__all__ = ["FENCE_NAMES", "Answer", "unwrap_answer", "without_thinking"]

#: The info-string words that name each format a reader reads (the first word of the info
#: string, in lower case, without pandoc's ``{.`` ``}``).
FENCE_NAMES: dict[str, tuple[str, ...]] = {
    "mermaid": ("mermaid", "mmd"),
    "dot": ("dot", "graphviz", "gv"),
    "plantuml": ("plantuml", "puml", "uml"),
    "latex": ("latex", "tex"),
    "html": ("html", "htm"),
    "html-fragment": ("html", "htm"),
    "markdown": ("markdown", "md"),
    "csv": ("csv",),
    "tsv": ("tsv",),
    "json": ("json",),
    "otsl": ("otsl",),
    "doctags": ("doctags",),
}

_OPEN = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")
_LINE = re.compile(r"line (\d+)")


@dataclass(frozen=True)
class Answer:
    """The content of an answer and where it came from.

    Attributes:
        text: what the reader reads.
        fence: the info string of the fenced block it came from (``""`` for a bare fence), or
            None when it was not in a fenced block.
        line: the answer's line (1-based) on which ``text`` begins.
        thinking: a ``<think>`` block was dropped.
    """

    text: str
    fence: str | None = None
    line: int = 1
    thinking: bool = False

    @property
    def fenced(self) -> bool:
        """Whether the content came from a fenced block."""
        return self.fence is not None

    def relocate(self, error: InputError, path: str | Path | None = None) -> InputError:
        """``error`` (raised reading :attr:`text`) with its ``line N`` counted in the answer,
        and naming ``path`` (default: the error's own)."""
        where = error.where
        if where and self.line > 1:
            where = _LINE.sub(lambda m: f"line {int(m[1]) + self.line - 1}", where, count=1)
        if where and self.fenced:
            where += f", in the fenced block from line {self.line}"
        return InputError(error.reason, path=path if path is not None else error.path, where=where)


def without_thinking(text: str) -> str:
    """``text`` without its ``<think>`` blocks (rule 1 alone)."""
    return _without_thinking(text)[0] if "think>" in text else text


def _without_thinking(text: str) -> tuple[str, list[tuple[int, int]]]:
    """``text`` without its ``<think>`` blocks, and the kept pieces as (start in the result,
    start in ``text``) pairs. Linear: each tag is looked for once."""
    pieces: list[tuple[int, int]] = []
    kept: list[str] = []
    length = 0
    position = 0
    close = text.find("</think>")
    first_open = text.find("<think>")
    if close != -1 and (first_open == -1 or close < first_open):
        position = close + len("</think>")  # the opening tag was stripped by the server
    while True:
        start = text.find("<think>", position)
        end_of_kept = len(text) if start == -1 else start
        if end_of_kept > position:
            pieces.append((length, position))
            kept.append(text[position:end_of_kept])
            length += end_of_kept - position
        if start == -1:
            break
        close = text.find("</think>", start + len("<think>"))
        if close == -1:
            break
        position = close + len("</think>")
    return "".join(kept), pieces


def _fence_word(info: str) -> str:
    words = info.split()
    return words[0].strip("{}.").lower() if words else ""


def _blocks(text: str) -> Iterable[tuple[str, str, int]]:
    """Each fenced block of ``text``: (info string, content, offset of the content).

    A tilde fence counts only when it is closed: Mermaid's invisible link ``~~~`` may begin a
    line of a bare diagram, and must not swallow the rest of it.
    """
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    # the longest closing tilde line at or after each line: an opening without one is skipped
    # at once (scanning for it again and again would be quadratic)
    tildes_after = [0] * (len(lines) + 1)
    for k in range(len(lines) - 1, -1, -1):
        stripped = lines[k].strip()
        pure = len(stripped) >= 3 and stripped == "~" * len(stripped)
        indented = len(lines[k]) - len(lines[k].lstrip(" ")) > 3
        tildes_after[k] = max(tildes_after[k + 1], 0 if indented or not pure else len(stripped))
    index = 0
    while index < len(lines):
        opening = _OPEN.fullmatch(lines[index].rstrip("\r\n"))
        if opening is None or (opening[2][0] == "`" and "`" in opening[3]):
            index += 1
            continue
        indent, fence, info = len(opening[1]), opening[2], opening[3].strip()
        if fence[0] == "~" and tildes_after[index + 1] < len(fence):
            index += 1
            continue
        content: list[str] = []
        end = index + 1
        closed = False
        while end < len(lines):
            bare = lines[end].rstrip("\r\n")
            stripped = bare.strip()
            if (
                len(bare) - len(bare.lstrip(" ")) <= 3
                and stripped.startswith(fence)
                and stripped == fence[0] * len(stripped)
            ):
                closed = True
                break
            if fence[0] == "`" and bare.rstrip().endswith(fence):  # ``@enduml```` closes too
                content.append(_dedent(bare.rstrip()[: -len(fence)], indent))
                closed = True
                break
            content.append(_dedent(lines[end], indent))
            end += 1
        if closed or fence[0] == "`":
            yield info, "".join(content), offsets[min(index + 1, len(lines))]
            index = end + 1
        else:
            index += 1


def _dedent(line: str, indent: int) -> str:
    removable = len(line) - len(line.lstrip(" "))
    return line[min(indent, removable) :]


def _plantuml(text: str) -> tuple[str, int]:
    """The lines from the first ``@startuml`` to the next ``@enduml`` (the whole text when
    there is no ``@startuml``) and the offset where they start."""
    match = re.search(r"^[ \t]*@startuml\b", text, re.MULTILINE | re.IGNORECASE)
    if match is None:
        return text, 0
    start = match.start()
    end = re.compile(r"^[ \t]*@enduml\b[^\n]*", re.MULTILINE | re.IGNORECASE).search(text, start)
    return (text[start:] if end is None else text[start : end.end()]), start


def unwrap_answer(text: str, formats: Iterable[str] = ()) -> Answer:
    """The content of a model's answer (see the module's rules); ``formats`` are the formats
    the reader expects (names of :data:`FENCE_NAMES`; for ``auto``, every format it reads).

    >>> unwrap_answer("Sure! Here it is:\\n```mermaid\\nflowchart LR\\nA-->B\\n```\\nDone.")
    Answer(text='flowchart LR\\nA-->B\\n', fence='mermaid', line=3, thinking=False)
    >>> unwrap_answer("<think>A table.</think>\\n| a |\\n|---|").text
    '| a |\\n|---|'
    """
    expected = set(formats)
    plantuml = "plantuml" in expected
    if not any(marker in text for marker in ("```", "~~~", "think>")) and not (
        plantuml and "@startuml" in text.lower()
    ):
        return Answer(text)
    thinking = "think>" in text
    body, pieces = _without_thinking(text) if thinking else (text, [(0, 0)])
    thinking = thinking and body != text

    def line_of(position: int) -> int:
        """The answer's line of a position in ``body``."""
        k = bisect.bisect_right([p[0] for p in pieces], position) - 1
        new_start, old_start = pieces[max(k, 0)]
        return text.count("\n", 0, old_start + position - new_start) + 1

    names = {name for fmt in expected for name in FENCE_NAMES.get(fmt, (fmt,))}
    chosen: tuple[str, str, int] | None = None
    for block in _blocks(body) if ("```" in body or "~~~" in body) else ():
        if chosen is None:
            chosen = block
        if _fence_word(block[0]) in names:
            chosen = block
            break
    if chosen is not None:
        info, content, offset = chosen
        if plantuml:
            content, inner = _plantuml(content)
            offset += inner
        return Answer(content, info, line_of(offset), thinking)
    offset = 0
    if thinking:  # what the dropped block leaves: blank lines before the content
        stripped = body.lstrip()
        offset = len(body) - len(stripped)
        offset = body.rfind("\n", 0, offset) + 1
        body = body[offset:]
    if plantuml:
        body, inner = _plantuml(body)
        offset += inner
    return Answer(body, None, line_of(offset) if offset else 1, thinking)
