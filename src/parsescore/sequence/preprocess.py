"""The subset of PlantUML's preprocessor that real sequence diagrams use, run before parsing.

PlantUML evaluates ``!`` directives before it reads a diagram; a file written with
``!$simplified = false`` … ``!if ($simplified == true)`` … ``!endif`` draws only one branch, so
counting both would count what PlantUML never draws. Supported (our own evaluator, bounded):

* ``!$var = value`` / ``!$var ?= value``, ``!define NAME value``, ``!undef NAME``; ``$var`` and
  ``!define`` names are substituted in the other lines;
* ``!if`` / ``!elseif`` / ``!else`` / ``!endif`` (and ``!ifdef`` / ``!ifndef``) with ``==``,
  ``!=``, ``<``, ``>``, ``<=``, ``>=``, ``and``/``&&``, ``or``/``||``, ``not``/``!``,
  parentheses, ``%true()``/``%false()``, whole numbers, quoted strings and ``$var``. Values
  follow PlantUML (checked against Debian's PlantUML 1.2020.2 with ``-preproc``): ``0`` and
  ``""`` are false, ``"0"`` is true, ``5 == "5"``; a bare word such as ``true`` or ``false`` is
  no keyword but PlantUML's *undefined* value, which is true, equal to every other bare word
  and printed ``undefined`` (so after ``!$simplified = false``, ``$simplified == true`` holds
  and ``$simplified != true`` does not, exactly as PlantUML draws it);
* ``!include`` / ``!include_once`` / ``!include_many`` of a local file, relative to the
  including file and inside the dataset's root, looked up in ``includes`` (read beforehand by
  :func:`collect_includes`), never a URL, never outside the root, at most
  :data:`MAX_INCLUDE_DEPTH` deep (a file including itself is reported, not followed);
* a trailing ``\\`` continues a line on the next one;
* the diagram ends at the first ``@enduml`` of the file itself (not of an included file): the
  lines after it (prose, another ``@startuml`` … ``@enduml`` diagram) are not part of it, as
  PlantUML draws only that block as this diagram (one warning when they hold anything).

``!pragma`` and ``!theme`` change only the drawing and are dropped silently; any other
directive is dropped with one warning naming it (``!procedure`` … ``!endprocedure`` bodies are
skipped as one). Lines keep their original numbers, so warnings and differences point at the
file as written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from parsescore.core.errors import InputError
from parsescore.core.files import env_limit
from parsescore.sequence.model import Diagnostic

__all__ = [
    "MAX_CONTINUED_LINES",
    "MAX_DEFINES",
    "MAX_EXPANDED_CHARS",
    "MAX_INCLUDES",
    "MAX_INCLUDE_DEPTH",
    "Line",
    "Preprocessed",
    "RefusedInclude",
    "collect_includes",
    "include_target",
    "preprocess",
]

#: How deep ``!include`` may nest (a bound, also against include loops through several files;
#: ``PARSESCORE_MAX_INCLUDE_DEPTH``): a deeper one is skipped with a warning.
MAX_INCLUDE_DEPTH = 8
#: Most ``!include`` expansions of one diagram, all files together
#: (``PARSESCORE_MAX_INCLUDES``): 8 files of 50 includes each, 7 levels deep, would be 50**7.
MAX_INCLUDES = 1_000
#: Most characters a diagram may grow to through includes, ``!define`` and ``$variables``
#: (``PARSESCORE_MAX_EXPANDED_CHARS``): 32 doubling ``!define`` lines make 4 billion.
MAX_EXPANDED_CHARS = 4_000_000
#: Most ``!define`` names in force at once (``PARSESCORE_MAX_DEFINES``): each line is searched
#: for each name.
MAX_DEFINES = 1_000
#: Most lines one logical line may join with trailing backslashes
#: (``PARSESCORE_MAX_CONTINUED_LINES``).
MAX_CONTINUED_LINES = 1_000
#: Most lines a file may grow to through includes (a bound on memory).
MAX_LINES = 200_000
#: Deepest nesting of parentheses / negations in a condition (a bound on recursion).
MAX_NESTING = 100

_LINE_BREAK = re.compile(r"\r\n|\n|\r")
_DIRECTIVE = re.compile(r"^\s*!\s*(?P<name>\$?\w+)(?P<rest>.*)$")
# The value and target are taken to the end of the line and stripped afterwards: a lazy
# ``.*?`` before ``\s*$`` rescanned a long run of spaces from each of its positions.
_ASSIGN = re.compile(r"^\s*!\s*(?P<var>\$\w+)\s*(?P<op>\?=|=)\s*(?P<value>.*)$")
_INCLUDE = re.compile(
    r"^\s*!\s*(?P<how>include(?:_once|_many|url|sub)?)\b\s*(?P<target>.*)$", re.IGNORECASE
)
_VARIABLE = re.compile(r"\$\w+")
#: The line that ends a diagram (as the grammar's ``@end…`` no-metric line).
_ENDUML = re.compile(r"^\s*@end\w*\s*$", re.IGNORECASE)
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_SILENT = frozenset({"pragma", "theme", "startuml", "enduml"})
_BLOCKS = {"procedure": "endprocedure", "function": "endfunction", "startsub": "endsub"}


@dataclass(frozen=True, slots=True)
class Line:
    """One line after preprocessing: its text and where it was written (file, 1-based line)."""

    number: int
    text: str
    source: str = ""


@dataclass(slots=True)
class Preprocessed:
    """The lines to parse, with the warnings the preprocessor gave."""

    lines: list[Line]
    diagnostics: list[Diagnostic] = field(default_factory=list)


def split_lines(text: str) -> list[str]:
    """Lines as editors and ``git`` number them (``\\r\\n``, ``\\n`` or ``\\r`` end a line)."""
    if not text:
        return []
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def include_target(including: str, target: str) -> tuple[str | None, str]:
    """The root-relative POSIX path an ``!include`` names, or None and why it is refused.

    ``including`` is the including file's root-relative path; ``target`` the directive's
    argument (quotes and a ``!sub`` suffix removed). URLs, ``<stdlib>`` names, absolute paths
    and paths leaving the root are refused.
    """
    target = target.strip().strip('"').split("!", 1)[0].strip()
    if not target:
        return None, "names no file"
    if _URL.match(target):
        return None, f"of a URL ({target}) is never fetched"
    if target.startswith("<"):
        return None, f"of PlantUML's standard library {target} is not read"
    if target.startswith(("/", "\\")) or re.match(r"^[a-zA-Z]:[\\/]", target):
        return None, f"of an absolute path ({target}) is not read"
    joined = posixpath.normpath(
        posixpath.join(posixpath.dirname(including), target.replace("\\", "/"))
    )
    if joined == ".." or joined.startswith("../"):
        return None, f"of {target} leaves the dataset's root: not read"
    return joined, ""


class RefusedInclude(str):
    """In the ``includes`` of :func:`preprocess`: a file that was not read, as why (e.g. its
    real path is outside the dataset's root); the ``!include`` naming it is then a warning."""

    __slots__ = ()


def collect_includes(
    path: str, text: str, read: Callable[[str], str], *, depth: int | None = None
) -> dict[str, str]:
    """Every local file ``text`` includes, directly or not, read with ``read`` (a root-relative
    path → text). A missing file is left out; a file ``read`` refuses otherwise (binary, outside
    the root once symbolic links are followed) maps to a :class:`RefusedInclude` saying why;
    the preprocessor names either at its directive. Bounded by ``depth`` (default
    ``PARSESCORE_MAX_INCLUDE_DEPTH``) and by reading each file once."""
    if depth is None:
        depth = env_limit("PARSESCORE_MAX_INCLUDE_DEPTH", MAX_INCLUDE_DEPTH)
    found: dict[str, str] = {}
    todo = [(path, text, 0)]
    while todo:
        current, content, level = todo.pop()
        if level >= depth:
            continue
        for line in split_lines(content):
            match = _INCLUDE.match(line)
            if not match or match["how"].lower() == "includeurl":
                continue
            target, _ = include_target(current, match["target"])
            if target is None or target in found or target == path:
                continue
            try:
                found[target] = read(target)
            except InputError as exc:
                if exc.reason != "file not found" and not exc.reason.startswith("no script "):
                    found[target] = RefusedInclude(exc.reason)  # else: no such file
                continue
            except (OSError, ValueError) as exc:
                found[target] = RefusedInclude(str(exc) or type(exc).__name__)
                continue
            todo.append((target, found[target], level + 1))
    return found


class _Expression:
    """A recursive-descent evaluator of ``!if`` conditions (no name lookup beyond variables)."""

    _TOKEN = re.compile(
        r"\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<str>\"[^\"]*\"|'[^']*')|(?P<var>\$\w+)"
        r"|(?P<op>==|!=|<=|>=|&&|\|\||[()<>!])|(?P<word>[A-Za-z_%][\w%]*(?:\(\))?))"
    )

    def __init__(self, text: str, variables: Mapping[str, object]) -> None:
        self.tokens: list[tuple[str, str]] = []
        position = 0
        text = text.strip()
        while position < len(text):
            match = self._TOKEN.match(text, position)
            if match is None or match.end() == position:
                raise ValueError(f"cannot read the condition at {text[position:][:20]!r}")
            kind = match.lastgroup or ""
            self.tokens.append((kind, match[kind]))
            position = match.end()
        self.variables = variables
        self.index = 0
        self.depth = 0

    def _peek(self) -> tuple[str, str]:
        return self.tokens[self.index] if self.index < len(self.tokens) else ("end", "")

    def _take(self) -> tuple[str, str]:
        token = self._peek()
        self.index += 1
        return token

    def value(self) -> object:
        result = self._or()
        if self._peek()[0] != "end":
            raise ValueError(f"unexpected {self._peek()[1]!r} in the condition")
        return result

    def _is(self, *words: str) -> bool:
        kind, text = self._peek()
        return kind in ("op", "word") and text.lower() in words

    def _or(self) -> object:
        left = self._and()
        while self._is("or", "||"):
            self._take()
            right = self._and()
            left = _truth(left) or _truth(right)
        return left

    def _and(self) -> object:
        left = self._not()
        while self._is("and", "&&"):
            self._take()
            right = self._not()
            left = _truth(left) and _truth(right)
        return left

    def _not(self) -> object:
        if self._is("not", "!"):
            self._take()
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise ValueError(f"operators nested more than {MAX_NESTING} deep")
            value = not _truth(self._not())
            self.depth -= 1
            return value
        return self._compare()

    def _compare(self) -> object:
        left = self._atom()
        if self._is("==", "!=", "<", ">", "<=", ">="):
            op = self._take()[1]
            right = self._atom()
            if op == "==":
                return _same(left, right)
            if op == "!=":
                return not _same(left, right)
            a, b = _number(left), _number(right)
            return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        return left

    def _atom(self) -> object:
        kind, text = self._take()
        if kind == "op" and text == "!":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise ValueError(f"operators nested more than {MAX_NESTING} deep")
            value = not _truth(self._atom())
            self.depth -= 1
            return value
        if kind == "op" and text == "(":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise ValueError(f"parentheses nested more than {MAX_NESTING} deep")
            inner = self._or()
            self.depth -= 1
            if self._take() != ("op", ")"):
                raise ValueError("a '(' is never closed in the condition")
            return inner
        if kind == "num":
            return int(float(text)) if float(text).is_integer() else text
        if kind == "str":
            return text[1:-1]
        if kind == "var":
            if text not in self.variables:
                raise ValueError(f"{text} is not defined")
            return self.variables[text]
        if kind == "word" and text.lower() == "%true()":
            return 1
        if kind == "word" and text.lower() == "%false()":
            return 0
        if kind == "word" and not text.startswith("%"):
            return UNDEFINED
        raise ValueError(f"unexpected {text or 'end'!r} in the condition")


class _Undefined:
    """PlantUML's value of a bare word (``true``, ``false``, ``foo``): see the module doc."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = _Undefined()


def _truth(value: object) -> bool:
    if value is UNDEFINED:
        return True
    if isinstance(value, str):
        return value != ""
    return bool(value)


def _number(value: object) -> float:
    if isinstance(value, bool | int | float):
        return float(value)
    try:
        return float(str(value))
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None


def _same(a: object, b: object) -> bool:
    if a is UNDEFINED or b is UNDEFINED:
        return a is b
    return _text_of(a) == _text_of(b)


def _literal(text: str) -> object:
    """The value of ``!$x = text``: a quoted string, a whole number, ``%true()`` /
    ``%false()``, PlantUML's undefined value for a bare word, else the text."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text.lower() == "%true()":
        return 1
    if text.lower() == "%false()":
        return 0
    if re.fullmatch(r"[A-Za-z_]\w*", text):
        return UNDEFINED
    return text


def _text_of(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return "undefined" if value is UNDEFINED else str(value)


@dataclass(slots=True)
class _Branch:
    line: int
    active: bool  # this branch's lines are kept
    taken: bool  # some branch of this !if was already kept
    outer: bool  # the enclosing branch is kept


def _cap_error(what: str, variable: str, path: str, number: int) -> InputError:
    """The one-line error of a diagram past a preprocessor cap (the item's unreadable reason)."""
    return InputError(
        f"{what} ({variable} changes the limit)",
        path=path or None,
        where=f"line {number}" if number else None,
    )


def _join_continued(raw: list[str], path: str, limit: int) -> list[tuple[int, str]]:
    """``(first line number, text)`` of each logical line: a line ending in one ``\\``
    continues on the next (joined in one pass: adding piece by piece was quadratic); more
    than ``limit`` lines joined into one is an InputError."""
    lines: list[tuple[int, str]] = []
    index = 0
    while index < len(raw):
        number, line = index + 1, raw[index]
        pieces: list[str] = []
        while True:
            trimmed = line.rstrip()
            if not (trimmed.endswith("\\") and not trimmed.endswith("\\\\")):
                break
            if index + 1 >= len(raw):
                break
            if len(pieces) >= limit:
                raise _cap_error(
                    f"more than {limit} lines continued with a trailing backslash",
                    "PARSESCORE_MAX_CONTINUED_LINES",
                    path,
                    number,
                )
            pieces.append(trimmed[:-1])
            index += 1
            line = raw[index]
        pieces.append(line)
        lines.append((number, "".join(pieces)))
        index += 1
    return lines


class _Preprocessor:
    def __init__(self, includes: Mapping[str, str], path: str = "") -> None:
        self.includes = includes
        self.path = path
        self.max_depth = env_limit("PARSESCORE_MAX_INCLUDE_DEPTH", MAX_INCLUDE_DEPTH)
        self.max_includes = env_limit("PARSESCORE_MAX_INCLUDES", MAX_INCLUDES)
        self.max_chars = env_limit("PARSESCORE_MAX_EXPANDED_CHARS", MAX_EXPANDED_CHARS)
        self.max_defines = env_limit("PARSESCORE_MAX_DEFINES", MAX_DEFINES)
        self.max_continued = env_limit("PARSESCORE_MAX_CONTINUED_LINES", MAX_CONTINUED_LINES)
        self.expansions = 0  # !include expansions so far
        self.size = 0  # characters written out so far
        self.included = 0  # characters of the included files expanded so far
        self.line = 0  # the line of the file being scored that is being read (for caps)
        self.variables: dict[str, object] = {}
        self.defines: dict[str, str] = {}
        self.out: list[Line] = []
        self.diagnostics: list[Diagnostic] = []
        self.warned: set[str] = set()
        self.included_once: set[str] = set()

    def warn(self, number: int, where: str, message: str) -> None:
        prefix = f"{where}: " if where else ""
        self.diagnostics.append(Diagnostic(number, prefix + message))

    def run(self, text: str, path: str, chain: tuple[str, ...], at: int = 0) -> None:
        """Preprocess one file; lines of an included file take the ``!include`` line's number
        (``at``), so every element points at a line of the file being scored."""
        where = path if chain else ""
        lines = _join_continued(split_lines(text), path, self.max_continued)
        stack: list[_Branch] = []
        skip_until: tuple[str, int] | None = None
        for position, (number, line) in enumerate(lines):
            if len(self.out) > MAX_LINES:
                self.warn(number, where, f"more than {MAX_LINES} lines after includes: cut here")
                return
            self.line = at or number
            directive = _DIRECTIVE.match(line)
            if skip_until is not None:
                if directive and directive["name"].lower() == skip_until[0]:
                    skip_until = None
                continue
            keep = all(branch.active for branch in stack)
            if directive is None:
                if keep:
                    expanded = self._substitute(line)
                    self.size += len(expanded)
                    self.out.append(Line(at or number, expanded, where))
                    if not chain and _ENDUML.match(line):
                        self._after_end(lines[position + 1 :], number)
                        break
                continue
            name = directive["name"].lower()
            if name in ("if", "ifdef", "ifndef"):
                active = keep and self._condition(name, directive["rest"], number, where)
                stack.append(_Branch(number, active, active, keep))
            elif name in ("elseif", "else"):
                if not stack:
                    self.warn(number, where, f"!{name} without !if: ignored")
                    continue
                branch = stack[-1]
                if name == "else":
                    active = branch.outer and not branch.taken
                else:
                    active = (
                        branch.outer
                        and not branch.taken
                        and self._condition("if", directive["rest"], number, where)
                    )
                branch.active, branch.taken = active, branch.taken or active
            elif name == "endif":
                if stack:
                    stack.pop()
                else:
                    self.warn(number, where, "!endif without !if: ignored")
            elif not keep:
                continue
            elif name.startswith("$"):
                self._assign(line, number, where)
            elif name == "define":
                parts = directive["rest"].strip().split(None, 1)
                if parts and "(" in parts[0]:
                    self._unsupported("define with arguments", number, where)
                elif parts:
                    if parts[0] not in self.defines and len(self.defines) >= self.max_defines:
                        raise _cap_error(
                            f"more than {self.max_defines} !define names",
                            "PARSESCORE_MAX_DEFINES",
                            self.path,
                            self.line,
                        )
                    self.defines[parts[0]] = parts[1] if len(parts) > 1 else ""
            elif name == "undef":
                self.defines.pop(directive["rest"].strip(), None)
            elif name.startswith("include"):
                self._include(line, at or number, number, path, chain, where)
            elif name in _BLOCKS:
                self._unsupported(name, number, where)
                skip_until = (_BLOCKS[name], number)
            elif name not in _SILENT:
                self._unsupported(name, number, where)
        for branch in stack:
            self.warn(branch.line, where, "!if opened here is never closed by !endif")
        if skip_until is not None:
            self.warn(skip_until[1], where, f"block never closed by !{skip_until[0]}")

    def _after_end(self, rest: list[tuple[int, str]], end: int) -> None:
        """The lines after the diagram's ``@enduml`` are not part of it (PlantUML draws each
        ``@startuml`` … ``@enduml`` block as a diagram of its own; the first is the one read):
        one warning when they hold anything."""
        following = next((number for number, line in rest if line.strip()), None)
        if following is not None:
            self.warn(
                following,
                "",
                f"lines after @enduml (line {end}) are not part of the diagram: ignored",
            )

    def _unsupported(self, name: str, number: int, where: str) -> None:
        if name not in self.warned:
            self.warned.add(name)
            self.warn(number, where, f"preprocessor directive !{name} is not supported: ignored")

    def _condition(self, name: str, rest: str, number: int, where: str) -> bool:
        if name in ("ifdef", "ifndef"):
            word = rest.strip()
            defined = word in self.defines or word in self.variables
            return defined if name == "ifdef" else not defined
        try:
            return _truth(_Expression(rest, self.variables).value())
        except ValueError as exc:
            self.warn(number, where, f"!if condition not understood ({exc}): taken as false")
            return False

    def _assign(self, line: str, number: int, where: str) -> None:
        match = _ASSIGN.match(line)
        if match is None:
            self.warn(number, where, "variable assignment not understood: ignored")
            return
        if match["op"] == "?=" and match["var"] in self.variables:
            return
        value_text = match["value"].rstrip()
        try:  # an expression, as PlantUML reads it (``!$b = $a``, ``!$c = "x"``, ``!$d = 5``)
            value = _Expression(value_text, self.variables).value()
        except ValueError:  # else plain text, with variables substituted
            value = _literal(self._substitute(value_text))
        self.variables[match["var"]] = value

    def _include(
        self, line: str, at: int, number: int, path: str, chain: tuple[str, ...], where: str
    ) -> None:
        match = _INCLUDE.match(line)
        if match is None:
            return
        how = match["how"].lower()
        if how == "includeurl":
            self.warn(number, where, f"!includeurl {match['target'].strip()} is never fetched")
            return
        target, why = include_target(path, match["target"])
        if target is None:
            self.warn(number, where, f"!{how} {why}")
            return
        if target == path or target in chain:
            self.warn(number, where, f"!{how} {target} includes itself (an include loop): skipped")
            return
        if len(chain) + 1 > self.max_depth:
            self.warn(number, where, f"!{how} nested more than {self.max_depth} deep: skipped")
            return
        if how == "include_once" and target in self.included_once:
            return
        text = self.includes.get(target)
        if text is None:
            self.warn(number, where, f"!{how} {target}: no such file in the dataset")
            return
        if isinstance(text, RefusedInclude):
            self.warn(number, where, f"!{how} {target}: {text}")
            return
        self.expansions += 1
        if self.expansions > self.max_includes:
            raise _cap_error(
                f"more than {self.max_includes} !include expansions",
                "PARSESCORE_MAX_INCLUDES",
                self.path,
                at,
            )
        # what the included files hold counts too (lines inside a false !if or directives
        # write nothing, yet each expansion reads them)
        self.included += len(text)
        self._check_room(self.included, self.max_chars)
        self.included_once.add(target)
        self.run(text, target, (*chain, path), at)

    def _substitute(self, line: str) -> str:
        """``line`` with ``$variables`` and ``!define`` names replaced; a result that would take
        the diagram past ``PARSESCORE_MAX_EXPANDED_CHARS`` is an InputError (checked before
        each replacement is built, so doubling definitions never allocate gigabytes)."""
        room = self.max_chars - self.size
        if "$" in line and self.variables:
            found = [m for m in _VARIABLE.finditer(line) if m[0] in self.variables]
            grown = sum(len(_text_of(self.variables[m[0]])) - len(m[0]) for m in found)
            self._check_room(len(line) + grown, room)
            line = _VARIABLE.sub(
                lambda m: _text_of(self.variables[m[0]]) if m[0] in self.variables else m[0],
                line,
            )
        for name, value in self.defines.items():
            if name in line:
                pattern = re.compile(rf"(?<![\w$]){re.escape(name)}(?!\w)")
                count = len(pattern.findall(line))
                self._check_room(len(line) + count * (len(value) - len(name)), room)
                line = pattern.sub(value.replace("\\", "\\\\"), line)
        return line

    def _check_room(self, size: int, room: int) -> None:
        if size > room:
            raise _cap_error(
                f"the diagram grows past {self.max_chars} characters through !define, "
                "$variables and !include",
                "PARSESCORE_MAX_EXPANDED_CHARS",
                self.path,
                self.line,
            )


def preprocess(
    text: str, *, path: str = "", includes: Mapping[str, str] | None = None
) -> Preprocessed:
    """The lines PlantUML would parse, with their original line numbers.

    >>> result = preprocess("!$short = true\\n!if $short\\nA -> B\\n!else\\nA -> C\\n!endif")
    >>> [(line.number, line.text) for line in result.lines]
    [(3, 'A -> B')]
    """
    processor = _Preprocessor(includes or {}, path)
    processor.run(text, path, ())
    return Preprocessed(processor.out, processor.diagnostics)
