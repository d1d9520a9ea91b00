"""The compiled kernel ``mtcompute._kernel`` (built from ``_kernel.c`` when a C compiler is
there): a leaf module that imports nothing else of the package.

:data:`AVAILABLE` says whether the extension was built and loads; :func:`active` whether
calls use it now (``MTCOMPUTE_PURE=1`` switches it off at run time; read at every call);
:data:`ext` is the extension module itself (``None`` without it). Choosing between the kernel
and the pure core, the threads and the bulk counting are :mod:`mtcompute.counting`'s.
"""

from __future__ import annotations

import os

__all__ = ["AVAILABLE", "active", "ext"]

try:
    from mtcompute import _kernel as ext

    AVAILABLE = True
except ImportError:  # built without the extension (no compiler, or MTCOMPUTE_NO_EXTENSION=1)
    ext = None  # type: ignore[assignment]  # used only when AVAILABLE
    AVAILABLE = False


def active() -> bool:
    """Whether calls use the C kernel now: it was built and ``MTCOMPUTE_PURE`` is not ``1``."""
    return AVAILABLE and os.environ.get("MTCOMPUTE_PURE") != "1"
