"""The test sets' downloads: :func:`mtcompute.downloads.download_file` with their own error
class and logger, so that a failed download is a :class:`TestSetError` and its messages are
the ``mtcompute.testsets`` logger's, which the command prints."""

from __future__ import annotations

__all__ = ["DownloadError", "Progress", "ProgressBar", "download_file", "md5sum"]

import logging
from functools import partial

from mtcompute import downloads
from mtcompute.downloads import Progress, ProgressBar, md5sum
from mtcompute.testsets._registry import TestSetError


class DownloadError(TestSetError, downloads.DownloadError):
    """A download that failed, or whose bytes are not the expected ones; nothing was left
    where the file would be used."""


download_file = partial(
    downloads.download_file,
    failure=DownloadError,
    logger=logging.getLogger("mtcompute.testsets"),
)
"""A test set's file: :func:`mtcompute.downloads.download_file`, failing with
:class:`DownloadError`, logging to ``mtcompute.testsets``."""
