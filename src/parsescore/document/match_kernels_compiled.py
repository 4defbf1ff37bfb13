"""The kernels of :mod:`parsescore.document.match_kernels`, compiled with numba from their own code
objects (one source for both paths, the same integers).

Imported only once numba is loaded or the plain window scans have cost about its import (see
``parsescore.document.match``).
"""

from __future__ import annotations

from typing import Any

from parsescore.document import match_kernels
from parsescore.shared.tables.compile import compile_functions

__all__ = ["kernels"]

kernels: dict[str, Any] = compile_functions(match_kernels, match_kernels.KERNELS)
