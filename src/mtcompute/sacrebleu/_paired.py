"""sacreBLEU's paired bootstrap test (``PairedTest(..., test_type="bs")``) on the C kernel,
without numpy: what ``mtcompute sacrebleu -pbs`` runs for BLEU and chrF, the same results
float for float as :mod:`mtcompute.sacrebleu.significance` (its twin, numpy's path), which
also takes everything this path does not serve.

numpy's generator is rebuilt here: ``default_rng(seed)`` is PCG64 seeded through
``SeedSequence(seed)`` (:func:`pcg64_state`, in Python's integers); the kernel
(``_kernel/resample.c``) draws ``choice(N, (S, N), replace=True)`` from that state, sums the
resamples, scores them in sacreBLEU's float32 arithmetic and gives their means, intervals and
p-values. Also here, numpy-free for both paths: sacreBLEU's :class:`Result` and the reader of a
system's statistics as the kernel's rows (:func:`rows_reader`).
"""

from __future__ import annotations

__all__ = [
    "Result",
    "RowsReader",
    "kernel_may_serve",
    "log_computing",
    "log_precomputing",
    "log_test",
    "log_workers",
    "paired_bootstrap",
    "pcg64_state",
    "rows_reader",
    "workers",
]

import logging
import os
import struct
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from mtcompute import native
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.bleu.score import SMOOTH_DEFAULTS
from mtcompute.metrics.chrf.score import chrf_references, chrf_rows_of
from mtcompute.sacrebleu._errors import ArgumentError
from mtcompute.sacrebleu._seed import read_seed
from mtcompute.sacrebleu.metrics.base import Metric, Signature, sacrelogger
from mtcompute.sacrebleu.metrics.bleu import BLEU, _registry_tokenizer
from mtcompute.sacrebleu.metrics.chrf import CHRF


class Result:
    """sacreBLEU's ``Result``: a system's ``score``, the ``p_value`` of its comparison with the
    baseline, and the bootstrap ``mean`` and 95% half width ``ci`` (None when not computed)."""

    def __init__(
        self,
        score: float,
        p_value: float | None = None,
        mean: float | None = None,
        ci: float | None = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={v!s}" for k, v in self.__dict__.items())


RowsReader = Callable[[Sequence[str]], tuple[list[int], bytes]]


def rows_reader(metric: Metric[Any], references: object) -> RowsReader | None:
    """For a BLEU or CHRF of this package on the kernel's path against the constructor's
    references: a reader of a system's summed statistics and per-segment statistics
    (``_extract_corpus_statistics``'s numbers, its length check and warning), these as the
    kernel's buffer of native int64 rows, the references prepared once as the metric prepares
    them. A list per segment, made, turned into an array and walked by the garbage collector,
    cost 12% of the instructions of a five-system ``-pbs`` run. ``None`` for any other metric
    (its own ``_extract_corpus_statistics``)."""
    if references or not metric._fast(cached=True) or metric._ref_cache is None:
        return None
    prepared: Any  # the references as the metric's statistics function takes them
    rows_of: Callable[[Sequence[str], Any], tuple[list[int], bytes]]
    if type(metric) is BLEU:
        tokenizer = _registry_tokenizer(metric.tokenizer)
        prepared = sacre_bleu.bleu_references(
            metric._ref_cache, metric._options(), tokenizer=tokenizer
        )
        rows_of = sacre_bleu.bleu_rows_of
    elif type(metric) is CHRF:
        prepared, rows_of = chrf_references(metric._ref_cache, metric._options()), chrf_rows_of
    else:
        return None

    def rows(hypotheses: Sequence[str]) -> tuple[list[int], bytes]:
        metric._segment_references(hypotheses, None)  # sacreBLEU's length check and error
        metric._warn_tokenized(hypotheses)
        return rows_of(hypotheses, prepared)

    return rows


# --- numpy's default_rng(seed): SeedSequence, then PCG64 -------------------------------------

_MASK32 = 0xFFFFFFFF
_MASK128 = (1 << 128) - 1
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = 16
_POOL_SIZE = 4
_PCG_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645


def _seed_sequence_pool(seed: int) -> list[int]:
    """``numpy.random.SeedSequence(seed).pool``: the seed's 32-bit words (least significant
    first; ``[0]`` for 0) hashed into four."""
    entropy = [0] if seed == 0 else []
    while seed > 0:
        entropy.append(seed & _MASK32)
        seed >>= 32
    hash_const = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal hash_const
        value ^= hash_const
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = (value * hash_const) & _MASK32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
        return result ^ (result >> _XSHIFT)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(_POOL_SIZE)]
    for src in range(_POOL_SIZE):
        for dst in range(_POOL_SIZE):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL_SIZE, len(entropy)):
        for dst in range(_POOL_SIZE):
            pool[dst] = mix(pool[dst], hashmix(entropy[src]))
    return pool


def _generate_state64(pool: list[int], words: int) -> list[int]:
    """``SeedSequence.generate_state(words, numpy.uint64)``."""
    hash_const = _INIT_B
    out32 = []
    for i in range(2 * words):
        value = pool[i % len(pool)] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        value = (value * hash_const) & _MASK32
        out32.append(value ^ (value >> _XSHIFT))
    return [out32[2 * i] | out32[2 * i + 1] << 32 for i in range(words)]


def pcg64_state(seed: int) -> tuple[int, int]:
    """``numpy.random.PCG64(seed).state``'s ``state`` and ``inc`` (``pcg64_set_seed`` of the
    seed sequence's four words: the state, then the stream)."""
    words = _generate_state64(_seed_sequence_pool(seed), 4)
    initstate, initseq = words[0] << 64 | words[1], words[2] << 64 | words[3]
    inc = (initseq << 1 | 1) & _MASK128
    state = inc  # pcg_setseq_128_srandom_r: 0 stepped, the initial state added, stepped
    state = (state + initstate) & _MASK128
    state = (state * _PCG_MULTIPLIER + inc) & _MASK128
    return state, inc


def pcg64_bytes(seed: int) -> bytes:
    """:func:`pcg64_state` as the kernel takes it: four native uint64 (state high, low, inc
    high, low)."""
    state, inc = pcg64_state(seed)
    mask = (1 << 64) - 1
    return struct.pack("=4Q", state >> 64, state & mask, inc >> 64, inc & mask)


# --- the test --------------------------------------------------------------------------------

_SMOOTH_CODES = {"none": 0, "floor": 1, "add-k": 2, "exp": 3}
_MOST_BETA = 2**26  # chrF's beta ** 2 + 1 exact in a double (and beta a C int)
Spec = tuple[int, int, int, int, float, int, int, int]


def _spec(metric: Metric[Any]) -> Spec | None:
    """The kernel's description of ``metric``'s scoring (``None``: not served)."""
    assert native.ext is not None  # only called on the kernel's path
    if type(metric) is BLEU:
        options = metric._options()
        value = options.smooth_value
        if value is None:
            value = SMOOTH_DEFAULTS[options.smooth_method]
        order = options.max_ngram_order
        if options.smooth_method not in _SMOOTH_CODES or not 1 <= order <= native.ext.MAX_ORDER:
            return None
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            return None
        if value is not None and not value >= 0:  # NaN scores; a negative one: log's error
            return None
        code = _SMOOTH_CODES[options.smooth_method]
        k = float(value) if value is not None else 0.0
        return (0, order, code, int(options.effective_order), k, 0, 0, 2 + 2 * order)
    if type(metric) is CHRF:
        chrf = metric._options()
        if not 1 <= chrf.order <= native.ext.MAX_ORDER or abs(chrf.beta) > _MOST_BETA:
            return None
        return (1, chrf.order, 0, 0, 0.0, chrf.beta, int(chrf.eps_smoothing), 3 * chrf.order)
    return None


# --- sacreBLEU's PairedTest tells its steps (INFO): the same lines, in the same order --------


def log_precomputing(key: str, baseline: str) -> None:
    """Before the baseline's statistics of the metric ``key`` (``metrics``' key)."""
    sacrelogger.info(f"Pre-computing {key} statistics for {baseline!r}")


def log_computing(name: str, system: str) -> None:
    """Before a system's statistics of the metric named ``name`` (its score's name)."""
    sacrelogger.info(f"Computing {name} for {system!r} and extracting sufficient statistics")


def workers(n_jobs: int, n_systems: int) -> int:
    """sacreBLEU's count of workers for ``n_jobs`` (0: half the CPUs, at most one a system
    compared); here the comparisons run in turn whatever the count."""
    if n_jobs == 0:
        return max(1, min((os.cpu_count() or 1) // 2, n_systems))
    return n_jobs


def log_workers(count: int) -> None:
    """Before the comparisons, when sacreBLEU would start a pool of workers."""
    if count != 1:
        sacrelogger.info(f"Launching {count} parallel workers.")


def log_test(test_type: str, n_samples: int, n_ar_confidence: int) -> None:
    """After a system's statistics of one metric: the test it goes through."""
    if test_type == "bs":
        sacrelogger.info(
            f" > Performing paired bootstrap resampling test (# resamples: {n_samples})"
        )
        return
    sacrelogger.info(f" > Performing approximate randomization test (# trials: {n_samples})")
    if n_ar_confidence > 0:
        sacrelogger.info(
            " > Performing bootstrap resampling for confidence interval "
            f"(# resamples: {n_ar_confidence})"
        )


@contextmanager
def _held() -> Iterator[list[logging.LogRecord]]:
    """Within the block, ``sacrelogger``'s records are kept in the list it gives, not handled
    (its handlers and propagation off): the caller handles them or drops them after."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handlers, propagate = sacrelogger.handlers[:], sacrelogger.propagate
    sacrelogger.handlers[:] = [Keep()]
    sacrelogger.propagate = False
    try:
        yield records
    finally:
        sacrelogger.handlers[:] = handlers
        sacrelogger.propagate = propagate


_SUMS_AS_3_11_TO_3_13 = sys.version_info < (3, 14)  # Python's sum of floats, as the kernel's


@native.kernel_test
def kernel_may_serve() -> bool:
    """Whether :func:`paired_bootstrap` may serve here, whatever the systems and metrics: the
    kernel in use (the pure twin answers False), Python's ``sum`` as in 3.11-3.13 and the seed
    set (a ``SACREBLEU_SEED`` that is not a seed: True, the test then raises its error as
    numpy's path does). What ``mtcompute sacrebleu`` asks before it refuses a paired
    bootstrap without numpy up front."""
    if not _SUMS_AS_3_11_TO_3_13:
        return False
    try:
        return read_seed()[1] is not None
    except ArgumentError:
        return True


@native.kernel_step
def paired_bootstrap(
    named_systems: Sequence[tuple[str, Sequence[str]]],
    metrics: Mapping[str, Metric[Any]],
    n_samples: int,
    n_jobs: int = 1,
) -> tuple[dict[str, Signature], dict[str, list[Any]]] | None:
    """``PairedTest(named_systems, metrics, None, "bs", n_samples, n_jobs=n_jobs)()`` on the
    kernel (the comparisons in turn, logged as sacreBLEU's workers log them): the
    signatures and the columns of results. ``None`` (the numpy path's turn) unless every metric
    is a BLEU or CHRF on the kernel's path, there are systems to compare, the seed is set
    (``SACREBLEU_SEED``), the float32 sums are exact and Python's ``sum`` adds floats as in
    3.11-3.13 (the kernel follows 3.12's compensated sum where it is built for it)."""
    assert native.ext is not None  # a kernel step runs only when it is built
    if not _SUMS_AS_3_11_TO_3_13 or len(named_systems) < 2:
        return None
    _, seed = read_seed()
    if seed is None:
        return None
    samples = n_samples if n_samples > 0 else 1000
    readers = [(rows_reader(m, None), _spec(m), m) for m in metrics.values()]
    served = [(r, s, m) for r, s, m in readers if r is not None and s is not None]
    if len(served) != len(readers):
        return None
    # What the test logs (its steps, the statistics' warnings) is handled once it is known to
    # be served here, else dropped: numpy's path logs it again.
    with _held() as records:
        try:
            count = workers(n_jobs, len(named_systems) - 1)
            found = _bootstrap(named_systems, list(metrics), served, samples, seed, count)
        except BaseException:
            _handle(records)
            raise
    if found is not None:
        _handle(records)
    return found


def _handle(records: list[logging.LogRecord]) -> None:
    for record in records:
        sacrelogger.handle(record)


def _bootstrap(
    named_systems: Sequence[tuple[str, Sequence[str]]],
    keys: list[str],
    served: list[tuple[RowsReader, Spec, Metric[Any]]],
    samples: int,
    seed: int,
    count: int,
) -> tuple[dict[str, Signature], dict[str, list[Any]]] | None:
    """:func:`paired_bootstrap` once it is the kernel's: ``keys`` are ``metrics``' keys, in
    the order of ``served``; ``count`` sacreBLEU's workers."""
    signatures: dict[str, Signature] = {}
    tables: list[tuple[str, Spec, list[bytes], list[float]]] = []
    bl_name, bl_hyps = named_systems[0]
    for key, (rows, spec, metric) in zip(keys, served, strict=True):
        log_precomputing(key, bl_name)
        totals, buffer = rows(bl_hyps)
        bl_score = metric._compute_score_from_stats(totals)
        signature = metric.get_signature()
        signature.update("seed", str(seed))  # sacreBLEU's str(int(text)): "007" signs 7
        signature.update("bs", samples)
        signatures[bl_score.name] = signature
        tables.append((bl_score.name, spec, [buffer], [bl_score.score]))
    log_workers(count)
    for sys_name, hyps in named_systems[1:]:  # sacreBLEU's order: system by system
        for (rows, _, metric), (name, _, buffers, scores) in zip(served, tables, strict=True):
            log_computing(name, sys_name)
            totals, buffer = rows(hyps)
            buffers.append(buffer)
            scores.append(metric._compute_score_from_stats(totals).score)
            log_test("bs", samples, 0)
    series = [(spec, buffer) for _, spec, buffers, _ in tables for buffer in buffers]
    segments = len(bl_hyps)
    if segments == 0:
        return None
    try:
        drawn = native.ext.bootstrap_scores(pcg64_bytes(seed), samples, segments, series)
    except (MemoryError, OverflowError):
        raise ArgumentError(
            f"paired bootstrap: {samples} resamples of {segments} segments do not fit in memory"
        ) from None
    if drawn is None:  # float32 sums that may round
        return None
    columns: dict[str, list[Any]] = {"System": [name for name, _ in named_systems]}
    at = 0
    for name, _, _, scores in tables:
        (base, base32), at = drawn[at], at + 1
        column = [Result(scores[0], None, *native.ext.bootstrap_interval(base, base32))]
        for score in scores[1:]:
            (own, own32), at = drawn[at], at + 1
            p = native.ext.bootstrap_p(base, own, base32 and own32, abs(scores[0] - score))
            column.append(Result(score, p, *native.ext.bootstrap_interval(own, own32)))
        columns[name] = column
    return signatures, columns
