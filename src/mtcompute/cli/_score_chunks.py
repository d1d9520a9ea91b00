"""``mtcompute score``: the files read in chunks and scored, every system and metric.

The progress bar, the library calls (every call ``score`` makes into the metric code, but
the significance tests': :mod:`mtcompute.cli._score_tests`), the segment scores written to
temporary files as they are computed, and the run on a Dask cluster
(:mod:`mtcompute.cli._cluster`). Imported by :func:`mtcompute.cli.score.run`, not by the
parser."""

from __future__ import annotations

__all__ = ["Result"]

import argparse
import gc
import os
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import IO, TYPE_CHECKING, TypeAlias, cast

from mtcompute.cli._common import STDIN, label, parse_ahead
from mtcompute.cli._files import (
    Chunk,
    RawChunk,
    Uneven,
    byte_chunks,
    count_segments,
    decode_chunk,
    read_ahead,
    reported_fault,
    segment_chunks,
)
from mtcompute.cli._progress import PROGRESS_MIN_SEGMENTS, Bar, bar
from mtcompute.streaming import chunk_size

# The metrics are imported by the functions that run them.
if TYPE_CHECKING:
    from concurrent.futures import Future

    from mtcompute.metrics.bleu.corpus import CorpusBleu
    from mtcompute.metrics.bleu.score import BleuOptions
    from mtcompute.metrics.chrf.corpus import CorpusChrf
    from mtcompute.metrics.chrf.score import ChrfOptions
    from mtcompute.metrics.ter.corpus import CorpusTer
    from mtcompute.metrics.ter.score import TerOptions
    from mtcompute.metrics.wer.corpus import CorpusWer
    from mtcompute.metrics.wer.text import WerOptions

WORD_ORDERS = {"chrf": 0, "chrf++": 2}  # the chrF metrics' word n-gram orders

# -- progress ------------------------------------------------------------------------------


def _progress(args: argparse.Namespace, label: str) -> Bar:
    """The run's bar: drawn when stderr is a terminal and the input has more than
    :data:`PROGRESS_MIN_SEGMENTS` segments (counted first, in the first regular file)."""
    if args.no_progress or not sys.stderr.isatty():
        return Bar()
    total = count_segments([*args.hypotheses, *args.references])
    shown = total is not None and total > PROGRESS_MIN_SEGMENTS
    return bar(total or 0, label, "segments", quiet=not shown)


# -- the library calls -------------------------------------------------------------------
# Every call score makes into the metric code is here (with the imports at the top): the
# batch APIs' corpus BLEU, chrF and TER, computed in chunks (for the progress bar) whose
# results add up (the batch results' own ``+``).

Result: TypeAlias = "CorpusBleu | CorpusChrf | CorpusTer | CorpusWer"
UNITS = {"wer": "word", "cer": "character"}  # WER and CER: the unit of the edit rate


def _score_chunk(
    args: argparse.Namespace, metric: str, hyps: list[str], refs: list[list[str]]
) -> Result:
    """One metric of a chunk of segments, with the options given (:func:`_metric_options`);
    WER and CER against each segment's one reference, no reference unit required of a chunk
    (:func:`~mtcompute.metrics.wer.corpus.corpus_wer_part`; the total is checked)."""
    from mtcompute.batch import corpus_result  # noqa: PLC0415

    options = _metric_options(args, metric)
    if metric in UNITS:
        from mtcompute.metrics.wer.corpus import corpus_wer_part  # noqa: PLC0415

        refs_ = [r[0] for r in refs]
        return corpus_wer_part(hyps, refs_, options, segment_scores=args.segments)  # type: ignore[arg-type]

    return corpus_result(
        hyps,
        refs,
        options,  # type: ignore[arg-type]
        rules=args.rules,
        segment_scores=args.segments,
    )


def _metric_options(
    args: argparse.Namespace, metric: str
) -> BleuOptions | ChrfOptions | TerOptions | WerOptions:
    """The settings of one metric (chrF and chrF++: the chrF options, with their word order;
    WER and CER: the unit and ``--lowercase``)."""
    if metric == "bleu":
        return _bleu_options(args)
    if metric == "ter":
        return _ter_options(args)
    if metric in UNITS:
        from mtcompute.metrics.wer.text import WerOptions  # noqa: PLC0415

        return WerOptions(UNITS[metric], bool(args.lowercase))  # type: ignore[arg-type]
    return _chrf_options(args, metric)


class _Segments:
    """One result's per-segment output, written to temporary files as it is computed: its
    text lines, or the items of its JSON arrays (``segment_scores``, and TER's
    ``segment_edits`` and ``segment_ref_lengths``), each file the array's items joined by
    commas; copied to standard output after the result's own line or object."""

    def __init__(self, metric: str, json: bool) -> None:
        import tempfile  # noqa: PLC0415

        self.json = json
        keys = ("segment_scores",) if metric != "ter" else TER_SEGMENT_KEYS
        # closed (and so deleted) by copy(), or when the process ends
        self.files = {
            key: tempfile.TemporaryFile()  # noqa: SIM115
            for key in (keys if json else ("text",))
        }
        self.empty = True

    def write(self, part: Result) -> None:
        """Write the segments of the next chunk's result."""
        from mtcompute.core.jsjson import dumps  # noqa: PLC0415
        from mtcompute.metrics.ter.corpus import CorpusTer  # noqa: PLC0415

        scores = part.segment_scores or ()
        if not self.json:
            self.files["text"].write("".join(f"{score:.6f}\n" for score in scores).encode())
            return
        columns: dict[str, Sequence[object]] = {"segment_scores": scores}
        if isinstance(part, CorpusTer):
            columns["segment_edits"] = [edits for edits, _ in part.segment_statistics]
            columns["segment_ref_lengths"] = [length for _, length in part.segment_statistics]
        lead = "" if self.empty else ","
        for key, values in columns.items():
            self.files[key].write((lead + dumps(list(values))[1:-1]).encode())
        self.empty = self.empty and not scores

    def copy(self, key: str, out: IO[bytes]) -> None:
        """Copy one file to ``out`` (then close it: it is deleted)."""
        import shutil  # noqa: PLC0415

        spool = self.files.pop(key)
        spool.seek(0)
        shutil.copyfileobj(spool, out)
        spool.close()


TER_SEGMENT_KEYS = ("segment_scores", "segment_edits", "segment_ref_lengths")


def _placeholder_token() -> str:
    """A token no text holds, for the JSON text's placeholders
    (:func:`~mtcompute.cli._score_run._placeholder`): 128 random bits, as many as a uuid4's
    (without the uuid module, which imports platform)."""
    return f"mtcompute-segments-{os.urandom(16).hex()}"


@dataclass
class _Run:
    """What a run found: per system and metric the result (its segment scores not in it:
    ``segments`` holds them, when asked for), the segment count, and the token of the JSON
    text's placeholders (:func:`~mtcompute.cli._score_run._placeholder`)."""

    results: list[list[Result]]
    segments: list[list[_Segments]] | None
    count: int
    token: str = field(default_factory=_placeholder_token)


def _bar_label(args: argparse.Namespace) -> str:
    """The bar's label: the system's file name, or the number of systems, then the metrics."""
    systems = args.hypotheses
    named = label(systems[0]) if len(systems) == 1 else f"{len(systems)} systems"
    return f"{named} {' '.join(args.metric)}"


GC_CHUNKS = 16  # the collector's first threshold while streaming: this many chunks' segments


def _scored(args: argparse.Namespace) -> _Run:
    """Every system and metric, the files read in chunks, each chunk's results added up in
    the files' order (:class:`mtcompute.metrics._corpus.ResultSum`) and its segment scores
    written out, then dropped: named files by :func:`_in_parallel`, standard input chunk after chunk
    (the next read while this one is counted, on the kernel's threads)."""
    from mtcompute.metrics._corpus import ResultSum  # noqa: PLC0415

    sums: list[list[ResultSum[Result]]] = [
        [ResultSum() for _ in args.metric] for _ in args.hypotheses
    ]
    segments = _spools(args)
    progress = _progress(args, _bar_label(args))
    count = 0

    def add(size: int, results: list[list[Result]]) -> None:
        nonlocal count
        for s, row in enumerate(results):
            for m, part in enumerate(row):
                sums[s][m].add(part)
                if segments is not None:
                    segments[s][m].write(part)
        count += size
        progress.advance(size)

    # Each chunk makes and drops tens of thousands of lists and tuples (a reference list a
    # segment, TER's pairs). At the collector's default threshold (700 objects made and not
    # yet dropped) that is hundreds of collections every 100,000 segments, each holding the
    # interpreter lock (0.24 s of TER's 7.5 s on 300,000 segments, a sixth of the time the
    # lock is held). Over what the chunks in flight hold, only objects left behind (cycles)
    # start one.
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], GC_CHUNKS * chunk_size()), *threshold[1:])
    try:
        if STDIN in [*args.hypotheses, *args.references]:
            for chunk in read_ahead(segment_chunks(args.hypotheses, args.references)):
                add(len(chunk.references), _chunk_results(args, chunk))
        else:
            _in_parallel(args, add)
    finally:
        gc.set_threshold(*threshold)
    progress.close()
    return _Run([[total.total() for total in row] for row in sums], segments, count)


def _chunk_results(args: argparse.Namespace, chunk: Chunk) -> list[list[Result]]:
    """Per system and metric the result of one chunk."""
    return [
        [_score_chunk(args, metric, hyps, chunk.references) for metric in args.metric]
        for hyps in chunk.systems
    ]


def _raw_results(
    args: argparse.Namespace,
    raw: RawChunk,
    bleu_order: Callable[[], Iterator[int]] | None = None,
) -> list[list[Result]] | None:
    """:func:`_chunk_results` of a chunk as read, each call counting on this thread alone:
    BLEU from the undecoded lines where the kernel counts them
    (:func:`mtcompute.metrics.bleu.corpus.corpus_bleu_lines`), the rest from the lines decoded here;
    None when a line is not UTF-8. With ``bleu_order`` (a second process parsing BLEU's
    MeCab lines: :func:`_parse_ahead`), BLEU comes after the other metrics, its systems in
    ``bleu_order()``, each as soon as its lines are parsed; after an error, every result is
    computed again in the files' order, which raises the error that order meets first."""
    metrics = range(len(args.metric))
    order = [(s, m) for s in range(len(args.hypotheses)) for m in metrics]
    if bleu_order is not None:
        bleu = [m for m in metrics if args.metric[m] == "bleu"]
        others = [(s, m) for s, m in order if m not in bleu]
        try:
            return _results_in(
                args, raw, chain(others, ((s, m) for s in bleu_order() for m in bleu))
            )
        except Exception:  # whichever it is, the files' order below meets it again
            pass
    return _results_in(args, raw, order)


def _results_in(
    args: argparse.Namespace, raw: RawChunk, order: Iterable[tuple[int, int]]
) -> list[list[Result]] | None:
    """The result of each (system, metric index) of ``order``, computed in that order, as
    :func:`_raw_results` gives them; None when a line is not UTF-8."""
    from mtcompute.counting import threads_in_context  # noqa: PLC0415

    systems = len(args.hypotheses)
    chunk: Chunk | None = None
    results: dict[tuple[int, int], Result] = {}
    with threads_in_context(1):
        for s, m in order:
            metric = args.metric[m]
            part = _lines_result(args, metric, raw, s)
            if part is None:
                chunk = chunk or decode_chunk(raw, systems)
                if chunk is None:
                    return None
                part = _score_chunk(args, metric, chunk.systems[s], chunk.references)
            results[s, m] = part
    return [[results[s, m] for m in range(len(args.metric))] for s in range(systems)]


def _lines_result(
    args: argparse.Namespace, metric: str, raw: RawChunk, system: int
) -> Result | None:
    """One metric of one system's chunk from its undecoded lines where the kernel counts
    them so (BLEU, chrF and chrF++: :func:`mtcompute.metrics.bleu.corpus.corpus_bleu_lines`,
    :func:`~mtcompute.metrics.chrf.corpus.corpus_chrf_lines`), else None."""
    hyps, refs = raw.pieces[system], raw.pieces[len(args.hypotheses) :]
    if metric == "bleu":
        from mtcompute.metrics.bleu.corpus import corpus_bleu_lines  # noqa: PLC0415

        bleu = _bleu_options(args)
        return corpus_bleu_lines(hyps, refs, raw.count, bleu, segment_scores=args.segments)
    if metric in WORD_ORDERS:
        from mtcompute.metrics.chrf.corpus import corpus_chrf_lines  # noqa: PLC0415

        chrf = _chrf_options(args, metric)
        return corpus_chrf_lines(
            hyps, refs, raw.count, chrf, rules=args.rules, segment_scores=args.segments
        )
    return None


def _in_parallel(args: argparse.Namespace, add: Callable[[int, list[list[Result]]], None]) -> None:
    """The named files in chunks on the kernel's threads (``MTCOMPUTE_THREADS``), each
    thread taking whole chunks (decoded, counted and scored there, see :func:`_raw_results`)
    while a reader thread cuts the next ones from the files (:func:`byte_chunks`, undecoded);
    each chunk's count and results handed to ``add`` in the files' order, at most one chunk
    more than there are threads in flight (with one thread, or files of one chunk, chunk
    after chunk on this one, without the reader thread). A fault (files of different
    lengths, a line that is not UTF-8, no line) is the error reading the files chunk after
    chunk reports."""
    from mtcompute.counting import thread_count  # noqa: PLC0415

    workers = thread_count()
    names = [*args.hypotheses, *args.references]
    chunks = byte_chunks(names)
    try:
        ahead = list(islice(chunks, 2))
    except Uneven:
        raise reported_fault(args.hypotheses, args.references) from None
    if workers == 1 or len(ahead) < 2:
        # chunk after chunk on this thread: no pool to start (nor to import), nor threads
        # to hand a single chunk (a test set of a few thousand lines) between
        with ExitStack() as stack:
            bleu_order = _parse_ahead(args, stack, ahead[0]) if len(ahead) == 1 else None
            try:
                for raw in chain(ahead, chunks):
                    results = _raw_results(args, raw, bleu_order)
                    if results is None:
                        raise Uneven
                    add(raw.count, results)
            except Uneven:
                raise reported_fault(args.hypotheses, args.references) from None
        return
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    pending: deque[tuple[int, Future[list[list[Result]] | None]]] = deque()
    with ThreadPoolExecutor(workers, thread_name_prefix="mtcompute-chunk") as pool:
        try:
            for raw in read_ahead(_chained(ahead, chunks)):
                pending.append((raw.count, pool.submit(_raw_results, args, raw)))
                while len(pending) > workers:
                    _hand_on(pending.popleft(), add)
            while pending:
                _hand_on(pending.popleft(), add)
        except Uneven:
            raise reported_fault(args.hypotheses, args.references) from None
        finally:
            for _, future in pending:
                future.cancel()


def _parse_ahead(
    args: argparse.Namespace, stack: ExitStack, raw: RawChunk
) -> Callable[[], Iterator[int]] | None:
    """Files of one chunk scored with BLEU's MeCab tokenizer: a second process parses ahead
    (:func:`mtcompute.cli._common.parse_ahead`): the references, which every system's BLEU
    needs, then the systems' lines. Where it runs, the order to score the systems' BLEU in
    (each as soon as its lines are parsed: :func:`mtcompute.tokenizers.parsed_order`). A
    chunk that does not decode is left to the scoring, which reports it."""
    if "bleu" not in args.metric:
        return None
    bleu = _bleu_options(args)
    if not bleu.tokenize.endswith("-mecab"):
        return None
    chunk = decode_chunk(raw, len(args.hypotheses))
    if chunk is None:
        return None
    references = chain.from_iterable(chunk.references)
    return parse_ahead(stack, bleu.tokenize, bleu.lowercase, references, chunk.systems)


def _chained(first: list[RawChunk], rest: Generator[RawChunk, None, None]) -> Iterator[RawChunk]:
    """``first``, then ``rest``, which is closed (its files with it) when this is."""
    try:
        yield from first
        yield from rest
    finally:
        rest.close()


def _hand_on(
    item: tuple[int, Future[list[list[Result]] | None]],
    add: Callable[[int, list[list[Result]]], None],
) -> None:
    """Wait for one chunk's results and hand them to ``add``; :class:`Uneven` when the chunk
    could not be decoded."""
    size, future = item
    results = future.result()
    if results is None:
        raise Uneven
    add(size, results)


def _on_cluster(args: argparse.Namespace) -> _Run:
    """Every system and metric scored on the Dask cluster ``--scheduler`` names (the
    results come back whole, segment scores included when asked for: written out as one
    chunk's)."""
    from mtcompute.cli import _cluster  # noqa: PLC0415

    options = {name: _metric_options(args, name) for name in args.metric}
    results, count = _cluster.score(args, options)
    segments = _spools(args)
    if segments is not None:
        for spools, row in zip(segments, results, strict=True):
            for spool, result in zip(spools, row, strict=True):
                spool.write(result)
    return _Run(cast("list[list[Result]]", results), segments, count)


def _spools(args: argparse.Namespace) -> list[list[_Segments]] | None:
    """Per system and metric the segment output's files, with --segments."""
    if not args.segments:
        return None
    json = args.format == "json"
    return [[_Segments(metric, json) for metric in args.metric] for _ in args.hypotheses]


def _options(args: argparse.Namespace) -> tuple[BleuOptions, ChrfOptions, TerOptions]:
    """The three metrics' settings (chrF's without word n-grams, as the significance tests
    take them)."""
    return _bleu_options(args), _chrf_options(args, "chrf"), _ter_options(args)


# The settings of each metric: the options given, else the batch APIs' defaults (each
# metric's options class imported when it is asked for).


def _bleu_options(args: argparse.Namespace) -> BleuOptions:
    from mtcompute.metrics.bleu.score import BleuOptions  # noqa: PLC0415
    from mtcompute.tokenizer_names import tokenizer_for  # noqa: PLC0415

    return BleuOptions(
        tokenizer_for(args.tokenize, args.language_pair),
        bool(args.lowercase),
        args.smooth_method or "exp",
        args.smooth_value,
        4 if args.max_order is None else args.max_order,
        bool(args.effective_order),
        args.spm_model,
    )


def _chrf_options(args: argparse.Namespace, metric: str) -> ChrfOptions:
    """chrF's or chrF++'s (``metric``: its word order)."""
    from mtcompute.metrics.chrf.score import ChrfOptions  # noqa: PLC0415

    return ChrfOptions(
        word_order=WORD_ORDERS[metric],
        beta=2 if args.beta is None else args.beta,
        lowercase=bool(args.lowercase),
    )


def _ter_options(args: argparse.Namespace) -> TerOptions:
    from mtcompute.metrics.ter.score import TerOptions  # noqa: PLC0415

    return TerOptions(
        bool(args.normalized),
        bool(args.no_punct),
        bool(args.asian_support),
        bool(args.case_sensitive),
    )
