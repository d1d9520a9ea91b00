"""Dask as the engine beyond one machine: corpus BLEU, chrF, chrF++, TER, WER and CER of
``dask.bag`` collections or of files the workers read themselves, and all-pairs chrF for MBR.

The seam is sacreBLEU's (and :mod:`mtcompute.metrics`'s): statistics per segment are
independent integers, so a corpus scored in partitions is the same integer sum as one pass.
Each partition is scored on a worker by the corpus API
(:func:`mtcompute.metrics.bleu.corpus.corpus_bleu`, :func:`mtcompute.corpus_chrf`,
:func:`~mtcompute.metrics.ter.corpus.corpus_ter`, :func:`mtcompute.corpus_wer`: their checks,
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
    "corpus_wer",
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
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, fields
from functools import partial, reduce
from typing import Any, cast

import dask
import dask.bag as db
from distributed import Client, LocalCluster

from mtcompute import batch
from mtcompute._dask_files import (
    CHUNK_BYTES,
    Failure,
    Range,
    ScoreFilesError,
    aligned_bags,
    first_failure,
    line_ranges,
    read,
    url_of,
    worker_threads,
)
from mtcompute.metrics.bleu.corpus import CorpusBleu
from mtcompute.metrics.bleu.score import BleuOptions
from mtcompute.metrics.chrf import corpus as chrf_corpus
from mtcompute.metrics.chrf.corpus import CorpusChrf
from mtcompute.metrics.chrf.score import ChrfOptions
from mtcompute.metrics.ter.corpus import CorpusTer
from mtcompute.metrics.ter.edits import sum_statistics
from mtcompute.metrics.ter.score import TerOptions
from mtcompute.metrics.wer import corpus as wer_corpus
from mtcompute.metrics.wer.corpus import CorpusWer
from mtcompute.metrics.wer.text import Unit, WerOptions
from mtcompute.tokenizers import shared_memo

Result = CorpusBleu | CorpusChrf | CorpusTer  # what `mtcompute score --scheduler` computes
AnyResult = Result | CorpusWer
Options = BleuOptions | ChrfOptions | TerOptions | WerOptions
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


# --- the metrics' settings -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setting:
    """One metric to compute: ``metric`` (``bleu``, ``chrf``, ``chrf++``, ``ter``, ``wer`` or
    ``cer``), its options (sacreBLEU's names; WER's and CER's the batch API's) and, for chrF,
    the rules (``sacrebleu`` or ``contract``)."""

    metric: str
    options: Options
    rules: str = "sacrebleu"


def _batch_result(
    setting: Setting, hyps: list[str], refs: list[list[str]], each: bool
) -> AnyResult:
    """The batch API's result of one partition (its checks, its counting)."""
    options = setting.options
    if isinstance(options, WerOptions):
        return _wer_part(options, hyps, refs, each)
    return batch.corpus_result(hyps, refs, options, rules=setting.rules, segment_scores=each)


def _wer_part(options: WerOptions, hyps: list[str], refs: list[list[str]], each: bool) -> AnyResult:
    """A partition's WER or CER: corpus_wer's checks, one reference a segment, without its
    check of the reference units (a partition may have none where the corpus has some: the
    total is checked, by :func:`_result`)."""
    if refs and len(refs[0]) != 1:
        raise ValueError(f"references: WER and CER take one reference stream, got {len(refs[0])}")
    keywords = {f.name: getattr(options, f.name) for f in fields(options)}
    return wer_corpus._checked_part(hyps, [r[0] for r in refs], **keywords, segment_scores=each)


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


def _result(setting: Setting, total: _Partial, nrefs: int) -> AnyResult:
    """The batch result of the summed statistics, computed once by the batch code path."""
    options = setting.options
    scores = None if total.scores is None else tuple(total.scores)
    if isinstance(options, BleuOptions):
        signature = options.tokenizer().signature
        return CorpusBleu.from_statistics(total.counts, options, signature, nrefs, scores)
    if isinstance(options, ChrfOptions):
        return CorpusChrf.from_statistics(total.counts, options, setting.rules, nrefs, scores)
    if isinstance(options, WerOptions):
        wer = CorpusWer.from_statistics(total.counts, options, nrefs, scores)
        if not wer.counts.reference_length:  # the rate has no denominator, as corpus_wer says
            raise wer_corpus.no_reference_unit(options)
        return wer
    if total.edits is not None and total.lengths is not None:
        each = tuple(zip(total.edits, total.lengths, strict=True))
        return CorpusTer.from_statistics(each, options, nrefs, scores)
    edits = total.counts[0]
    if total.lengths is None:
        length = float(total.counts[1])
    else:
        _, length = sum_statistics([(0, x) for x in total.lengths])
    # the totals only: no per-segment statistics were asked for, none came back
    return CorpusTer.from_sums(edits, length, options, nrefs)


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
    if isinstance(options, WerOptions):  # hits, substitutions, deletions, insertions
        return _Partial((0,) * 4, None, None, scores, 0)
    if each:
        return _Partial((0,), array("d"), array("q"), scores, 0)
    if nrefs > 1:
        return _Partial((0,), array("d"), None, None, 0)
    return _Partial((0, 0), None, None, None, 0)


def _add_lists(parts: Iterable[list[_Partial]]) -> list[_Partial]:
    return reduce(lambda a, b: [x + y for x, y in zip(a, b, strict=True)], parts)


def _corpus(
    setting: Setting,
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    each: bool,
    split_every: int | None,
) -> AnyResult:
    """The corpus result of one metric: each partition scored, the partials added in a tree."""
    parts, nrefs = _partitions(hypotheses, references)
    score = partial(_score_partition, (setting,), each, nrefs)
    totals = _any(parts).map(score).reduction(_add_lists, _add_lists, split_every=split_every)
    (computed,) = _dask.compute(totals)
    if not computed[0].segments:
        raise ValueError("hypotheses: expected at least one segment, got an empty bag")
    return _result(setting, computed[0], nrefs)


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
    """:func:`mtcompute.metrics.bleu.corpus.corpus_bleu` of a bag of hypotheses against one bag per
    reference stream (or paths): sacreBLEU 2.6.0's ``BLEU(...).corpus_score``, the same result.

    ``split_every``: the tree reduction's fan-in (Dask's default when None)."""
    options = BleuOptions(
        tokenize, lowercase, smooth_method, smooth_value, max_order, effective_order
    )
    setting = Setting("bleu", options)
    return cast(CorpusBleu, _corpus(setting, hypotheses, references, segment_scores, split_every))


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
    options = ChrfOptions(
        chrf_corpus.CHAR_ORDER, word_order, beta, lowercase, whitespace, eps_smoothing
    )
    metric = "chrf++" if word_order else "chrf"
    setting = Setting(metric, options, rules)
    return cast(CorpusChrf, _corpus(setting, hypotheses, references, segment_scores, split_every))


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
    """:func:`mtcompute.metrics.ter.corpus.corpus_ter` of a bag of hypotheses against one bag per
    reference stream (or paths): the same score, edits and length (``segment_statistics``
    only with ``segment_scores``: without them, no per-segment data comes back)."""
    options = TerOptions(normalized, no_punct, asian_support, case_sensitive)
    setting = Setting("ter", options)
    return cast(CorpusTer, _corpus(setting, hypotheses, references, segment_scores, split_every))


def corpus_wer(
    hypotheses: Lines,
    references: Lines | Sequence[Lines],
    *,
    unit: str = "word",
    lowercase: bool = False,
    remove_punctuation: bool = False,
    collapse_whitespace: bool = False,
    segment_scores: bool = False,
    split_every: int | None = None,
) -> CorpusWer:
    """:func:`mtcompute.corpus_wer` (WER, or CER with ``unit="character"``) of a bag of
    hypotheses against one bag of references (or paths): the same rate and counts."""
    options = WerOptions(cast(Unit, unit), lowercase, remove_punctuation, collapse_whitespace)
    metric = "cer" if unit == "character" else "wer"
    setting = Setting(metric, options)
    return cast(CorpusWer, _corpus(setting, hypotheses, references, segment_scores, split_every))


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
    if metric in ("wer", "cer"):
        keys = ("lowercase", "remove_punctuation", "collapse_whitespace")
        fields = {k: options.pop(k) for k in keys if k in options}
        unit: Unit = "character" if metric == "cer" else "word"
        return Setting(metric, WerOptions(unit, **fields)), options
    raise ValueError(f"metric: expected bleu, chrf, chrf++, ter, wer or cer, got {metric!r}")


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
    settings: Sequence[Setting], systems: int, each: bool, r: Range
) -> list[list[_Partial]] | Failure:
    """A range's statistics for every system and setting, or the first problem in it."""
    found = read(r)
    if isinstance(found, Failure):
        return found
    refs = [list(segment) for segment in zip(*found[systems:], strict=True)]
    with ExitStack() as stack:
        # BLEU's tokenizers that Python runs line by line (zh, intl, MeCab's) share one memo
        # in the range: its references are tokenized once, not once for each system.
        for setting in settings:
            if isinstance(setting.options, BleuOptions):
                stack.enter_context(shared_memo(setting.options.tokenize))
        return [[_partial(s, hyps, refs, each) for s in settings] for hyps in found[:systems]]


def _add_outcomes(parts: Iterable[list[list[_Partial]] | Failure]) -> Any:
    """The sum of consecutive ranges' statistics, or their first problem."""
    found = list(parts)
    failure = first_failure(found)
    if failure is not None:
        return failure
    rows = cast("list[list[list[_Partial]]]", found)
    return reduce(lambda a, b: [_add_row(p, q) for p, q in zip(a, b, strict=True)], rows)


def _tracked(scored: db.Bag, plan: Sequence[Range], progress: Callable[[int, int], None]) -> Any:
    """The sum of the ranges' outcomes (one partition a range), computed as futures whose
    completion is reported to ``progress`` (segments done, segments in all)."""
    from distributed import as_completed  # noqa: PLC0415

    client = _Client.current()
    futures = client.compute(_any(scored).to_delayed())
    lines = {future.key: r.lines for future, r in zip(futures, plan, strict=True)}
    total, done = sum(lines.values()), 0
    progress(done, total)
    for future in cast(Any, as_completed)(futures):
        done += lines[future.key]
        progress(done, total)
    parts = client.gather(futures)
    return _add_outcomes(_add_outcomes(part) for part in parts)


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
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[list[AnyResult]], int]:
    """``mtcompute score``'s results of each system file against the reference files (one
    segment per line, ``mtcompute score``'s reading) for each setting, and the segment count,
    on Dask's current scheduler: the workers read and score line-aligned ranges, only
    statistics come back. Raises :class:`ScoreFilesError` with ``mtcompute score``'s message
    for files it refuses.

    ``progress``, when given, is called with (segments scored, segments in all) as the
    ranges complete, the first time with 0: the ranges are then computed as futures of the
    current ``distributed.Client`` and added up on the client, in order."""
    names = [*systems, *references]
    plan = line_ranges(names, [url_of(n) for n in names], ranges, worker_threads())
    bag = _db.from_sequence(plan, npartitions=len(plan))
    score: Callable[[Range], Any] = lambda r: _score_range(settings, len(systems), segments, r)  # noqa: E731
    if progress is None:
        total = bag.map(score).reduction(_add_outcomes, _add_outcomes, split_every=split_every)
        (found,) = _dask.compute(total)
    else:
        found = _tracked(bag.map(score), plan, progress)
    if isinstance(found, Failure):
        raise found.error(names)
    nrefs = len(references)
    results = [[_result(s, t, nrefs) for s, t in zip(settings, row, strict=True)] for row in found]
    return results, sum(r.lines for r in plan)
