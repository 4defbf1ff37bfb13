"""The functions of :mod:`parsescore.shared.tables.grits_kernels`, compiled with numba.

Imported only for grids big enough to repay numba's import (about a second in a fresh
process). Each kernel is the same code object as the Python one, rebuilt over a namespace in
which the kernels it calls are the compiled ones, so there is one source for both paths.
"""

from __future__ import annotations

import types
from typing import Any

from numba import njit

from parsescore.shared.tables import grits_kernels

__all__ = ["kernels"]

_namespace: dict[str, Any] = dict(vars(grits_kernels))
for _name in grits_kernels.__all__:
    _python = getattr(grits_kernels, _name)
    _namespace[_name] = njit(cache=True)(
        types.FunctionType(_python.__code__, _namespace, _name, _python.__defaults__)
    )

#: The compiled kernels by name (the same names as in grits_kernels).
kernels: dict[str, Any] = {name: _namespace[name] for name in grits_kernels.__all__}
