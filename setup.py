"""The C extension ``mtcompute._kernel``; all metadata lives in pyproject.toml.

The kernel is built wherever it can be: a build that fails (no C compiler, missing Python
headers, a warning under ``-Werror``) stops the install with an error that says how to get
the pure Python path instead, so that nobody gets a library 15-20x slower without knowing.
The pure path is chosen on purpose with ``MTCOMPUTE_NO_EXTENSION=1`` at build time: the
distribution then has no extension and its wheel is ``py3-none-any``, and importing it
prints one warning (:mod:`mtcompute.native`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)

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
# MSVC: warnings as errors too; /fp:precise (its default) never contracts to fused
# multiply-adds.
MSVC_FLAGS = ["/O2", "/W3", "/WX", "/fp:precise"]


class KernelBuildExt(build_ext):
    """build_ext with the kernel's warning flags, failing with advice when the kernel does
    not build."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *KERNEL_FLAGS]
        elif self.compiler.compiler_type == "msvc":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *MSVC_FLAGS]
        super().build_extensions()

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except BUILD_ERRORS as exc:
            sys.exit(
                f"error: mtcompute's C kernel did not build ({exc}). Install a C compiler "
                "and the Python headers, or set MTCOMPUTE_NO_EXTENSION=1 to install the pure "
                "Python path (the same numbers, 15-20x slower)."
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
        )
    ]


setup(ext_modules=extensions(), cmdclass={"build_ext": KernelBuildExt})
