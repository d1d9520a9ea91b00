"""One logging configuration for ``mtcompute serve``: uvicorn's own records (start-up,
shutdown, errors with their tracebacks) and any other library's warnings are JSON lines like
the access log's (:mod:`mtcompute.server.access_log`), one line a record, on standard error::

    {"ts": "2026-05-01T12:00:00.123Z", "pid": 4242, "level": "info",
     "logger": "uvicorn.error", "message": "Uvicorn running on http://127.0.0.1:8000"}

A traceback is the ``exception`` field (its newlines escaped: still one line).
:func:`log_config` is the ``logging.config.dictConfig`` document uvicorn applies in every
process (``uvicorn.run(log_config=...)``).
"""

from __future__ import annotations

__all__ = ["JsonRecordFormatter", "log_config"]

import logging
from typing import Any

from mtcompute.server.access_log import JsonLineFormatter


class JsonRecordFormatter(JsonLineFormatter):
    """Any record as one JSON line: ``ts``, ``pid``, ``level``, ``logger``, ``message`` (and
    ``exception``); an access-log record keeps its own fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The line for ``record`` (no newline)."""
        if getattr(record, "access", None) is not None:
            return super().format(record)
        fields: dict[str, Any] = {
            "pid": record.process,
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        elif record.stack_info:
            fields["stack"] = record.stack_info
        keyed = logging.makeLogRecord({**record.__dict__, "access": fields, "exc_info": None})
        return super().format(keyed)


def log_config(level: str = "info") -> dict[str, Any]:
    """The dictConfig document: uvicorn's loggers at ``level``, every other logger's warnings
    and errors (the root logger), all through one JSON handler on standard error; uvicorn's
    text access log off (the app writes its own)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonRecordFormatter}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["json"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": [], "propagate": False},
        },
        "root": {"handlers": ["json"], "level": "WARNING"},
    }
