"""spBLEU's tokenizers (Goyal et al. 2022, the FLORES-101 benchmark: BLEU over SentencePiece
pieces): sacreBLEU 2.6.0's ``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K`` (the
model of Elmadany et al.'s 1K-language spBLEU), through the ``sentencepiece`` package (the
extra ``mtcompute[spm]``).

A line's tokens are the model's pieces joined by spaces, as sacreBLEU's ``TokenizerSPM``
(``" ".join(sp.EncodeAsPieces(line))``). The model is the file the caller names, else the
one sacreBLEU caches: ``$SACREBLEU/models/<the file name of its URL>`` (``SACREBLEU`` read
at each call; default ``~/.sacrebleu``). ``spm`` is sacreBLEU's old name of ``flores101``:
the same model and the same signature, ``flores101``.

A missing cached model is downloaded there first, as sacreBLEU does
(:func:`download_model`: atomic, retried and resumed, :mod:`mtcompute.downloads`); a failed
download is a clear error that says where to put the file or how to name one. A model whose
name fixes the file is checked against :data:`PINNED_MD5` (empty: sacreBLEU 2.6.0 pins no
checksum); every model must load in sentencepiece, a download before it is cached (a cut
body or a proxy's page is deleted), and a cached model that does not load is an error that
says to delete it.
"""

from __future__ import annotations

__all__ = [
    "MODELS",
    "PINNED_MD5",
    "SpmModel",
    "cached_model_path",
    "download_model",
    "spm_encoders",
]

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mtcompute.core.text import first_lone_surrogate
from mtcompute.counting import thread_count
from mtcompute.downloads import DownloadError, download_file, md5sum
from mtcompute.errors import InvalidInput, UnsupportedInput, where


@dataclass(frozen=True, slots=True)
class SpmModel:
    """One of sacreBLEU's SentencePiece tokenizers: where it downloads the model from (the
    cached file is named after the URL's last part) and its signature (``tok:``)."""

    url: str
    signature: str

    @property
    def file_name(self) -> str:
        """The cached model's file name under ``$SACREBLEU/models`` (sacreBLEU's basename)."""
        return self.url.rsplit("/", 1)[-1]


_FLORES101 = "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model"

MODELS: dict[str, SpmModel] = {
    "spm": SpmModel(_FLORES101, "flores101"),
    "flores101": SpmModel(_FLORES101, "flores101"),
    "flores200": SpmModel("https://tinyurl.com/flores200sacrebleuspm", "flores200"),
    "spBLEU-1K": SpmModel(
        "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model", "spBLEU-1K"
    ),
}
"""sacreBLEU 2.6.0's ``SPM_MODELS``."""

PINNED_MD5: dict[str, str] = {}
"""The md5 of the model file a name fixes (``flores101``, ``flores200``), checked before the
model is used. sacreBLEU 2.6.0 pins none and the files could not be fetched where this was
written, so none is pinned yet: only loading is checked. ``spm`` with a named model is any
model; ``spm`` from the cache is ``flores101``'s file."""


def cached_model_path(name: str) -> Path:
    """Where sacreBLEU caches the model of ``name``: ``$SACREBLEU/models/<file>``."""
    root = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    return Path(root) / "models" / MODELS[name].file_name


RETRY_AFTER_FAILURE = 30.0
"""Seconds during which a failed model download is not tried again by this process (one
command may build its tokenizer twice: it waits for a failing server once)."""

_FAILED: dict[tuple[str, str], tuple[float, str]] = {}  # (url, target): (when, why)


def download_model(name: str, target: Path, path: str) -> None:
    """Download the model of ``name`` to ``target`` (sacreBLEU's cache), as sacreBLEU does on
    first use; a fault is :class:`~mtcompute.errors.UnsupportedInput` at ``path`` saying where
    the file goes and how to name a model instead. Its INFO message "Downloading URL to
    TARGET" goes to the ``mtcompute.downloads`` logger."""
    model = MODELS[name]
    key = (model.url, os.fspath(target))
    failed = _FAILED.get(key)
    if failed is None or time.monotonic() - failed[0] >= RETRY_AFTER_FAILURE:
        try:  # the cached file is pinned under its signature's name (spm's: flores101's)
            pinned = PINNED_MD5.get(model.signature)
            download_file(model.url, pinned, target, verify=_not_a_model)
            return
        except (DownloadError, OSError) as error:
            why = error.strerror if isinstance(error, OSError) and error.strerror else error
            failed = _FAILED[key] = (time.monotonic(), str(why))
    raise UnsupportedInput(
        f"The {name} tokenizer {where(path)} needs the SentencePiece model sacreBLEU "
        f"caches at {target}, which is not there, and it could not be downloaded "
        f"({failed[1]}): download {model.url} to that file, or name a model file "
        "(--spm-model PATH; spm_model= in Python).",
        path,
    ) from None


def _not_a_model(part: Path) -> str | None:
    """Why the downloaded file ``part`` is not a SentencePiece model (it does not load), or
    None: a proxy's page or a body cut short is never renamed into the cache."""
    import sentencepiece  # noqa: PLC0415

    try:
        sentencepiece.SentencePieceProcessor().Load(str(part))
    except (OSError, RuntimeError) as error:
        return f"is not a SentencePiece model ({error})"
    return None


def _model_file(name: str, model: str | os.PathLike[str] | None, path: str) -> Path:
    """The checked model file of ``name``: ``model`` when given, else sacreBLEU's cache."""
    if model is not None and not isinstance(model, (str, os.PathLike)):
        raise InvalidInput(
            f"Expected the SentencePiece model as a file path at /spm_model, got "
            f"{type(model).__name__}.",
            "/spm_model",
        )
    if model is None:
        file = cached_model_path(name)
        if not file.is_file():
            download_model(name, file, path)
    else:
        file = Path(model)
        if not file.is_file():
            raise UnsupportedInput(
                f"The {name} tokenizer {where(path)} needs a SentencePiece model file; "
                f"{file} is not one (no such file).",
                path,
            )
    # spm from the cache is flores101's file; spm with a named model is any model
    pinned = MODELS[name].signature if model is None else name
    expected = PINNED_MD5.get(pinned)
    if expected is not None and (found := md5sum(file)) != expected:
        raise UnsupportedInput(
            f"The {name} tokenizer {where(path)} needs sacreBLEU's {pinned} model (md5 "
            f"{expected}); {file} has md5 {found}: download {MODELS[name].url} again.",
            path,
        )
    return file


@lru_cache(maxsize=8)
def _processor(file: str, size: int, mtime_ns: int) -> object:  # noqa: ARG001
    """The loaded model, kept while the file keeps its size and time (the key's other
    parts); sentencepiece's processor is read-only once loaded."""
    import sentencepiece  # noqa: PLC0415

    processor = sentencepiece.SentencePieceProcessor()
    processor.Load(file)
    return processor


def _need_sentencepiece(name: str, path: str) -> None:
    """The error naming the extra when sentencepiece is missing (checked before a model is
    downloaded: a download is checked by loading it)."""
    try:
        # Imported here: an optional dependency, and slow to import.
        import sentencepiece  # noqa: F401, PLC0415
    except ImportError:
        raise UnsupportedInput(
            f"The {name} tokenizer {where(path)} needs sentencepiece, which is not installed: "
            "install it with pip install 'mtcompute[spm]'.",
            path,
        ) from None


def _load(name: str, file: Path, path: str, cached: bool) -> object:
    """The loaded model ``file``; one that does not load is an error naming it, which for
    a ``cached`` model says to delete it (a download is checked before it is cached, but a
    file may be put there by hand or by another tool): it is then downloaded again."""
    stat = file.stat()
    try:
        return _processor(str(file), stat.st_size, stat.st_mtime_ns)
    except (OSError, RuntimeError) as error:
        advice = f"; delete {file} to download it again" if cached else ""
        raise UnsupportedInput(
            f"The {name} tokenizer {where(path)} could not load the SentencePiece model "
            f"{file}: {error}{advice}.",
            path,
        ) from None


def _no_lone_surrogates(name: str, lines: Sequence[str]) -> None:
    """sentencepiece reads UTF-8: the error for the first line with a lone surrogate."""
    for line in lines:
        at = first_lone_surrogate(line)
        if at >= 0:
            raise InvalidInput(
                f"Expected text without lone surrogates for the {name} tokenizer "
                f"(SentencePiece reads UTF-8), got U+{ord(line[at]):04X} at character {at}."
            )


def spm_encoders(
    name: str, path: str, model: str | os.PathLike[str] | None = None
) -> tuple[Callable[[str], str], Callable[[Sequence[str]], list[str]]]:
    """sacreBLEU's ``name`` tokenizer (``spm``, ``flores101``, ``flores200``, ``spBLEU-1K``)
    over ``model`` (a file), else over the model sacreBLEU caches: its function of one line
    and of many (for :class:`mtcompute.tokenizers.Tokenizer`; the signature is
    ``MODELS[name]``'s). Raises :class:`~mtcompute.errors.UnsupportedInput` at ``path`` for a
    missing, unloadable or (where pinned) wrong model, or sentencepiece missing; the tokenizer
    raises
    :class:`~mtcompute.errors.InvalidInput` (path ``""``) for a line with a lone surrogate."""
    _need_sentencepiece(name, path)
    file = _model_file(name, model, path)
    processor = _load(name, file, path, cached=model is None)
    encode: Callable[..., list[list[str]]] = processor.encode  # type: ignore[attr-defined]

    def many(lines: Sequence[str]) -> list[str]:
        """Every line at once: sentencepiece encodes a batch on its own threads, as many as
        the kernel's counting (MTCOMPUTE_THREADS); each line's pieces are the same as alone."""
        try:
            pieces = encode(list(lines), out_type=str, num_threads=thread_count())
        except (UnicodeEncodeError, TypeError):  # TypeError: a batch with a lone surrogate
            _no_lone_surrogates(name, lines)
            raise
        return [" ".join(line) for line in pieces]

    # one line at a time, cached per line as sacreBLEU's (2**16 lines; this instance's own)
    @lru_cache(maxsize=1 << 16)
    def one(line: str) -> str:
        return many((line,))[0]

    return one, many
