"""The functions of :mod:`parsescore.shared.tables.grits_kernels`, compiled with numba.

Imported only for grids big enough to repay numba's import (about a second in a fresh
process). Each kernel is the same code object as the Python one, rebuilt over a copy of its
module's namespace in which the kernels it calls are the compiled ones and the buffers
(``_floats``/``_ints``) are NumPy arrays instead of lists: one source for both paths.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
from numba import njit

from parsescore.shared.tables import grits_kernels
from parsescore.shared.tables.compile import compile_functions

__all__ = ["kernels"]


@njit(cache=True)
def _floats(n: int) -> np.ndarray:
    return np.zeros(n)


@njit(cache=True)
def _ints(n: int) -> np.ndarray:
    return np.zeros(n, dtype=np.int64)


_namespace = types.ModuleType(grits_kernels.__name__)
_namespace.__dict__.update(vars(grits_kernels))
_namespace.__dict__.update(_floats=_floats, _ints=_ints)

kernels: dict[str, Any] = compile_functions(_namespace, grits_kernels.__all__)
