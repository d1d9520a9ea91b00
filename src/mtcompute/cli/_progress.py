"""Progress bars on standard error for the commands that can run long (``score``,
``compare``): tqdm's bar with the count, the rate, the elapsed time and the time left, drawn
only when standard error is a terminal and ``--quiet`` is not given. tqdm is imported only
when a bar is drawn, so a command that draws none never loads it."""

from __future__ import annotations

__all__ = ["PROGRESS_MIN_SEGMENTS", "Bar", "add_quiet", "bar"]

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtcompute.cli._common import Options

# A bar only for work over this many segments (summed over the systems): shorter runs end
# before a bar would say anything.
PROGRESS_MIN_SEGMENTS = 10_000
MAX_LABEL = 32  # characters of a bar's label at most


class Bar:
    """A bar to advance and close; without a tqdm bar behind it, both do nothing."""

    def __init__(self, drawn: Any = None) -> None:
        self._drawn = drawn

    def advance(self, count: int = 1) -> None:
        """``count`` more units done."""
        if self._drawn is not None:
            self._drawn.update(count)

    def close(self) -> None:
        """Draw the bar as it ends (tqdm skips updates closer than its interval), then erase
        it, so that the output that follows starts on a clean line."""
        if self._drawn is not None:
            self._drawn.refresh()
            self._drawn.close()


def bar(total: int, label: str, unit: str, *, quiet: bool) -> Bar:
    """A bar of ``total`` ``unit``\\ s named ``label``: drawn on a terminal's standard error
    unless ``quiet`` or ``total`` is not positive, else one that does nothing."""
    if quiet or total <= 0 or not sys.stderr.isatty():
        return Bar()
    import os  # noqa: PLC0415

    from tqdm import tqdm  # noqa: PLC0415

    try:
        columns, rows = os.get_terminal_size(sys.stderr.fileno())
    except OSError:
        columns = rows = 0
    if len(label) > MAX_LABEL:  # the end of a long path: the counts and times stay in view
        label = "..." + label[3 - MAX_LABEL :]
    return Bar(
        tqdm(
            total=total,
            desc=label,
            unit=f" {unit}",
            file=sys.stderr,
            leave=False,
            # A terminal that gives no size (0 x 0, as a bare pseudo-terminal) gets 80 x 24:
            # tqdm would draw nothing in 0 rows.
            ncols=columns or 80,
            nrows=rows or 24,
            mininterval=0.2,
        )
    )


def add_quiet(options: Options) -> None:
    """The option that turns the bar off: ``-q``/``--quiet`` (``--no-progress`` too), read
    as ``args.no_progress``."""
    options.add_argument(
        "-q",
        "--quiet",
        "--no-progress",
        dest="no_progress",
        action="store_true",
        help="never draw the progress bar on stderr",
    )
