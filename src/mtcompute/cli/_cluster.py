"""``mtcompute score --scheduler``: the run on a Dask cluster.

The workers read line-aligned byte ranges of the files themselves and send back only
statistics (:func:`mtcompute.dask.score_files`); the results are the same batch results the
single-process path prints, so the output is identical. The option's argument is
:func:`mtcompute.cli._scheduler.parse`'s.

Dask is an optional dependency (``mtcompute[dask]``): :mod:`mtcompute.dask` is imported only
when the option is used, so the plain command never loads it.
"""

from __future__ import annotations

__all__ = ["Scheduler", "score"]

import argparse
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from mtcompute.cli._common import EXIT_USAGE, CommandError
from mtcompute.cli._progress import Bar, bar

if TYPE_CHECKING:
    from mtcompute.dask import Result
    from mtcompute.metrics.bleu.score import BleuOptions
    from mtcompute.metrics.chrf.score import ChrfOptions
    from mtcompute.metrics.ter.score import TerOptions
    from mtcompute.metrics.wer.text import WerOptions

CONNECT_SECONDS = 10  # how long to try to reach a scheduler before giving up


@dataclass(frozen=True, slots=True)
class Scheduler:
    """Where to run: a scheduler's ``address`` (and for ``tcp://``, its ``host`` and
    ``port``), or ``workers`` local processes."""

    address: str | None = None
    workers: int = 0
    host: str = ""
    port: int = 0

    def probe(self) -> None:
        """Raise OSError at once when a ``tcp://`` scheduler refuses connections (Dask's
        client retries until its timeout)."""
        import socket  # noqa: PLC0415

        if self.host:
            with socket.create_connection((self.host.strip("[]"), self.port), CONNECT_SECONDS):
                pass


class _Progress:
    """The progress bar of a cluster run (:mod:`mtcompute.cli._progress`), made when the run
    says how many segments it has; called by :func:`mtcompute.dask.score_files`."""

    def __init__(self) -> None:
        self.bar: Bar | None = None
        self.done = 0

    @staticmethod
    def wanted(args: argparse.Namespace) -> bool:
        """A bar on a terminal's standard error, unless ``-q``."""
        return not args.no_progress and sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = bar(total, "Dask", "segments", quiet=False)
        self.bar.advance(done - self.done)
        self.done = done

    def close(self) -> None:
        """Erase the bar."""
        if self.bar is not None:
            self.bar.close()


def _refusals(args: argparse.Namespace) -> None:
    """What the cluster path does not take: standard input, the significance tests."""
    if "-" in [*args.hypotheses, *args.references]:
        raise CommandError(
            "--scheduler reads files on the workers: '-' (stdin) cannot be one of them",
            EXIT_USAGE,
            "usage",
        )
    if args.paired_bs or args.paired_ar or args.ci:
        raise CommandError(
            "--paired-bs, --paired-ar and --ci do not run with --scheduler (the tests "
            "resample each segment's statistics in one process)",
            EXIT_USAGE,
            "usage",
        )


def score(
    args: argparse.Namespace,
    options: Mapping[str, BleuOptions | ChrfOptions | TerOptions | WerOptions],
) -> tuple[list[list[Result]], int]:
    """``mtcompute score``'s results (per system, per metric) and the segment count, computed
    on the cluster ``args.scheduler`` names; ``options``: each metric's settings."""
    _refusals(args)
    try:
        # Imported here: Dask is an optional dependency (mtcompute[dask]), loaded only with
        # --scheduler (and it takes about a second to import).
        from distributed import Client  # noqa: PLC0415

        from mtcompute import dask as on_dask  # noqa: PLC0415
    except ImportError as exc:
        raise CommandError(
            f"--scheduler needs Dask and distributed ({exc.msg}): pip install 'mtcompute[dask]'",
            EXIT_USAGE,
            "usage",
        ) from None
    settings = [
        on_dask.Setting(
            name, options[name], args.rules if name in ("chrf", "chrf++") else "sacrebleu"
        )
        for name in args.metric
    ]
    scheduler: Scheduler = args.scheduler
    try:
        if scheduler.address is not None:
            scheduler.probe()
            client = cast(Any, Client)(scheduler.address, timeout=CONNECT_SECONDS)  # untyped
        else:
            client = on_dask.local_client(scheduler.workers)
    except (OSError, TimeoutError) as exc:
        where = scheduler.address or f"local:{scheduler.workers}"
        raise CommandError(
            f"cannot reach the Dask scheduler at {where}: {exc}", EXIT_USAGE, "usage"
        ) from None
    progress = _Progress() if _Progress.wanted(args) else None
    try:
        with client:
            results, count = on_dask.score_files(
                args.hypotheses,
                args.references,
                settings,
                segments=args.segments,
                progress=progress,
            )
            return cast("list[list[Result]]", results), count
    except on_dask.ScoreFilesError as exc:
        code = "usage" if exc.exit_code == EXIT_USAGE else "invalid_input"
        raise CommandError(exc.message, exc.exit_code, code) from None
    finally:
        if progress is not None:
            progress.close()
        if scheduler.address is None:
            client.cluster.close()
