"""A kind's options, declared once (:class:`Option`): its command's flags, the checks of
:func:`parsescore.evaluate`, ``Result.options``, the cache key, ``--help`` and the options list of
docs/kinds.md all come from the same declarations.

An option has a name (``evaluate``'s keyword; the flag is ``--name`` with ``-`` for ``_``), a
type, a default, optional choices and bounds, a help text, and says whether it changes the numbers
(``scores``: it is recorded in ``Result.options`` and keys the cache) and where it exists: a
keyword of ``evaluate`` and a flag of the command (both, the default), or a flag only (what the
command shows or writes: ``--worst``, ``--report``).

>>> @dataclass(frozen=True)
... class DemoOptions:
...     threshold: float = option(0.5, "Largest distance.", scores=True, minimum=0)
...     mode: Literal["fast", "exact"] = option("exact", "How to match.")
>>> options_model(DemoOptions, "demo", {"threshold": 0.3})
DemoOptions(threshold=0.3, mode='exact')
>>> options_model(DemoOptions, "demo", {"mode": "quick"})
Traceback (most recent call last):
...
parsescore.core.errors.InputError: demo: option 'mode' must be one of fast, exact, got 'quick'
>>> [o.flags for o in declared(DemoOptions)]
[('--threshold',), ('--mode',)]
"""

from __future__ import annotations

import builtins
import dataclasses
import inspect
import math
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, Literal, TypeVar

from parsescore.core.errors import InputError

__all__ = [
    "AnswerOptions",
    "DatasetOptions",
    "NamedOptions",
    "Option",
    "OptionType",
    "check_options",
    "declared",
    "docs_table",
    "option",
    "options_model",
    "recorded_options",
]

T = TypeVar("T")

#: The value types an option can have: ``strs``/``paths`` are tuples (``tuple[str, ...]``; a
#: repeated flag).
OptionType = Literal["bool", "int", "float", "str", "path", "strs", "paths"]

_PYTHON_TYPES: dict[str, Any] = {
    "bool": bool,
    "int": int,
    "float": float,
    "str": str,
    "path": Path,
    "strs": list[str],
    "paths": list[Path],
}


@dataclass(frozen=True)
class Option:
    """One option of a kind, declared once.

    Attributes:
        name: the keyword of ``evaluate`` and the key in ``Result.options``.
        type: the value's type (:data:`OptionType`).
        default: its value when not given (None: not given).
        help: one sentence for ``--help`` and docs/kinds.md.
        scores: whether it changes the numbers (recorded in ``Result.options``; keys the cache).
        choices: the values it may take (a ``str`` option).
        minimum, maximum: bounds of a number (inclusive).
        where: ``both`` (an ``evaluate`` keyword and a flag), ``cli`` (a flag only: what the
            command shows or writes) or ``api`` (a keyword only: what a flag cannot give).
        flag: the flag when it is not ``--name`` (a bool that defaults to True is
            ``--name/--no-name``).
        record: when a ``scores`` option is written into ``Result.options``: ``always`` or
            ``changed`` (only when it differs from its default).
        accepts: other types ``evaluate`` takes as they are (from the type hint: the
            ``Mapping`` of ``Path | Mapping[str, str] | None``, which no flag can give).
    """

    name: str
    type: OptionType
    default: Any
    help: str
    scores: bool = False
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    where: Literal["both", "cli", "api"] = "both"
    flag: str = ""
    record: Literal["always", "changed"] = "always"
    accepts: tuple[builtins.type, ...] = ()

    @property
    def flags(self) -> tuple[str, ...]:
        """The command-line spellings (``--name``; ``--name/--no-name`` for a bool that
        defaults to True)."""
        if self.flag:
            return tuple(self.flag.split(" "))
        base = "--" + self.name.replace("_", "-")
        if self.type == "bool" and self.default is True:
            return (f"{base}/--no-{base[2:]}",)
        return (base,)

    def python_type(self) -> Any:
        """The type hint of the value (``Path | None`` for an optional path)."""
        hint = _PYTHON_TYPES[self.type]
        return hint | None if self.default is None else hint

    def check(self, value: Any, owner: str) -> Any:
        """``value`` as this option's type, or an InputError saying what was expected."""
        if value is None and self.default is None:
            return None
        if self.accepts and isinstance(value, self.accepts):
            return value
        where = f"{owner}: option {self.name!r}"
        if self.type == "bool":
            if not isinstance(value, bool):
                raise InputError(f"{where} must be true or false, got {value!r}")
            return value
        if self.type in ("int", "float"):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InputError(f"{where} must be a number, got {value!r}")
            if self.type == "int" and not isinstance(value, int):
                if not float(value).is_integer():
                    raise InputError(f"{where} must be a whole number, got {value!r}")
                value = int(value)
            if isinstance(value, float) and not math.isfinite(value):
                raise InputError(f"{where} must be a finite number, got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise InputError(f"{where} must be at least {self.minimum:g}, got {value!r}")
            if self.maximum is not None and value > self.maximum:
                raise InputError(f"{where} must be at most {self.maximum:g}, got {value!r}")
            return float(value) if self.type == "float" else value
        if self.type == "path":
            if not isinstance(value, str | PathLike) or not str(value):
                raise InputError(f"{where} must be a path, got {value!r}")
            return Path(value)
        if self.type in ("strs", "paths"):
            if isinstance(value, str | PathLike) or not isinstance(value, Iterable):
                raise InputError(f"{where} must be a list, got {value!r}")
            items = list(value)
            kinds = (str, PathLike) if self.type == "paths" else (str,)
            for item in items:
                if not isinstance(item, kinds):
                    raise InputError(f"{where} must hold strings, got {item!r}")
            return tuple(Path(v) for v in items) if self.type == "paths" else tuple(items)
        if not isinstance(value, str):  # str, possibly an enum of str
            raise InputError(f"{where} must be a string, got {value!r}")
        value = str(value.value) if hasattr(value, "value") else str(value)
        if self.choices and value not in self.choices:
            raise InputError(f"{where} must be one of {', '.join(self.choices)}, got {value!r}")
        return value

    def cli_parameter(self) -> inspect.Parameter:
        """The typer parameter of this option's flag (its type, default, help and choices)."""
        import enum

        import typer

        extra: dict[str, Any] = {}
        help_text = self.help
        if self.choices:
            help_text += f" One of: {', '.join(self.choices)}."
        if self.minimum is not None:
            extra["min"] = self.minimum
        if self.maximum is not None:
            extra["max"] = self.maximum
        hint = self.python_type()
        default = self.default
        if self.choices:
            # an enum of the choices: every typer release shows and checks it alike (typer has
            # no ``click_type`` in every release); check() takes the member's value
            choice = enum.StrEnum(  # type: ignore[misc]
                f"{self.name}_choice", {c: c for c in self.choices}
            )
            hint = choice | None if self.default is None else choice
            default = None if self.default is None else choice(self.default)
        annotation = _annotated(hint, typer.Option(*self.flags, help=help_text, **extra))
        return inspect.Parameter(
            self.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
        )

    def marker(self) -> Any:
        """The typer marker of this option's flag, for a command that writes its own signature
        (``Annotated[int, option.marker()]``); an option with choices goes through
        :meth:`cli_parameter`."""
        import typer

        if self.choices:
            raise TypeError(f"option {self.name!r} has choices: use cli_parameter()")
        return typer.Option(*self.flags, help=self.help, min=self.minimum, max=self.maximum)


def _annotated(hint: Any, marker: Any) -> Any:
    from typing import Annotated

    return Annotated[hint, marker]


def option(
    default: Any,
    help: str,
    *,
    scores: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
    where: Literal["both", "cli", "api"] = "both",
    flag: str = "",
    record: Literal["always", "changed"] = "always",
) -> Any:
    """A field of a kind's options model (a frozen dataclass): its default and the rest of its
    :class:`Option` declaration. The type and the choices come from the field's type hint
    (``Literal["a", "b"]`` gives choices; ``X | None`` an optional value)."""
    meta = {"help": help, "scores": scores, "minimum": minimum, "maximum": maximum}
    meta |= {"where": where, "flag": flag, "record": record}
    return dataclasses.field(default=default, metadata={_META: meta})


_META = "parsescore.option"


_DECLARED: dict[type, tuple[Option, ...]] = {}


def declared(model: type) -> tuple[Option, ...]:
    """The :class:`Option` declarations of an options model (a dataclass whose fields are made
    with :func:`option`), in field order.

    Cached per model (the declarations are frozen): resolving the type hints is most of a
    small pair's scoring time, and every evaluation asks several times.
    """
    found = _DECLARED.get(model)
    if found is None:
        found = _DECLARED[model] = _declarations(model)
    return found


def _declarations(model: type) -> tuple[Option, ...]:
    hints = typing.get_type_hints(model)
    found = []
    for field in dataclasses.fields(model):
        meta = field.metadata.get(_META)
        if meta is None:
            raise TypeError(f"{model.__name__}.{field.name} is not declared with option()")
        where = f"{model.__name__}.{field.name}"
        hint, accepts = _flag_type(hints[field.name])
        option_type, choices = _option_type(hint, where)
        found.append(
            Option(field.name, option_type, field.default, choices=choices, accepts=accepts, **meta)
        )
    return tuple(found)


def _flag_type(hint: Any) -> tuple[Any, tuple[type, ...]]:
    """The part of a union a flag can give (``Path`` of ``Path | Mapping[str, str] | None``)
    and the types of the other parts, which ``evaluate`` takes as they are."""
    if typing.get_origin(hint) not in (typing.Union, types.UnionType):
        return hint, ()
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    simple = [a for a in args if _is_flag_type(a)]
    if not simple:
        return hint, ()
    others = tuple(typing.get_origin(a) or a for a in args if a is not simple[0])
    return simple[0], others


def _is_flag_type(hint: Any) -> bool:
    try:
        _option_type(hint, "")
    except TypeError:
        return False
    return True


def _option_type(hint: Any, where: str) -> tuple[OptionType, tuple[str, ...]]:
    if typing.get_origin(hint) is Literal:
        return "str", tuple(str(a) for a in typing.get_args(hint))
    args = [a for a in typing.get_args(hint) if a is not Ellipsis]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):  # X | None
        flag_type, _ = _flag_type(hint)
        if flag_type is not hint:
            return _option_type(flag_type, where)
    if typing.get_origin(hint) is tuple and len(args) == 1:  # tuple[str, ...]
        if args[0] is str:
            return "strs", ()
        if args[0] is Path:
            return "paths", ()
    simple = {bool: "bool", int: "int", float: "float", str: "str", Path: "path"}
    if hint in simple:
        return simple[hint], ()  # type: ignore[return-value]
    raise TypeError(f"{where}: an option cannot be of type {hint!r}")


@dataclass(frozen=True)
class NamedOptions:
    """What every kind's ``evaluate`` takes: the system's name."""

    name: str | None = option(
        None, "The system's name in the result (default: the prediction's name).", flag="--name"
    )
    by: tuple[str, ...] = option(
        (),
        "Break the totals down by this item attribute (repeatable): one of the kind's "
        "attributes, or a column of --attributes.",
    )
    attributes: Path | Mapping[str, Mapping[str, str]] | None = option(
        None,
        "A CSV of the items' attributes for --by: an id column, then one column per attribute.",
    )


@dataclass(frozen=True)
class AnswerOptions:
    """What every kind does with answers it cannot read or cannot find (docs/answers.md)."""

    strict: bool = option(
        False, "Stop at the first unreadable answer (exit 2) instead of scoring it as missing."
    )
    allow_missing: bool = option(
        False,
        "Score only the items that have an answer (default: a missing answer scores as an "
        "empty one).",
        scores=True,
    )


@dataclass(frozen=True)
class DatasetOptions(NamedOptions):
    """How a dataset kind runs: worker processes, Dask, the cache, the progress bar."""

    jobs: int = option(1, "Worker processes (0 = all cores).", minimum=0)
    dask_scheduler: str | None = option(None, "Run on this Dask scheduler (the dask extra).")
    cache: Path | None = option(None, "Reuse per-item results cached in this directory.")
    quiet: bool = option(False, "No progress bar or cache summary.")


def options_model(model: type[T], owner: str, given: Mapping[str, Any], *, where: str = "api") -> T:
    """An instance of ``model`` from keyword options: each checked (:func:`check_options`)."""
    return model(**check_options(owner, declared(model), given, where=where))


def check_options(
    owner: str, options: Sequence[Option], given: Mapping[str, Any], *, where: str = "api"
) -> dict[str, Any]:
    """Every option of ``declared`` that exists ``where`` (``api``: evaluate's keywords;
    ``cli``: the command's flags), each given value checked, the others at their default.

    An unknown name or a wrong value is an InputError naming the option and what it takes.
    """
    usable = [o for o in options if o.where in ("both", where)]
    known = {o.name: o for o in usable}
    for name in given:
        if name not in known:
            raise InputError(
                f"{owner}: unknown option {name!r}; its options: {', '.join(known) or '(none)'}"
            )
    return {o.name: o.check(given[o.name], owner) if o.name in given else o.default for o in usable}


def recorded_options(model: Any) -> dict[str, Any]:
    """The options that change the numbers, JSON-ready, in declaration order: what
    ``Result.options`` records and what keys the cache (``record="changed"``: only when not the
    default)."""
    recorded: dict[str, Any] = {}
    for option in declared(type(model)):
        if not option.scores:
            continue
        value = getattr(model, option.name)
        if option.record == "changed" and value == option.default:
            continue
        recorded[option.name] = _jsonable(value)
    return recorded


def _jsonable(value: Any) -> Any:
    if isinstance(value, PathLike):
        return str(value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def docs_table(options: Sequence[Option]) -> str:
    """The Markdown table of options for docs/kinds.md (flag, keyword, default, what it does)."""
    rows = [
        "| flag | `evaluate` keyword | default | changes scores | what it does |",
        "|---|---|---|---|---|",
    ]
    for option in options:
        flag = " ".join(f"`{f}`" for f in option.flags) if option.where != "api" else "–"
        keyword = f"`{option.name}`" if option.where != "cli" else "–"
        default = "–" if option.default is None else f"`{option.default!r}`"
        text = option.help + (f" One of: {', '.join(option.choices)}." if option.choices else "")
        scores = "yes" if option.scores else ""
        rows.append(f"| {flag} | {keyword} | {default} | {scores} | {text.replace('|', '/')} |")
    return "\n".join(rows)
