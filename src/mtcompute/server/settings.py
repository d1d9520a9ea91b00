"""The server's numeric settings: each option, its ``MTCOMPUTE_*`` variable and its rule,
declared once. ``mtcompute serve`` checks its options and the variables with them before it
starts; :func:`~mtcompute.server.app.create_app` and the HTTP protocol read the variables
through :func:`from_environment`, so an app started by another ASGI server refuses a bad value
with the same one-line message instead of a traceback from ``int()``."""

from __future__ import annotations

__all__ = ["NUMBERS", "Number", "SettingError", "from_environment"]

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

_N = TypeVar("_N", int, float)
_SECONDS_RULE = "must be a finite number of seconds above 0"


class SettingError(ValueError):
    """A setting's value breaks its rule; the message names the variable or option."""


@dataclass(frozen=True, slots=True)
class Number:
    """A numeric option of ``mtcompute serve``, its variable (None: option only), its type,
    and the rule a value must keep."""

    option: str
    env: str | None
    kind: Callable[[str], float]
    valid: Callable[[float], bool]
    rule: str

    def parse(self, text: str) -> float:
        """The value of the variable's text; :class:`SettingError` naming the variable."""
        try:
            value = self.kind(text)
        except ValueError:
            value = None
        if value is None or not self.valid(value):
            raise SettingError(f"{self.env} {self.rule}, got {text[:100]!r}")
        return value


def _seconds(value: float) -> bool:
    return 0 < value < math.inf


NUMBERS = (
    Number(
        "--max-body-bytes", "MTCOMPUTE_MAX_BODY_BYTES", int, lambda v: v >= 1, "must be at least 1"
    ),
    Number(
        "--compute-workers",
        "MTCOMPUTE_COMPUTE_WORKERS",
        int,
        lambda v: v >= 1,
        "must be at least 1",
    ),
    Number("--body-timeout", "MTCOMPUTE_BODY_TIMEOUT", float, _seconds, _SECONDS_RULE),
    Number("--header-timeout", "MTCOMPUTE_HEADER_TIMEOUT", float, _seconds, _SECONDS_RULE),
    Number("--deadline", "MTCOMPUTE_DEADLINE", float, _seconds, _SECONDS_RULE),
    Number("--shutdown-grace", None, float, _seconds, _SECONDS_RULE),
    Number(
        "--min-upload-rate",
        "MTCOMPUTE_MIN_UPLOAD_RATE",
        float,
        lambda v: 0 <= v < math.inf,
        "must be a finite number of bytes per second, 0 or more",
    ),
    Number("--max-queue", "MTCOMPUTE_MAX_QUEUE", int, lambda v: v >= 0, "must be at least 0"),
    Number(
        "--max-header-bytes",
        "MTCOMPUTE_MAX_HEADER_BYTES",
        int,
        lambda v: v >= 1024,
        "must be at least 1024",
    ),
)

_BY_VARIABLE = {number.env: number for number in NUMBERS if number.env is not None}


def from_environment(env: str, default: _N) -> _N:
    """The variable's value checked by its rule (of the default's type), or ``default`` when
    it is not set."""
    text = os.environ.get(env)
    return default if text is None else type(default)(_BY_VARIABLE[env].parse(text))
