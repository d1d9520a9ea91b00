"""The compiled kernel ``mtcompute._kernel`` (built from the C sources in ``_kernel/`` when
a C compiler is there): a leaf module that imports nothing else of the package.

The choice between the kernel and the pure Python path is made once, here, at import: the
kernel is used when it was built and ``MTCOMPUTE_PURE`` is not ``1`` in the environment of
the process at that moment. Setting the variable later changes nothing; tests switch paths
in process by setting :data:`use_kernel`.

:data:`AVAILABLE` says whether the extension was built and loads; :data:`use_kernel`
whether calls use it; :func:`active` returns :data:`use_kernel` (for call sites not yet
converted); :data:`ext` is the extension module itself (``None`` without it).
"""

from __future__ import annotations

import os

__all__ = ["AVAILABLE", "active", "ext", "use_kernel"]

try:
    from mtcompute import _kernel as ext

    AVAILABLE = True
except ImportError:  # built without the extension (no compiler, or MTCOMPUTE_NO_EXTENSION=1)
    ext = None  # type: ignore[assignment]  # used only when AVAILABLE
    AVAILABLE = False

# Decided once, at import; only tests change it (with monkeypatch.setattr).
use_kernel: bool = AVAILABLE and os.environ.get("MTCOMPUTE_PURE") != "1"


def active() -> bool:
    """Whether calls use the C kernel: :data:`use_kernel`, decided at import."""
    return use_kernel
