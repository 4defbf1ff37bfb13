"""The functions of :mod:`parsescore.shared.tables.grits_kernels`, compiled with numba.

Imported only for grids big enough to repay numba's import (about a second in a fresh
process). Each kernel is the same code object as the Python one, rebuilt over a namespace in
which the kernels it calls are the compiled ones, so there is one source for both paths.
"""

from __future__ import annotations

from typing import Any

from parsescore.shared.tables import grits_kernels
from parsescore.shared.tables.compile import compile_functions

__all__ = ["kernels"]

kernels: dict[str, Any] = compile_functions(grits_kernels, grits_kernels.__all__)
