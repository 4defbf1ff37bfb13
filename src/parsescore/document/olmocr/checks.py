"""olmOCR-bench's unit tests: read from its JSONL files (checked as its loader checks them, each
error naming the file and line) and decided on a page's Markdown as its ``tests.py`` decides.

A page is read once and every test on it shares its views (normalised text, tables, formatted
spans), where the reference normalises and parses the page again for each test.

>>> page = Page("# Title\\n\\nThe **quick** fox.\\n")
>>> check = parse_check({"pdf": "a.pdf", "page": 1, "id": "t1", "type": "present",
...                      "text": "quick fox"}, "t.jsonl", 1)
>>> check.run(page).passed
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from rapidfuzz import fuzz

from parsescore.core.errors import InputError
from parsescore.document.olmocr.tables import CellGraph, html_tables, markdown_tables
from parsescore.document.olmocr.textops import near_match_starts, normalise, tail_repeats

__all__ = ["TYPES", "Check", "CheckError", "Page", "Verdict", "parse_check"]

TYPES = ("baseline", "present", "absent", "order", "table", "math", "format", "footnote")

_BASE = {"pdf", "page", "id", "type", "max_diffs", "checked", "url"}
#: each type's own fields: name -> required
_FIELDS: dict[str, dict[str, bool]] = {
    "present": {"text": True, "case_sensitive": False, "first_n": False, "last_n": False},
    "absent": {"text": True, "case_sensitive": False, "first_n": False, "last_n": False},
    "order": {"before": True, "after": True},
    "format": {"text": True, "format": True, "case_sensitive": False},
    "table": {"cell": True, "up": False, "down": False, "left": False, "right": False,
              "top_heading": False, "left_heading": False, "ignore_markdown_tables": False},
    "baseline": {"max_length": False, "max_length_skips_image_alt_tags": False,
                 "max_repeats": False, "check_disallowed_characters": False},
    "math": {"math": True, "ignore_dollar_delimited": False},
    "footnote": {"marker": True, "appears_before_marker": False, "appears_after_marker": False},
}  # fmt: skip
#: each type's fields, and its required ones in the order they are asked for
_ALLOWED = {kind: frozenset(_BASE | set(own)) for kind, own in _FIELDS.items()}
_REQUIRED = {kind: ("pdf", "page", "id", *(name for name, needed in own.items() if needed))
             for kind, own in _FIELDS.items()}  # fmt: skip
_STRINGS = {"text", "before", "after", "format", "cell", "up", "down", "left", "right",
            "top_heading", "left_heading", "math", "marker", "appears_before_marker",
            "appears_after_marker"}  # fmt: skip
_INTEGERS = {"first_n", "last_n", "max_length", "max_repeats"}
_RELATIONS = ("up", "down", "left", "right", "left_heading", "top_heading")
_DISALLOWED = re.compile(
    "[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff\U0001f600-\U0001f64f\U0001f300-\U0001f5ff"
    "\U0001f680-\U0001f6ff\U0001f1e0-\U0001f1ff]"
)
_IMAGE = re.compile(r"!\[.*?\]\(.*?\)")
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


#: what str.isalnum() refuses: re's \w is exactly isalnum() plus "_"
_NOT_ALNUM = re.compile(r"[\W_]+")


#: the ASCII bytes str.isalnum() refuses (ASCII text is counted by deleting them, in C)
_ASCII_NOT_ALNUM = bytes(b for b in range(128) if not chr(b).isalnum())


def _alnum_count(text: str) -> int:
    """How many characters of ``text`` are alphanumeric (``str.isalnum``)."""
    if text.isascii():
        return len(text.encode("ascii").translate(None, _ASCII_NOT_ALNUM))
    return len(_NOT_ALNUM.sub("", text))


class CheckError(Exception):
    """A test could not run on a page (the reference's exception inside ``run``): the harness
    counts it as an error of the candidate."""


@dataclass(frozen=True)
class Verdict:
    """A test's decision on one page file, with what it looked for and the closest thing found."""

    passed: bool
    detail: str = ""
    #: (0..1 similarity, the closest text) where the test searched for a text
    closest: tuple[float, str] | None = None


class Page:
    """One candidate file's text and the views the tests read (each computed once)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._ratio_cache: dict[tuple[str, bool, int | None, int | None], float] = {}

    @cached_property
    def normalised(self) -> str:
        return normalise(self.text)

    @cached_property
    def lowered(self) -> str:
        return self.normalised.lower()

    @cached_property
    def md_tables(self) -> list[CellGraph]:
        return markdown_tables(self.text)

    @cached_property
    def html_tables(self) -> list[CellGraph]:
        try:
            return html_tables(self.text)
        except AssertionError as error:  # html.parser refused the markup, as in BeautifulSoup
            raise CheckError(f"the HTML parser refused the page: {error}") from None

    @cached_property
    def alnum(self) -> int:
        return _alnum_count(self.text)

    def formatted(self, style: str) -> list[str]:
        """The normalised texts the page shows in ``style`` (heading, bold, italic)."""
        cache: dict[str, list[str]] = self.__dict__.setdefault("_formatted", {})
        if style not in cache:
            cache[style] = [normalise(t) for t in _format_spans(self.text, style)]
        return cache[style]


def _format_spans(text: str, style: str) -> list[str]:
    found: list[str] = []
    if style == "heading":
        found += re.findall(r"^#{1,6}\s+(.+?)$", text, re.MULTILINE)
        found += re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", text, re.IGNORECASE | re.DOTALL)
    elif style == "bold":
        found += re.findall(r"\*\*(.*?)\*\*", text, re.DOTALL)
        found += re.findall(r"__(.*?)__", text, re.DOTALL)
        found += re.findall(r"<b[^>]*>(.*?)</b>", text, re.IGNORECASE | re.DOTALL)
        found += re.findall(r"<strong[^>]*>(.*?)</strong>", text, re.IGNORECASE | re.DOTALL)
    else:
        found += re.findall(r"(?<!\*)\*(?!\*)(.*?)(?<!\*)\*(?!\*)", text, re.DOTALL)
        found += re.findall(r"(?<!_)_(?!_)(.*?)(?<!_)_(?!_)", text, re.DOTALL)
        found += re.findall(r"<i[^>]*>(.*?)</i>", text, re.IGNORECASE | re.DOTALL)
        found += re.findall(r"<em[^>]*>(.*?)</em>", text, re.IGNORECASE | re.DOTALL)
    return found


def _threshold(max_diffs: int, text: str) -> float:
    """olmOCR-bench's similarity threshold: 1 - max_diffs / len(text), in floats."""
    return 1.0 - (max_diffs / (len(text) if len(text) > 0 else 1))


@dataclass(frozen=True)
class Check:
    """One unit test of a JSONL file (its text fields normalised as the reference's loader
    normalises them)."""

    id: str
    pdf: str
    page: int
    type: str
    max_diffs: int
    fields: Mapping[str, Any]
    source: str
    line: int
    #: the reference's JSON object, as read
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    def run(self, page: Page) -> Verdict:
        """This test's decision on one file (math needs a renderer: see ``bench``)."""
        return _RUNNERS[self.type](self, page)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)


def _presence(check: Check, page: Page) -> Verdict:
    query: str = check.fields["text"]
    content = page.normalised
    if not check.get("case_sensitive", True):
        query, content = query.lower(), page.lowered
    first, last = check.get("first_n"), check.get("last_n")
    if first and last:
        content = content[:first] + content[-last:]
    elif first:
        content = content[:first]
    elif last:
        content = content[-last:]
    threshold = _threshold(check.max_diffs, query)
    # partial_ratio is its alignment's score (rapidfuzz computes it so; the tests check it), and
    # the alignment gives the closest text for the report: one call instead of two
    alignment = fuzz.partial_ratio_alignment(query, content)
    ratio = (0.0 if alignment is None else alignment.score) / 100.0
    if check.type == "present":
        passed = ratio >= threshold
        detail = "" if passed else f"best match ratio {ratio:.3f} below threshold {threshold}"
    else:
        passed = ratio < threshold
        detail = "" if passed else f"found with ratio {ratio:.3f} (threshold {threshold})"
    if not content or not query or alignment is None:
        return Verdict(passed, detail, (ratio, ""))
    return Verdict(passed, detail, (ratio, content[alignment.dest_start : alignment.dest_end]))


def _order(check: Check, page: Page) -> Verdict:
    before, after = check.fields["before"], check.fields["after"]
    content = page.normalised
    befores = near_match_starts(before, content, check.max_diffs)
    if not befores:  # the verdict whatever 'after' finds: its search is skipped
        return Verdict(False, f"'before' text {before[:40]!r} not found")
    afters = near_match_starts(after, content, check.max_diffs)
    if not afters:
        return Verdict(False, f"'after' text {after[:40]!r} not found")
    if min(befores) < max(afters):
        return Verdict(True)
    return Verdict(False, f"{before[:40]!r} found only after {after[:40]!r}",
                   (0.0, f"before at {befores}, after at {afters}"))  # fmt: skip


def _format(check: Check, page: Page) -> Verdict:
    style: str = check.fields["format"]
    search: str = check.fields["text"]
    spans = page.formatted(style)
    if not check.get("case_sensitive", True):
        search = search.lower()
        spans = [t.lower() for t in spans]
    threshold = _threshold(check.max_diffs, search)
    best = (0.0, "")
    for span in spans:
        ratio = fuzz.partial_ratio(search, span) / 100.0
        if ratio >= threshold:
            return Verdict(True, "", (ratio, span))
        if ratio > best[0]:
            best = (ratio, span)
    found = f"{len(spans)} {style} span(s)" if spans else f"no {style} text"
    return Verdict(False, f"{search[:40]!r} not found as {style} ({found})", best)


def _table(check: Check, page: Page) -> Verdict:
    target: str = check.fields["cell"]
    tables = [] if check.get("ignore_markdown_tables") else list(page.md_tables)
    tables += page.html_tables
    if not tables:
        return Verdict(False, "no tables found")
    threshold = max(0.5, _threshold(check.max_diffs, target))
    reasons: list[str] = []
    closest = (0.0, "")
    for table in tables:
        texts = _normalised_cells(table)
        for cell, text in texts.items():
            similarity = fuzz.ratio(target, text) / 100.0
            if similarity > closest[0]:
                closest = (similarity, text)
            if similarity < threshold:
                continue
            failed = []
            for name in _RELATIONS:
                wanted = check.fields.get(name)
                if not wanted:
                    continue
                if name == "left_heading":
                    neighbours = table.left_headings(cell)
                elif name == "top_heading":
                    neighbours = table.top_headings(cell)
                else:
                    neighbours = getattr(table, name)[cell]
                limit = max(0.5, _threshold(check.max_diffs, wanted))
                best = (0.0, "")
                ok = False
                for other in neighbours:
                    score = fuzz.ratio(wanted, texts[other]) / 100.0
                    if score > best[0]:
                        best = (score, texts[other])
                    if score >= limit:
                        ok = True
                if not ok:
                    failed.append(f"{name}: {best[1]!r} is not {wanted!r} ({best[0]:.2f})")
            if not failed:
                return Verdict(True, "", (similarity, text))
            reasons.extend(failed)
    if not reasons:
        return Verdict(False, f"no cell like {target!r} in any table", closest)
    return Verdict(False, "cells found, relations not satisfied: " + "; ".join(reasons), closest)


def _normalised_cells(table: CellGraph) -> dict[tuple[int, int], str]:
    cache: dict[tuple[int, int], str] | None = getattr(table, "_normalised", None)
    if cache is None:
        cache = {cell: normalise(text) for cell, text in table.cells.items()}
        object.__setattr__(table, "_normalised", cache)
    return cache


def _baseline(check: Check, page: Page) -> Verdict:
    length = page.alnum
    limit = check.get("max_length")
    if limit is not None:
        if check.get("max_length_skips_image_alt_tags"):
            length = _alnum_count(_IMAGE.sub("", page.text))
        if length > limit:
            return Verdict(False, f"{length} characters on a page expected to be blank")
        return Verdict(True)
    if length == 0:
        return Verdict(False, "no alphanumeric characters")
    most = check.get("max_repeats", 30)
    for size, count in enumerate(tail_repeats(page.text, 5), start=1):
        if count > most:
            return Verdict(False, f"ends with {count} repeating {size}-grams")
    if check.get("check_disallowed_characters", True):
        # every disallowed character is outside ASCII (str.isascii is a flag lookup)
        found = [] if page.text.isascii() else _DISALLOWED.findall(page.text)
        if found:
            return Verdict(False, f"disallowed characters {found[:10]}")
    return Verdict(True)


def _clean(text: str) -> str:
    return "".join(c for c in normalise(text) if c.isalnum()).lower()


def _footnote(check: Check, page: Page) -> Verdict:
    marker: str = check.fields["marker"]
    text = page.text
    spots: list[tuple[int, int]] = []
    for found in re.finditer(rf"\[\^{re.escape(marker)}\](?!:)", text):
        spots.append(found.span())
    for found in re.finditer(rf"<sup[^>]*>{re.escape(marker)}</sup>", text, re.IGNORECASE):
        spots.append(found.span())
    if all(c in "0123456789" for c in marker):
        for found in re.finditer(re.escape(marker.translate(_SUPERSCRIPT_DIGITS)), text):
            spots.append(found.span())
    if not spots:
        return Verdict(False, f"marker {marker!r} not found")
    before, after = check.get("appears_before_marker"), check.get("appears_after_marker")
    failures = []
    if before:
        target = _clean(before)
        threshold = _threshold(check.max_diffs, before)
        ok = False
        for start, _ in spots:
            window = _clean(text[max(0, start - 200) : start])
            if window:
                size = min(len(window), len(target) * 2)
                piece = window[-size:] if size > 0 else window
                if fuzz.partial_ratio(target, piece) / 100.0 >= threshold:
                    ok = True
                    break
        if not ok:
            failures.append(f"{before[:40]!r} not found before the marker")
    if after:
        target = _clean(after)
        threshold = _threshold(check.max_diffs, after)
        ok = False
        for _, end in spots:
            window = _clean(text[end : min(len(text), end + 200)])
            if window:
                size = min(len(window), len(target) * 2)
                piece = window[:size] if size > 0 else window
                if fuzz.partial_ratio(target, piece) / 100.0 >= threshold:
                    ok = True
                    break
        if not ok:
            failures.append(f"{after[:40]!r} not found after the marker")
    return Verdict(not failures, "; ".join(failures))


def _math(check: Check, page: Page) -> Verdict:
    raise CheckError("math tests need a renderer (see parsescore.document.olmocr.maths)")


_RUNNERS: dict[str, Callable[[Check, Page], Verdict]] = {
    "present": _presence,
    "absent": _presence,
    "order": _order,
    "format": _format,
    "table": _table,
    "baseline": _baseline,
    "footnote": _footnote,
    "math": _math,
}


def parse_check(data: Any, source: str, line: int) -> Check:
    """One JSONL line's test, checked as olmOCR-bench's loader checks it (plus the types its
    code needs, so that a bad field is an error here rather than a crash later)."""

    def bad(message: str) -> InputError:
        return InputError(message, path=source, where=f"line {line}")

    if not isinstance(data, dict):
        raise bad("expected a JSON object (one test)")
    kind = data.get("type")
    if kind not in _FIELDS:
        raise bad(f"unknown test type {kind!r}; expected one of {', '.join(TYPES)}")
    own = _FIELDS[kind]
    if not _ALLOWED[kind].issuperset(data):
        unknown = sorted(set(data) - _ALLOWED[kind])
        raise bad(f"a {kind} test has no field {unknown[0]!r}")
    for name in _REQUIRED[kind]:
        if name not in data:
            raise bad(f"a {kind} test needs {name!r}")
    if not isinstance(data["pdf"], str) or not data["pdf"]:
        raise bad("PDF filename cannot be empty (expected a string)")
    if not isinstance(data["id"], str) or not data["id"]:
        raise bad("test id cannot be empty (expected a string)")
    page = data["page"]
    if isinstance(page, bool) or not isinstance(page, int):
        raise bad(f"page must be an integer, found {page!r}")
    max_diffs = data.get("max_diffs", 0)
    if not isinstance(max_diffs, int) or max_diffs < 0:
        raise bad("max_diffs must be a positive number or 0")
    fields: dict[str, Any] = {}
    for name in own:
        if name not in data:
            continue
        value = data[name]
        if name in _STRINGS and value is not None and not isinstance(value, str):
            raise bad(f"{name} must be a string, found {value!r}")
        if name in _INTEGERS and value is not None and not isinstance(value, int):
            raise bad(f"{name} must be an integer, found {value!r}")
        fields[name] = value
    for name in ("text", "before", "after", "cell", "marker", "math", "format"):
        if name in own and own[name] and fields.get(name) is None:
            raise bad(f"{name} must be a string, found null")
    if kind in ("present", "absent", "format", "order", "table"):
        for name in ("text", "before", "after", "cell", *_RELATIONS):
            if fields.get(name) is not None and name in own:
                fields[name] = normalise(fields[name])
    if kind in ("present", "absent", "format") and not fields["text"].strip():
        raise bad("text field cannot be empty")
    if kind == "order":
        for name in ("before", "after"):
            if not fields[name].strip():
                raise bad(f"{name} field cannot be empty")
        if max_diffs > len(fields["before"]) // 2 or max_diffs > len(fields["after"]) // 2:
            raise bad("max_diffs is more than half of the text to search for")
    if kind == "format" and fields["format"] not in ("heading", "bold", "italic"):
        raise bad(f"format must be heading, bold or italic, found {fields['format']!r}")
    if kind == "math" and not fields["math"].strip():
        raise bad("math test must have a non-empty math expression")
    if kind == "footnote":
        if not fields["marker"]:
            raise bad("marker field is required")
        if " " in fields["marker"]:
            raise bad("marker cannot contain whitespace")
        for name in ("appears_before_marker", "appears_after_marker"):
            if fields.get(name):
                fields[name] = normalise(fields[name])
                if not fields[name].strip():
                    raise bad(f"{name} field cannot be empty if provided")
    return Check(data["id"], data["pdf"], page, kind, max_diffs, fields, source, line, data)
