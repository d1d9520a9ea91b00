"""``mtcompute score --paired-bs``, ``--paired-ar`` and ``--ci``: the files read in chunks
for the tests (:mod:`mtcompute.report.paired`, the path ``mtcompute compare`` takes too), and
each score line's test fields. Imported by :func:`mtcompute.cli._score_run.run` when a test is
asked for (the options' checks are ``_score_run``'s, which every run makes)."""

from __future__ import annotations

__all__: list[str] = []

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from mtcompute._version import __version__
from mtcompute.cli._common import CI_SAMPLES, one_blas_thread
from mtcompute.cli._files import read_ahead, segment_chunks
from mtcompute.cli._score_chunks import (
    WORD_ORDERS,
    Result,
    _bar_label,
    _options,
    _progress,
    _Run,
    _score_chunk,
    _spools,
)
from mtcompute.report import DEFAULT_SAMPLES, DEFAULT_SEED, is_significant

if TYPE_CHECKING:
    from mtcompute.metrics.bleu.score import BleuOptions
    from mtcompute.metrics.chrf.score import ChrfOptions
    from mtcompute.metrics.ter.score import TerOptions
    from mtcompute.significance import Result as TestResult


# -- significance ------------------------------------------------------------------------
# --paired-bs, --paired-ar and --ci: mtcompute.report.paired (the path compare takes too),
# imported when a test is asked for: it brings numpy, about 0.1 s, which the plain score
# command (a 100 ms budget for its whole process) never loads.


@dataclass(frozen=True, slots=True)
class _Settings:
    """The test asked for: its method (None: intervals alone), its resamples or trials, the
    interval resamples (0: none, or the paired bootstrap's own), the seed."""

    method: str | None
    samples: int
    confidence: int
    seed: int

    def signature_fields(self) -> dict[str, object]:
        """sacreBLEU's signature fields of the test (``PairedTest``, ``--confidence``):
        ``bs`` resamples, ``ar`` trials, ``seed``."""
        fields: dict[str, object] = {"seed": self.seed}
        if self.method == "bootstrap":
            fields["bs"] = self.samples
        else:
            if self.method == "ar":
                fields["ar"] = self.samples
            if self.confidence:
                fields["bs"] = self.confidence
        return fields

    def to_dict(self) -> dict[str, object]:
        """The test's settings in the JSON output."""
        return {
            "method": self.method,
            "samples": self.samples if self.method else None,
            "ci_samples": self.samples if self.method == "bootstrap" else self.confidence or None,
            "seed": self.seed,
        }


def _settings(args: argparse.Namespace, method: str | None) -> _Settings:
    """The test asked for: ``method`` (:func:`mtcompute.cli._score_run._method`), and its
    resamples, intervals and seed from the options or their defaults."""
    samples = 0
    if method is not None:
        given = args.paired_bs_n if method == "bootstrap" else args.paired_ar_n
        samples = DEFAULT_SAMPLES[method] if given is None else given
    confidence = 0
    if args.ci and method != "bootstrap":
        confidence = CI_SAMPLES if args.ci_n is None else args.ci_n
    return _Settings(method, samples, confidence, DEFAULT_SEED if args.seed is None else args.seed)


def _tested(args: argparse.Namespace, settings: _Settings) -> tuple[_Run, list[list[TestResult]]]:
    """Each system's scores (from the statistics the tests resample, unless --segments asks
    for the batch APIs' segment scores) and its test results. The files are read in chunks
    (the next read while this one is counted); of each chunk only the per-segment statistics
    are kept (the kernel's int64 rows, TER's float64 ones), never the texts. ``settings``
    is the test asked for (:func:`_settings`)."""
    one_blas_thread()
    # Imported here, not at the top: see the section's comment (numpy: the rows' matrices).
    import numpy as np  # noqa: PLC0415

    from mtcompute.cli._progress import PROGRESS_MIN_SEGMENTS, bar  # noqa: PLC0415
    from mtcompute.metrics._corpus import ResultSum  # noqa: PLC0415
    from mtcompute.metrics.wer.text import WerOptions  # noqa: PLC0415
    from mtcompute.report import paired  # noqa: PLC0415
    from mtcompute.significance import Table  # noqa: PLC0415

    bleu, chrf, ter = _options(args)
    wer = WerOptions(lowercase=bool(args.lowercase))
    metrics = [paired.metric(name, bleu=bleu, chrf=chrf, ter=ter, wer=wer) for name in args.metric]
    options: dict[str, BleuOptions | ChrfOptions | TerOptions] = {
        "bleu": bleu,
        "chrf": chrf,
        "ter": ter,
    }
    nrefs = len(args.references)
    sums: list[list[ResultSum[Result]]] = [
        [ResultSum() for _ in args.metric] for _ in args.hypotheses
    ]
    rows = [[bytearray() for _ in args.hypotheses] for _ in metrics]  # [metric][system]
    shapes: list[tuple[Any, int]] = []  # each metric's row type and width
    segments = _spools(args)
    progress = _progress(args, _bar_label(args))
    count = 0
    for chunk in read_ahead(segment_chunks(args.hypotheses, args.references)):
        extracted = paired.extract(metrics, chunk.systems, chunk.references)
        for t, table in enumerate(extracted.tables):
            for s, statistics in enumerate(table.statistics):
                matrix = np.ascontiguousarray(statistics)
                if len(shapes) == t:
                    shapes.append((matrix.dtype, matrix.shape[1]))
                rows[t][s] += matrix.tobytes()
        for s, hyps in enumerate(chunk.systems):
            for t, name in enumerate(args.metric):
                if segments is not None or name in paired.WER_UNITS:  # WER: its own counts
                    part = _score_chunk(args, name, hyps, chunk.references)
                    if segments is not None:
                        segments[s][t].write(part)
                else:
                    part = _from_totals(name, options, extracted.totals[t][s], nrefs)
                sums[s][t].add(part)
        count += len(chunk.references)
        progress.advance(len(chunk.references))
    progress.close()
    results = [[total.total() for total in row] for row in sums]
    tables = []
    for t, chosen in enumerate(metrics):
        dtype, width = shapes[t]
        matrices = [np.frombuffer(found, dtype=dtype).reshape(-1, width) for found in rows[t]]
        tables.append(Table(chosen, matrices))
    del rows
    # the resampling's own bar (draws: resamples or trials), on the same terms as the reading's
    draws = paired.run_draws(
        settings.method,  # type: ignore[arg-type]
        settings.samples,
        settings.confidence,
        len(args.hypotheses),
        len(tables),
        settings.seed,
    )
    shown = count * len(args.hypotheses) > PROGRESS_MIN_SEGMENTS
    resampling = bar(draws, "resampling", "draws", quiet=args.no_progress or not shown)
    tested = paired.run(
        tables,
        settings.method,  # type: ignore[arg-type]
        samples=settings.samples,
        confidence=settings.confidence,
        seed=settings.seed,
        progress=resampling.advance,
    )
    resampling.close()
    by_system = [[tested[t][s] for t in range(len(metrics))] for s in range(len(args.hypotheses))]
    return _Run(results, segments, count), by_system


def _from_totals(
    metric: str,
    options: dict[str, BleuOptions | ChrfOptions | TerOptions],
    totals: Sequence[Any],
    nrefs: int,
) -> Result:
    """The batch result of one system's summed statistics for ``metric`` (TER: of its
    segments' statistics, which it sums in segment order)."""
    from mtcompute.metrics.bleu.corpus import CorpusBleu  # noqa: PLC0415
    from mtcompute.metrics.bleu.score import BleuOptions  # noqa: PLC0415
    from mtcompute.metrics.chrf.corpus import CorpusChrf  # noqa: PLC0415
    from mtcompute.metrics.chrf.score import ChrfOptions  # noqa: PLC0415
    from mtcompute.metrics.ter.corpus import CorpusTer  # noqa: PLC0415
    from mtcompute.metrics.ter.score import TerOptions  # noqa: PLC0415

    if metric == "bleu":
        bleu = cast(BleuOptions, options["bleu"])
        tokenizer = bleu.tokenizer().signature
        return CorpusBleu.from_statistics(cast("list[int]", totals), bleu, tokenizer, nrefs)
    if metric == "ter":
        ter = cast(TerOptions, options["ter"])
        return CorpusTer.from_statistics(cast("list[tuple[int, float]]", totals), ter, nrefs)
    base = cast(ChrfOptions, options["chrf"])
    chrf = ChrfOptions(beta=base.beta, lowercase=base.lowercase, word_order=WORD_ORDERS[metric])
    return CorpusChrf.from_statistics(cast("list[int]", totals), chrf, "sacrebleu", nrefs)


def _tested_signature(result: Result, settings: _Settings) -> str:
    """The result's signature with the test's fields (``nrefs:1|bs:1000|seed:12345|...``)."""
    from mtcompute.metrics._base import format_signature  # noqa: PLC0415
    from mtcompute.metrics.bleu.corpus import CorpusBleu  # noqa: PLC0415
    from mtcompute.metrics.bleu.score import bleu_signature_fields  # noqa: PLC0415
    from mtcompute.metrics.chrf.corpus import CorpusChrf  # noqa: PLC0415
    from mtcompute.metrics.chrf.score import chrf_signature_fields  # noqa: PLC0415
    from mtcompute.metrics.ter.score import ter_signature_fields  # noqa: PLC0415
    from mtcompute.metrics.wer.corpus import CorpusWer  # noqa: PLC0415

    if isinstance(result, CorpusWer):  # WER's own fields, then the test's
        own = result.signature.rsplit("|mtcompute:", 1)[0]
        test = settings.signature_fields()
        fields = "|".join(f"{key}:{test[key]}" for key in ("ar", "bs", "seed") if key in test)
        return f"{own}|{fields}|mtcompute:{__version__}"
    if isinstance(result, CorpusBleu):
        found = bleu_signature_fields(result.options, result.nrefs, result.tokenizer_signature)
    elif isinstance(result, CorpusChrf):
        found = chrf_signature_fields(result.options, result.nrefs)
    else:  # TER
        found = ter_signature_fields(result.options, result.nrefs)
    return f"{format_signature(found | settings.signature_fields())}|mtcompute:{__version__}"


def _tested_line(result: Result, test: TestResult, settings: _Settings, baseline: bool) -> str:
    """sacreBLEU's ``--confidence`` line (``= 37.79 (μ = 37.80 ± 0.99)``, then BLEU's
    verbose part) with the test's signature; then, in a paired test, ``(baseline)`` or
    ``p = 0.0310`` and ``*`` when p <= 0.05."""
    from mtcompute.metrics.bleu.corpus import CorpusBleu  # noqa: PLC0415

    interval = "" if test.mean is None else f" (μ = {test.mean:.2f} ± {test.ci:.2f})"
    verbose = f" {result.verbose}" if isinstance(result, CorpusBleu) else ""
    line = f"{result.name}|{_tested_signature(result, settings)} = {result.score_text}"
    line += f"{interval}{verbose}"
    if settings.method is None:
        return line
    if baseline:
        return f"{line}  (baseline)"
    return f"{line}  p = {test.p_value:.4f}{'*' if is_significant(test.p_value) else ''}"
