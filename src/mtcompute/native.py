"""The compiled kernel ``mtcompute._kernel`` (built from the C sources in ``_kernel/`` when
a C compiler is there), and the one seam that chooses between it and the pure Python path.

The choice is made once, here, at import: the kernel is used when it was built and
``MTCOMPUTE_PURE`` is not ``1`` in the environment of the process at that moment. Setting the
variable later changes nothing.

A function with a kernel path is a :class:`Twin`: its kernel path and its pure twin, and the
one of the two chosen at import. Call sites call the twin and never ask which path runs.
Three decorators make twins:

* :func:`twin` pairs a kernel path with a named pure function of the same signature;
* :func:`kernel_step` marks a step only the kernel takes: its pure twin answers ``None``,
  which tells the caller to take its own (pure) way;
* :func:`kernel_test` marks a test of whether the kernel takes an input: its pure twin
  answers ``False``.

A kernel path may still hand an input to the pure twin (one it does not take: a type, an
order or a size outside its range); the twin's choice is of the path, not of the answer.
Tests run both paths in one process with :func:`switch`.

:data:`AVAILABLE` says whether the extension was built and loads; :data:`ext` is the
extension module itself (``None`` without it).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from typing import Any, Generic, ParamSpec, TypeVar

__all__ = [
    "AVAILABLE",
    "PURE_WARNING",
    "Twin",
    "ext",
    "kernel_in_use",
    "kernel_step",
    "kernel_test",
    "path",
    "switch",
    "twin",
    "twins",
]

P = ParamSpec("P")
R = TypeVar("R")

try:
    from mtcompute import _kernel as ext

    # Without the built module, the folder of C sources imports as a namespace package.
    if getattr(ext, "__file__", None) is None:
        raise ImportError("mtcompute._kernel is the folder of its C sources, not the kernel")
    AVAILABLE = True
except ImportError:  # built without the extension (MTCOMPUTE_NO_EXTENSION=1)
    ext = None  # type: ignore[assignment]  # used only by kernel paths, chosen only when built
    AVAILABLE = False

# Decided once, at import; only switch() changes it (tests and the twin benchmark).
_use_kernel: bool = AVAILABLE and os.environ.get("MTCOMPUTE_PURE") != "1"

# Without the kernel, and unless the pure path is asked for, say so once: fast or loud.
PURE_WARNING = (
    "mtcompute: warning: the C kernel is not built, so the pure Python path runs (the same "
    "numbers, 15-20x slower); `mtcompute doctor` says more, MTCOMPUTE_NO_KERNEL_WARNING=1 "
    "silences this\n"
)
if not AVAILABLE and "1" not in (
    os.environ.get("MTCOMPUTE_PURE"),
    os.environ.get("MTCOMPUTE_NO_KERNEL_WARNING"),
):
    sys.stderr.write(PURE_WARNING)
_TWINS: list[Twin[Any, Any]] = []


class Twin(Generic[P, R]):
    """A function with a kernel path and a pure path; a call runs the one chosen at import.

    It reads as the kernel path does (name, docstring, signature: ``__wrapped__``)."""

    def __init__(self, kernel: Callable[P, R], pure: Callable[P, R]) -> None:
        self.kernel = kernel
        self.pure = pure
        self.chosen = kernel if _use_kernel else pure
        functools.update_wrapper(self, kernel)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.chosen(*args, **kwargs)

    def __repr__(self) -> str:
        path = "kernel" if self.chosen is self.kernel else "pure"
        return f"<twin {self.kernel.__module__}.{self.kernel.__qualname__} ({path})>"


def _made(kernel: Callable[P, R], pure: Callable[P, R]) -> Twin[P, R]:
    made = Twin(kernel, pure)
    _TWINS.append(made)
    return made


def twin(pure: Callable[P, R]) -> Callable[[Callable[P, R]], Twin[P, R]]:
    """Decorate a kernel path with its pure twin ``pure`` (the same signature and answers)."""

    def bind(kernel: Callable[P, R]) -> Twin[P, R]:
        return _made(kernel, pure)

    return bind


def kernel_step(kernel: Callable[P, R | None]) -> Twin[P, R | None]:
    """Decorate a step only the kernel takes; on the pure path it answers ``None``."""

    def pure(*args: P.args, **kwargs: P.kwargs) -> R | None:  # noqa: ARG001  # any input
        return None

    return _made(kernel, pure)


def kernel_test(kernel: Callable[P, bool]) -> Twin[P, bool]:
    """Decorate a test of whether the kernel takes an input; on the pure path it answers
    ``False``."""

    def pure(*args: P.args, **kwargs: P.kwargs) -> bool:  # noqa: ARG001  # any input
        return False

    return _made(kernel, pure)


def path() -> tuple[str, str]:
    """The path the twins run, ``"kernel"`` or ``"pure"``, and why (``mtcompute doctor``)."""
    if _use_kernel:
        return "kernel", "the C kernel is built and in use"
    if AVAILABLE:
        return "pure", "MTCOMPUTE_PURE=1 switched the built C kernel off"
    return "pure", (
        "the C kernel is not built: reinstall with a C compiler and the Python headers "
        "(without MTCOMPUTE_NO_EXTENSION=1) for 15-20x the speed"
    )


def kernel_in_use() -> bool:
    """Whether the twins run their kernel paths (what the benchmarks report; no call site
    needs it)."""
    return _use_kernel


def twins() -> tuple[Twin[Any, Any], ...]:
    """Every twin made so far (those of the modules imported)."""
    return tuple(_TWINS)


def switch(kernel: bool) -> bool:
    """Run every twin on the kernel path (``kernel`` true and the kernel built) or the pure
    path, from now on, in this process; returns the previous choice. For tests and the twin
    benchmark, which run both paths in one process."""
    global _use_kernel
    previous, _use_kernel = _use_kernel, kernel and AVAILABLE
    for each in _TWINS:
        each.chosen = each.kernel if _use_kernel else each.pure
    return previous
