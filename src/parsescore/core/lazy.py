"""Packages whose public names load on first use (PEP 562), so that importing one part of a
package (a kind's registry description, a CLI module) does not import all of it."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for a package: ``exports`` maps each public name to the
    module defining it.

    >>> getattr_, dir_ = lazy_exports("pkg", {"dumps": "json"})
    >>> getattr_("dumps")([1])
    '[1]'
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
