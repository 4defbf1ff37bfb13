"""Compile a module's plain-Python kernels with numba from their own code objects.

Each function is rebuilt over a copy of its module's namespace in which the kernels it calls
are the compiled ones: one source serves the Python path (small inputs, no numba import) and
the compiled path, so both give the same floats. Imported only by the ``*_compiled`` modules.
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any

from numba import njit

__all__ = ["compile_functions"]


def compile_functions(module: types.ModuleType, names: Iterable[str]) -> dict[str, Any]:
    """The named functions of ``module`` compiled (``njit(cache=True)``), by name."""
    names = list(names)
    namespace: dict[str, Any] = dict(vars(module))
    for name in names:
        python = getattr(module, name)
        namespace[name] = njit(cache=True)(
            types.FunctionType(python.__code__, namespace, name, python.__defaults__)
        )
    return {name: namespace[name] for name in names}
