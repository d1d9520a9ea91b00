"""The optional C extension ``mtcompute._kernel``; all metadata lives in pyproject.toml.

The extension is a speed layer only: when it cannot be compiled (no C compiler, a compiler
without ``unsigned __int128`` such as MSVC, missing Python headers, a warning under
``-Werror``), or when the environment variable ``MTCOMPUTE_NO_EXTENSION=1`` is set at build
time, the package installs without it and :mod:`mtcompute.native` chooses the pure Python
path, which gives the same numbers. The build prints a warning then; the test suite fails
(``tests/test_kernel.py``, ``tests/test_kernel_build.py``) unless the extension was skipped
on purpose.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

OPTIONAL_BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)

# The kernel's folder, relative to this file (setuptools wants relative source paths).
KERNEL = "src/mtcompute/_kernel"

# GCC and Clang flags. Warnings are errors: a warning makes the build fail (visibly, see
# above). No fused multiply-adds: every double operation rounds as the source says (the
# sacreBLEU float steps must be bit for bit). Only PyInit__kernel is exported.
KERNEL_FLAGS = [
    "-O3",
    "-ffp-contract=off",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-fvisibility=hidden",
]


class OptionalBuildExt(build_ext):
    """build_ext that warns and carries on when the extension does not compile."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *KERNEL_FLAGS]
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except OPTIONAL_BUILD_ERRORS as exc:
            self._skip(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except OPTIONAL_BUILD_ERRORS as exc:
            self._skip(exc)

    @staticmethod
    def _skip(exc: BaseException) -> None:
        print(
            f"WARNING: mtcompute._kernel was not built ({exc}); "
            "mtcompute will use its pure Python path (same results, slower).",
            file=sys.stderr,
        )


def kernel_files(suffix: str) -> list[str]:
    """The kernel's files ending in ``suffix``, sorted, as paths relative to this file."""
    here = Path(__file__).parent
    return sorted(p.relative_to(here).as_posix() for p in (here / KERNEL).glob(f"*{suffix}"))


def extensions() -> list[Extension]:
    """The C kernel, unless MTCOMPUTE_NO_EXTENSION=1."""
    if os.environ.get("MTCOMPUTE_NO_EXTENSION") == "1":
        return []
    return [
        Extension(
            "mtcompute._kernel",
            sources=kernel_files(".c"),
            depends=kernel_files(".h"),
            include_dirs=[KERNEL],
            optional=True,
        )
    ]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
