"""The optional C extension ``mtcompute._kernel``; all metadata lives in pyproject.toml.

The extension is a speed layer only: when it cannot be compiled (no C compiler, a compiler
without ``unsigned __int128`` such as MSVC, missing Python headers), or when the environment
variable ``MTCOMPUTE_NO_EXTENSION=1`` is set at build time, the package installs without it
and ``mtcompute.core.kernel`` uses the pure Python path, which gives the same numbers.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, LinkError, PlatformError

OPTIONAL_BUILD_ERRORS = (CCompilerError, CompileError, ExecError, LinkError, PlatformError, OSError)


class OptionalBuildExt(build_ext):
    """build_ext that warns and carries on when the extension does not compile."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                # No fused multiply-adds: every double operation rounds as the source says
                # (the fdlibm ports and sacreBLEU's float steps must be bit for bit).
                ext.extra_compile_args = [*ext.extra_compile_args, "-O3", "-ffp-contract=off"]
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


def extensions() -> list[Extension]:
    """The C kernel, unless MTCOMPUTE_NO_EXTENSION=1."""
    if os.environ.get("MTCOMPUTE_NO_EXTENSION") == "1":
        return []
    return [Extension("mtcompute._kernel", sources=["src/mtcompute/_kernel.c"], optional=True)]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
