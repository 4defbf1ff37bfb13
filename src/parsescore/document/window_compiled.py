"""The kernels of :mod:`parsescore.document.window`, compiled with numba from their own code
objects (one source for both paths, the same integers).

Imported only once numba is loaded or the plain window scans have cost about its import (see
``parsescore.document.match``).
"""

from __future__ import annotations

from typing import Any

from parsescore.document import window
from parsescore.shared.tables.compile import compile_functions

__all__ = ["kernels"]

kernels: dict[str, Any] = compile_functions(window, window.KERNELS)
