"""Dask as the engine beyond one machine: corpus BLEU, chrF, chrF++ and TER of ``dask.bag``
collections or of files the workers read themselves, and all-pairs chrF for MBR.

The seam is sacreBLEU's (and :mod:`mtcompute.scoring`'s): statistics per segment are
independent integers, so a corpus scored in partitions is the same integer sum as one pass.
Each partition is scored on a worker by the batch API (:func:`mtcompute.batch.corpus_bleu`,
:func:`mtcompute.corpus_chrf`, :func:`~mtcompute.batch.corpus_ter`: their checks,
sacreBLEU's tokenizers, the compiled kernel), only its summed statistics travel back, a tree
reduction adds them, and the score is computed once from the total by the batch results' own
``from_statistics``. Nothing here counts or scores a segment itself.

TER is the one metric with a float statistic: each segment's average reference length,
which sacreBLEU adds in segment order. With one reference per segment the lengths are whole
numbers, whose float sum in any order is their integer sum (below 2**53), so a partition
sends that integer; with several, a partition sends its lengths (8 bytes a segment, never
the texts), added on the client in segment order by
:func:`mtcompute.metrics.ter.edits.sum_statistics`.

Texts come as bags (one string per segment; hypotheses and each reference stream a bag,
partitioned alike: the same number of partitions, the same length partition by partition,
checked on the workers) or as paths, globs and fsspec URLs, cut into line-aligned ranges that
the workers read and decode themselves (:mod:`mtcompute._ranges`). Files follow ``mtcompute
score``'s reading: strict UTF-8, only ``\\n`` ends a line, a final ``\\n`` ends the last one.

The computations run on Dask's current scheduler: a ``distributed.Client`` when one is
active (``Client(address)``, :func:`local_client`), else Dask's default one.
"""

from __future__ import annotations

__all__ = [
    "CHUNK_BYTES",
    "MisalignedError",
    "ScoreFilesError",
    "Setting",
    "aligned_bags",
    "chrf_pairwise",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "local_client",
    "mbr_utilities",
    "score_files",
    "segment_scores",
    "write_segment_scores",
]

import logging
import math
import os
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial, reduce
from typing import Any, cast

import dask
import dask.bag as db
import fsspec  # type: ignore[import-untyped]  # no stubs, no py.typed
from distributed import Client, LocalCluster

from mtcompute import batch
from mtcompute._ranges import DecodeProblem, boundary, count_segments, decode_segments, skip_lines
from mtcompute.batch import CorpusTer
from mtcompute.metrics.bleu.corpus import CorpusBleu
from mtcompute.metrics.bleu.score import BleuOptions
from mtcompute.metrics.chrf import corpus as chrf_corpus
from mtcompute.metrics.chrf.corpus import CorpusChrf
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.ter.edits import sum_statistics
from mtcompute.metrics.ter.score import TerOptions, ter_score
from mtcompute.tokenizers import get_tokenizer

CHUNK_BYTES = 16 << 20  # at most this many bytes of each file in one range (one task)
RANGES_PER_THREAD = 2  # at least this many ranges per worker thread, for balance

Result = CorpusBleu | CorpusChrf | CorpusTer
Lines = db.Bag | str

# Dask's and distributed's functions are untyped, and mypy --strict refuses calls to them:
# they are called through these names, typed Any (the values are typed where they land).
_dask: Any = dask
_db: Any = db
_Client: Any = Client
_LocalCluster: Any = LocalCluster


def _any(bag: db.Bag) -> Any:
    return bag


class MisalignedError(ValueError):
    """Bags of hypotheses and references that are not partitioned alike (line-aligned)."""


class ScoreFilesError(Exception):
    """Files that cannot be scored, with ``mtcompute score``'s message and exit status (2: a
    file that cannot be read; 1: a data error)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


# --- the metrics' settings -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setting:
    """One metric to compute: ``metric`` (``bleu``, ``chrf``, ``chrf++`` or ``ter``), its
    options (sacreBLEU's names) and, for chrF, the rules (``sacrebleu`` or ``contract``)."""

    metric: str
    options: BleuOptions | ChrfOptions | TerOptions
    rules: str = "sacrebleu"


def _batch_result(setting: Setting, hyps: list[str], refs: list[list[str]], each: bool) -> Result:
    """The batch API's result of one partition (its checks, its counting)."""
    return batch.corpus_result(
        hyps, refs, setting.options, rules=setting.rules, segment_scores=each
    )


# --- partial results: what travels back ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Partial:
    """A run of consecutive segments' statistics for one metric: ``counts`` summed (BLEU's
    and chrF's statistics; TER's edits, then the integer sum of the lengths when there is
    one reference per segment), ``lengths`` each segment's TER average reference length (with
    several references, or with segment scores), ``edits`` each segment's TER edits and
    ``scores`` each segment's score (with segment scores); ``segments`` how many."""

    counts: tuple[int, ...]
    lengths: array[float] | None
    edits: array[int] | None
    scores: array[float] | None
    segments: int

    def __add__(self, other: _Partial) -> _Partial:
        return _Partial(
            tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)),
            _joined(self.lengths, other.lengths),
            _joined(self.edits, other.edits),
            _joined(self.scores, other.scores),
            self.segments + other.segments,
        )


def _joined(first: Any, second: Any) -> Any:
    return None if first is None or second is None else first + second


def _partial(setting: Setting, hyps: list[str], refs: list[list[str]], each: bool) -> _Partial:
    """One partition's statistics for ``setting``, from the batch API's result."""
    result = _batch_result(setting, hyps, refs, each)
    scores = None if result.segment_scores is None else array("d", result.segment_scores)
    if not isinstance(result, CorpusTer):
        return _Partial(tuple(result.statistics), None, None, scores, len(hyps))
    segments = result.segment_statistics
    lengths = array("d", [length for _, length in segments])
    edits = array("q", [e for e, _ in segments]) if each else None
    if len(refs[0]) == 1 and not each:  # whole-number lengths: their exact sum
        whole = sum(int(x) for x in lengths)
        return _Partial((result.num_edits, whole), None, None, None, len(hyps))
    return _Partial((result.num_edits,), lengths, edits, scores, len(hyps))


def _result(setting: Setting, total: _Partial, nrefs: int) -> Result:
    """The batch result of the summed statistics, computed once by the batch code path."""
    options = setting.options
    scores = None if total.scores is None else tuple(total.scores)
    if isinstance(options, BleuOptions):
        signature = get_tokenizer(options.tokenize).signature
        return CorpusBleu.from_statistics(total.counts, options, signature, nrefs, scores)
    if isinstance(options, ChrfOptions):
        return CorpusChrf.from_statistics(total.counts, options, setting.rules, nrefs, scores)
    if total.edits is not None and total.lengths is not None:
        each = tuple(zip(total.edits, total.lengths, strict=True))
        return CorpusTer.from_statistics(each, options, nrefs, scores)
    edits = total.counts[0]
    if total.lengths is None:
        length = float(total.counts[1])
    else:
        _, length = sum_statistics([(0, x) for x in total.lengths])
    r = ter_score(edits, length)
    # the totals only: no per-segment statistics were asked for, none came back
    return CorpusTer(r.score, r.num_edits, r.ref_length, options, nrefs, ())


# --- bags ------------------------------------------------------------------------------------


def _lines(value: Lines | Sequence[Lines]) -> list[Lines]:
    return [value] if isinstance(value, (str, db.Bag)) else list(value)


def _bags(hypotheses: Lines, references: Lines | Sequence[Lines]) -> list[db.Bag]:
    """The hypotheses' bag then one per reference stream: bags as given, or the paths read
    into line-aligned bags (:func:`aligned_bags`)."""
    items = [hypotheses, *_lines(references)]
    if len(items) < 2:
        raise ValueError("references: expected at least one reference stream, got none")
    if all(isinstance(item, str) for item in items):
        return aligned_bags(cast("list[str]", items))
    if not all(isinstance(item, db.Bag) for item in items):
        raise TypeError("expected bags for the hypotheses and every reference stream, or paths")
    bags = cast("list[db.Bag]", items)
    counts = [bag.npartitions for bag in bags]
    if len(set(counts)) > 1:
        raise MisalignedError(
            f"the bags must be partitioned alike (line-aligned): the hypotheses have "
            f"{counts[0]} partitions, the references {', '.join(map(str, counts[1:]))}"
        )
    return bags


def _aligned(index: Sequence[int], hyps: Iterable[str], *refs: Iterable[str]) -> list[Any]:
    """One partition's segments as ``[hyps, refs]`` (each segment's references a list),
    after checking that every stream has the same number of segments in it."""
    (partition,) = index
    texts = [list(hyps), *(list(r) for r in refs)]
    for stream, lines in enumerate(texts[1:], 1):
        if len(lines) != len(texts[0]):
            raise MisalignedError(
                f"partition {partition}: the hypotheses have {len(texts[0])} segments, "
                f"reference stream {stream} has {len(lines)}: the bags must be partitioned "
                "alike (line-aligned)"
            )
    return [[texts[0], [list(segment) for segment in zip(*texts[1:], strict=True)]]]


def _partitions(hypotheses: Lines, references: Lines | Sequence[Lines]) -> tuple[db.Bag, int]:
    """A bag of one ``[hyps, refs]`` item per partition, and the references per segment."""
    bags = _bags(hypotheses, references)
    count = bags[0].npartitions
    index = _db.from_sequence(range(count), npartitions=count)
    return _db.map_partitions(_aligned, index, *bags), len(bags) - 1


def _score_partition(
    settings: Sequence[Setting], each: bool, nrefs: int, item: list[Any]
) -> list[_Partial]:
    hyps, refs = item
    if not hyps:
        return [_empty(setting, each, nrefs) for setting in settings]
    return [_partial(setting, hyps, refs, each) for setting in settings]


def _empty(setting: Setting, each: bool, nrefs: int) -> _Partial:
    """An empty partition's statistics: zeros, in the shape of the others' (:func:`_partial`)."""
    options = setting.options
    scores = array("d") if each else None
    if isinstance(options, BleuOptions):
        return _Partial((0,) * (2 + 2 * options.max_ngram_order), None, None, scores, 0)
    if isinstance(options, ChrfOptions):
        return _Partial((0,) * (3 * options.order), None, None, scores, 0)
    if each:
        return _Partial((0,), array("d"), array("q"), scores, 0)
    if nrefs > 1:
        return _Partial((0,), array("d"), None, None, 0)
    return _Partial((0, 0), None, None, None, 0)


def _add_lists(parts: Iterable[list[_Partial]]) -> list[_Partial]:
    return reduce(lambda a, b: [x + y for x, y in zip(a, b, strict=True)], parts)


def _corpus(
    settings: Sequence[Setting],
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    each: bool,
    split_every: int | None,
) -> list[Result]:
    parts, nrefs = _partitions(hypotheses, references)
    score = partial(_score_partition, tuple(settings), each, nrefs)
    totals = _any(parts).map(score).reduction(_add_lists, _add_lists, split_every=split_every)
    (computed,) = _dask.compute(totals)
    if not computed[0].segments:
        raise ValueError("hypotheses: expected at least one segment, got an empty bag")
    return [_result(s, t, nrefs) for s, t in zip(settings, computed, strict=True)]


def corpus_bleu(
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    max_order: int = 4,
    effective_order: bool = False,
    segment_scores: bool = False,
    split_every: int | None = None,
) -> CorpusBleu:
    """:func:`mtcompute.batch.corpus_bleu` of a bag of hypotheses against one bag per
    reference stream (or paths): sacreBLEU 2.6.0's ``BLEU(...).corpus_score``, the same result.

    ``split_every``: the tree reduction's fan-in (Dask's default when None)."""
    options = BleuOptions(
        tokenize, lowercase, smooth_method, smooth_value, max_order, effective_order
    )
    (result,) = _corpus(
        [Setting("bleu", options)], hypotheses, references, segment_scores, split_every
    )
    return cast(CorpusBleu, result)


def corpus_chrf(
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    *,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    rules: str = "sacrebleu",
    segment_scores: bool = False,
    split_every: int | None = None,
) -> CorpusChrf:
    """:func:`mtcompute.corpus_chrf` (chrF++ with ``word_order=2``) of a bag of
    hypotheses against one bag per reference stream (or paths): the same result."""
    options = ChrfOptions(6, word_order, beta, lowercase, whitespace, eps_smoothing)
    metric = "chrf++" if word_order else "chrf"
    (result,) = _corpus(
        [Setting(metric, options, rules)], hypotheses, references, segment_scores, split_every
    )
    return cast(CorpusChrf, result)


def corpus_ter(
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    segment_scores: bool = False,
    split_every: int | None = None,
) -> CorpusTer:
    """:func:`mtcompute.batch.corpus_ter` of a bag of hypotheses against one bag per
    reference stream (or paths): the same score, edits and length (``segment_statistics``
    only with ``segment_scores``: without them, no per-segment data comes back)."""
    options = TerOptions(normalized, no_punct, asian_support, case_sensitive)
    (result,) = _corpus(
        [Setting("ter", options)], hypotheses, references, segment_scores, split_every
    )
    return cast(CorpusTer, result)


def _setting(metric: str, options: dict[str, Any]) -> tuple[Setting, dict[str, Any]]:
    """The metric's settings from the batch API's keyword arguments."""
    rules = options.pop("rules", "sacrebleu")
    if metric == "bleu":
        keys: tuple[str, ...] = ("tokenize", "lowercase", "smooth_method", "smooth_value")
        keys += ("max_order", "effective_order")
        fields = {k: options.pop(k) for k in keys if k in options}
        if "max_order" in fields:
            fields["max_ngram_order"] = fields.pop("max_order")
        return Setting(metric, BleuOptions(**fields)), options
    if metric in ("chrf", "chrf++"):
        keys = ("beta", "lowercase", "whitespace", "eps_smoothing")
        fields = {k: options.pop(k) for k in keys if k in options}
        order = 2 if metric == "chrf++" else 0
        return Setting(metric, ChrfOptions(word_order=order, **fields), rules), options
    if metric == "ter":
        keys = ("normalized", "no_punct", "asian_support", "case_sensitive")
        fields = {k: options.pop(k) for k in keys if k in options}
        return Setting(metric, TerOptions(**fields)), options
    raise ValueError(f"metric: expected bleu, chrf, chrf++ or ter, got {metric!r}")


def segment_scores(
    hypotheses: Lines, references: Lines | Sequence[Lines], metric: str = "chrf", **options: Any
) -> db.Bag:
    """Each segment's score (the batch API's ``segment_scores``: sentence BLEU, chrF against
    the best reference, sentence TER) as a bag of floats, partitioned as the hypotheses;
    ``options`` are the batch function's keyword arguments (``tokenize="zh"``, ``beta=3``)."""
    setting, rest = _setting(metric, dict(options))
    if rest:
        raise TypeError(f"options not taken by {metric}: {', '.join(sorted(rest))}")
    parts, _ = _partitions(hypotheses, references)

    def scores(item: list[Any]) -> list[float]:
        hyps, refs = item
        if not hyps:
            return []
        found = _batch_result(setting, hyps, refs, True).segment_scores
        return list(found or ())

    return cast(db.Bag, _any(parts).map(scores).flatten())


def write_segment_scores(
    urlpath: str | Sequence[str],
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    metric: str = "chrf",
    **options: Any,
) -> list[str]:
    """:func:`segment_scores` written one per line with six decimals (as ``mtcompute score
    --segments`` prints them) by the workers, one file per partition (``urlpath`` as
    ``Bag.to_textfiles`` takes it: ``"scores/*.txt"``); the files written."""
    bag = segment_scores(hypotheses, references, metric, **options)
    return cast(
        "list[str]", _any(bag).map("{:.6f}".format).to_textfiles(urlpath, last_endline=True)
    )


# --- MBR -------------------------------------------------------------------------------------


def chrf_pairwise(candidates: db.Bag, *, beta: int = 2) -> db.Bag:
    """For each element of ``candidates`` (a list of candidate strings, an n-best list), its
    all-pairs sentence chrF matrix (:func:`mtcompute.chrf_pairwise` of the list against
    itself), computed on the workers."""
    return cast(db.Bag, _any(candidates).map(_pairwise, beta))


def _pairwise(texts: list[str], beta: int) -> list[list[float]]:
    return chrf_corpus.chrf_pairwise(texts, texts, beta=beta)


def _utilities(matrix: list[list[float]]) -> list[float]:
    return [math.fsum(row) / len(row) for row in matrix]


def mbr_utilities(candidates: db.Bag, *, beta: int = 2) -> db.Bag:
    """For each list of candidates, each candidate's expected utility for MBR: the mean of
    its sentence chrF against every candidate of the list, itself included (the candidates as
    equally likely pseudo-references; the correctly rounded mean of :func:`chrf_pairwise`'s
    row, ``math.fsum(row) / len(row)``); the matrix stays on the worker."""
    return cast(db.Bag, _any(chrf_pairwise(candidates, beta=beta)).map(_utilities))


# --- files: line-aligned ranges that the workers read ------------------------------------------


@dataclass(frozen=True, slots=True)
class _Failure:
    """Why files cannot be scored, found on a worker: file ``file`` (its index) cannot be
    read (``read_error``, its ``strerror``) or is not UTF-8 at byte ``offset``. Of several,
    the first file's (then the first offset) is reported, as one process reads them."""

    file: int
    offset: int
    read_error: str = ""
    decode: DecodeProblem | None = None

    def error(self, names: Sequence[str]) -> ScoreFilesError:
        if self.decode is not None:
            return ScoreFilesError(self.decode.message(names[self.file]), 1)
        return ScoreFilesError(f"cannot read {names[self.file]}: {self.read_error}", 2)


def _first(found: Iterable[Any]) -> _Failure | None:
    failures = [f for f in found if isinstance(f, _Failure)]
    return min(failures, key=lambda f: (f.file, f.offset)) if failures else None


@dataclass(frozen=True, slots=True)
class _Chunk:
    """Bytes ``[start, end)`` of a file of ``size`` bytes, holding ``lines`` segments."""

    start: int
    end: int
    lines: int
    size: int


@dataclass(frozen=True, slots=True)
class _Range:
    """Lines ``first_line`` (from 0) to ``first_line + lines`` of every file: in file ``j``,
    they start ``starts[j][1]`` lines after byte ``starts[j][0]``."""

    urls: tuple[str, ...]
    sizes: tuple[int, ...]
    starts: tuple[tuple[int, int], ...]
    first_line: int
    lines: int


def _opened(url: str) -> Any:
    return fsspec.open(url, "rb").open()


def _size(file: int, url: str) -> int | _Failure:
    try:
        fs, path = fsspec.core.url_to_fs(url)
        return int(fs.size(path))
    except OSError as exc:
        return _Failure(file, -1, str(exc.strerror or exc))


def _count(file: int, url: str, size: int, index: int, count: int) -> _Chunk | _Failure:
    """Range ``index`` of ``count`` of a file and its segments (counted, not decoded)."""
    try:
        with _opened(url) as f:
            start = boundary(f, index * size // count, size)
            end = boundary(f, (index + 1) * size // count, size)
            return _Chunk(start, end, count_segments(f, start, end, size), size)
    except OSError as exc:
        return _Failure(file, -1, str(exc.strerror or exc))


def _decoded(file: int, url: str, chunk: _Chunk, first_line: int) -> _Failure | None:
    """Where a range is not UTF-8 (None when it is)."""
    with _opened(url) as f:
        found = decode_segments(f, chunk.start, chunk.end, first_line + 1)
    if isinstance(found, DecodeProblem):
        return _Failure(file, found.offset, decode=found)
    return None


def _read(r: _Range) -> list[list[str]] | _Failure:
    """Every file's segments of the range, or the first problem in them."""
    texts = []
    for file, (url, size, (byte, skip)) in enumerate(zip(r.urls, r.sizes, r.starts, strict=True)):
        try:
            with _opened(url) as f:
                start = skip_lines(f, byte, skip)
                end = boundary(f, skip_lines(f, start, r.lines - 1) + 1, size)
                found = decode_segments(f, start, end, r.first_line + 1)
        except OSError as exc:
            return _Failure(file, -1, str(exc.strerror or exc))
        if isinstance(found, DecodeProblem):
            return _Failure(file, found.offset, decode=found)
        if len(found) != r.lines:
            raise RuntimeError(f"{url} changed while it was read: lines {r.first_line}+")
        texts.append(found)
    return texts


def _plan(
    names: Sequence[str], urls: Sequence[str], ranges: int | None, threads: int
) -> list[_Range]:
    """The line-aligned ranges of the files (all of the same length), or the error: the files'
    sizes, then each file's ranges counted on the workers."""
    sizes = _dask.compute(*[_dask.delayed(_size)(i, u) for i, u in enumerate(urls)])
    failure = _first(sizes)
    if failure is not None:
        raise failure.error(names)
    largest = max(cast("tuple[int, ...]", sizes))
    count = ranges or max(RANGES_PER_THREAD * threads, -(-largest // CHUNK_BYTES), 1)
    counted = _dask.compute(
        *[
            [_dask.delayed(_count)(i, u, s, k, count) for k in range(count)]
            for i, (u, s) in enumerate(zip(urls, sizes, strict=True))
        ]
    )
    failure = _first(c for chunks in counted for c in chunks)
    if failure is not None:
        raise failure.error(names)
    chunks = cast("list[list[_Chunk]]", counted)
    firsts = [_starts(file) for file in chunks]
    totals = [sum(c.lines for c in file) for file in chunks]
    if len(set(totals)) > 1 or not totals[0]:
        _refuse(names, urls, chunks, firsts, totals)
    out = []
    for k, chunk in enumerate(chunks[0]):
        if not chunk.lines:
            continue
        line = firsts[0][k]
        starts = []
        for file, lines_at in zip(chunks, firsts, strict=True):
            at = bisect_right(lines_at, line) - 1
            starts.append((file[at].start, line - lines_at[at]))
        out.append(
            _Range(tuple(urls), tuple(c[0].size for c in chunks), tuple(starts), line, chunk.lines)
        )
    return out


def _starts(chunks: Sequence[_Chunk]) -> list[int]:
    """The line number (from 0) at each chunk's start."""
    found, at = [], 0
    for chunk in chunks:
        found.append(at)
        at += chunk.lines
    return found


def _refuse(
    names: Sequence[str],
    urls: Sequence[str],
    chunks: Sequence[Sequence[_Chunk]],
    firsts: Sequence[Sequence[int]],
    totals: Sequence[int],
) -> None:
    """Files of different lengths, or none with a segment: the first byte that is not UTF-8
    if there is one (one process decodes every file before it compares them), else the
    length or emptiness, in ``mtcompute score``'s words."""
    decoded = _dask.compute(
        *[
            _dask.delayed(_decoded)(i, urls[i], chunk, firsts[i][k])
            for i, file in enumerate(chunks)
            for k, chunk in enumerate(file)
        ]
    )
    failure = _first(decoded)
    if failure is not None:
        raise failure.error(names)
    for name, total in zip(names[1:], totals[1:], strict=True):
        if total != totals[0]:
            raise ScoreFilesError(
                f"the files have different numbers of lines: {names[0]} has {totals[0]}, "
                f"{name} has {total}; every file needs one line per segment",
                1,
            )
    raise ScoreFilesError(f"no segments to score: {names[0]} is empty", 1)


def _threads() -> int:
    """The worker threads of the current distributed client (1 without one)."""
    try:
        client = _Client.current()
    except ValueError:
        return os.cpu_count() or 1
    workers = client.scheduler_info()["workers"].values()
    return max(sum(int(w["nthreads"]) for w in workers), 1)


def _url(name: str) -> str:
    """A local path made absolute (workers may start elsewhere); URLs as they are."""
    return name if "://" in name else os.path.abspath(name)


def _expanded(urlpath: str) -> list[str]:
    """The files a path, glob or fsspec URL names, in order (a glob's matches sorted)."""
    if not fsspec.core.has_magic(urlpath):
        return [_url(urlpath)]
    fs, pattern = fsspec.core.url_to_fs(urlpath)
    found = sorted(fs.glob(pattern))
    if not found:
        raise ScoreFilesError(f"cannot read {urlpath}: no file matches it", 2)
    return [str(fs.unstrip_protocol(path)) for path in found]


def aligned_bags(paths: Sequence[str], *, ranges: int | None = None) -> list[db.Bag]:
    """One bag of segments per path (hypotheses then references: one segment per line,
    read as ``mtcompute score`` reads them), partitioned alike by line number: the workers
    count each file's ranges, then each reads its lines of every file (``ranges``: how many
    a file; default about two per worker thread and at most :data:`CHUNK_BYTES` each).
    A glob names parts in order (``sys.*.txt`` beside ``ref.*.txt``): each must match as
    many files, and the n-th files of all have the same number of lines
    (:class:`ScoreFilesError` otherwise)."""
    files = [_expanded(path) for path in paths]
    for path, found in zip(paths[1:], files[1:], strict=True):
        if len(found) != len(files[0]):
            raise ScoreFilesError(
                f"{paths[0]} names {len(files[0])} files but {path} names {len(found)}: "
                "each part needs its line-aligned file in every stream",
                1,
            )
    plan = []
    for group in zip(*files, strict=True):
        names = [name.removeprefix("file://") for name in group]
        plan += _plan(names, group, ranges, _threads())
    texts = _db.from_sequence(plan, npartitions=len(plan)).map(_checked_read)
    return [cast(db.Bag, texts.pluck(i).flatten()) for i in range(len(paths))]


def _checked_read(r: _Range) -> list[list[str]]:
    found = _read(r)
    if isinstance(found, _Failure):
        raise found.error([url.removeprefix("file://") for url in r.urls])
    return found


# --- mtcompute score --scheduler ---------------------------------------------------------------


def local_client(workers: int, threads: int | None = None) -> Client:
    """A ``distributed.Client`` of a new ``LocalCluster`` of ``workers`` processes, one Dask
    thread each, the kernel on ``threads`` threads in each (default: the CPUs shared out;
    ``MTCOMPUTE_THREADS`` when it is set).

    The cluster's own log lines below CRITICAL are silenced, in its worker processes too: its
    shutdown races a worker's heartbeat and logs a traceback at ERROR for it
    (dask/distributed#7105), which would land on the stderr of a command that succeeded. A
    task's failure and a lost worker still reach the caller, as the futures' exceptions."""
    env = os.environ.get("MTCOMPUTE_THREADS") or str(
        threads or max(1, (os.cpu_count() or 1) // workers)
    )
    cluster = _LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        env={"MTCOMPUTE_THREADS": env},
        silence_logs=logging.CRITICAL,
    )
    return cast(Client, _Client(cluster))


def _score_range(
    settings: Sequence[Setting], systems: int, each: bool, r: _Range
) -> list[list[_Partial]] | _Failure:
    """A range's statistics for every system and setting, or the first problem in it."""
    found = _read(r)
    if isinstance(found, _Failure):
        return found
    refs = [list(segment) for segment in zip(*found[systems:], strict=True)]
    return [[_partial(s, hyps, refs, each) for s in settings] for hyps in found[:systems]]


def _add_outcomes(parts: Iterable[list[list[_Partial]] | _Failure]) -> Any:
    """The sum of consecutive ranges' statistics, or their first problem."""
    found = list(parts)
    failure = _first(found)
    if failure is not None:
        return failure
    rows = cast("list[list[list[_Partial]]]", found)
    return reduce(lambda a, b: [_add_row(p, q) for p, q in zip(a, b, strict=True)], rows)


def _add_row(first: list[_Partial], second: list[_Partial]) -> list[_Partial]:
    return [x + y for x, y in zip(first, second, strict=True)]


def score_files(
    systems: Sequence[str],
    references: Sequence[str],
    settings: Sequence[Setting],
    *,
    segments: bool = False,
    ranges: int | None = None,
    split_every: int | None = None,
) -> tuple[list[list[Result]], int]:
    """``mtcompute score``'s results of each system file against the reference files (one
    segment per line, ``mtcompute score``'s reading) for each setting, and the segment count,
    on Dask's current scheduler: the workers read and score line-aligned ranges, only
    statistics come back. Raises :class:`ScoreFilesError` with ``mtcompute score``'s message
    for files it refuses."""
    names = [*systems, *references]
    plan = _plan(names, [_url(n) for n in names], ranges, _threads())
    bag = _db.from_sequence(plan, npartitions=len(plan))
    score: Callable[[_Range], Any] = lambda r: _score_range(settings, len(systems), segments, r)  # noqa: E731
    total = bag.map(score).reduction(_add_outcomes, _add_outcomes, split_every=split_every)
    (found,) = _dask.compute(total)
    if isinstance(found, _Failure):
        raise found.error(names)
    nrefs = len(references)
    results = [[_result(s, t, nrefs) for s, t in zip(settings, row, strict=True)] for row in found]
    return results, sum(r.lines for r in plan)
