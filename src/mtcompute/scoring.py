"""sacreBLEU-exact BLEU from raw text: the one path of every surface that promises sacreBLEU
2.6.0's numbers (the sacrebleu-score tool, ``mtcompute.sacrebleu``, ``mtcompute sacrebleu``
and ``mtcompute score``).

Each metric is sacreBLEU's seam: statistics per segment (integers, exact; the kernel through
:mod:`mtcompute.counting`), summed, then scored by sacreBLEU's floating-point steps
(:mod:`mtcompute.core.sacre`). Results format themselves as sacreBLEU's ``Score.format``
does, and signatures are sacreBLEU's ``Signature.format`` strings.

Statistics are sacreBLEU's flat lists: BLEU ``[sys_len, ref_len, correct_1..N, total_1..N]``.
``references[i]`` holds the one or more reference strings of segment ``i`` (the per-segment
layout of the catalog).

Nothing here validates: the callers check their arguments (field types, or sacreBLEU's own
checks in the facade) before calling.

chrF and chrF++ live in :mod:`mtcompute.metrics.chrf.score`, TER in
:mod:`mtcompute.metrics.ter.score` and the score line and signature strings in
:mod:`mtcompute.metrics._base`; the TER and signature names are bound here too while the
tools, the report and the sacreBLEU facade still call them ``scoring.*``.
"""

from __future__ import annotations

__all__ = [
    "SACREBLEU_VERSION",
    "TER_ABBREVIATIONS",
    "BleuOptions",
    "BleuReferences",
    "BleuResult",
    "ChrfOptions",  # re-exported for cli/
    "TerOptions",
    "TerReferences",
    "TerResult",
    "bleu_references",
    "bleu_rows_of",
    "bleu_score",
    "bleu_signature_fields",
    "bleu_statistics",
    "bleu_statistics_of",
    "chrf_signature_fields",  # re-exported for cli/
    "corpus_bleu",
    "corpus_ter",
    "format_score",
    "format_signature",
    "ter_references",
    "ter_score",
    "ter_signature_fields",
    "ter_statistics",
    "ter_statistics_of",
    "ter_texts",
]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from mtcompute import counting, native, streaming
from mtcompute.core import sacre
from mtcompute.core.bleu import BleuStatistics
from mtcompute.metrics._base import (
    SACREBLEU_VERSION,
    Formatted,
    common_fields,
    format_score,
    format_signature,
    summed_in_chunks,
)

# re-exported for cli/ until it imports from metrics.chrf
from mtcompute.metrics.chrf.score import ChrfOptions, chrf_signature_fields
from mtcompute.metrics.ter.score import (
    TER_ABBREVIATIONS,
    TerOptions,
    TerReferences,
    TerResult,
    corpus_ter,
    ter_references,
    ter_score,
    ter_signature_fields,
    ter_statistics,
    ter_statistics_of,
    ter_texts,
)
from mtcompute.tokenizers import Tokenizer, get_tokenizer

# --- BLEU ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BleuOptions:
    """sacreBLEU's ``BLEU`` settings, with its names and defaults (``tokenize`` resolved)."""

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_ngram_order: int = 4
    effective_order: bool = False

    def tokenizer(self) -> Tokenizer:
        """A new tokenizer of this name (:func:`mtcompute.tokenizers.get_tokenizer`)."""
        return get_tokenizer(self.tokenize)


@dataclass(frozen=True, slots=True)
class BleuResult(Formatted):
    """What sacreBLEU's ``BLEUScore`` holds, and its strings."""

    score: float
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int

    name = "BLEU"

    @property
    def prec_str(self) -> str:
        """The precisions with one decimal, joined by ``/``."""
        return "/".join([f"{p:.1f}" for p in self.precisions])

    @property
    def ratio(self) -> float:
        """sys_len / ref_len (0 when ref_len is 0)."""
        return self.sys_len / self.ref_len if self.ref_len else 0

    @property
    def verbose(self) -> str:
        """What sacreBLEU prints after the score: precisions, BP, ratio and lengths."""
        return (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


def bleu_signature_fields(
    options: BleuOptions, nrefs: int | str, tokenizer_signature: str
) -> dict[str, object]:
    """sacreBLEU's ``BLEUSignature.info`` for these options, in its order."""
    smooth = options.smooth_method
    default = sacre.SMOOTH_DEFAULTS[smooth]
    if default is not None:
        value = default if options.smooth_value is None else options.smooth_value
        smooth += f"[{value:.2f}]"
    return common_fields(nrefs) | {
        "case": "lc" if options.lowercase else "mixed",
        "eff": "yes" if options.effective_order else "no",
        "tok": tokenizer_signature,
        "smooth": smooth,
    }


def _flat_bleu(stats: BleuStatistics) -> list[int]:
    return [stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals]


@dataclass(frozen=True, slots=True)
class BleuReferences:
    """References prepared once for many hypothesis sets (sacreBLEU's reference cache,
    ``BLEU(references=...)``): per segment, each reference lowercased when the options ask,
    and tokenized (``tokenizer(text.rstrip())``) when ``tokenized``: for a tokenizer that the
    kernel does not apply itself (intl, zh, char, the MeCab ones, or any without the
    kernel), which would otherwise tokenize the references again for each system. Made by
    :func:`bleu_references`."""

    texts: tuple[tuple[str, ...], ...]
    options: BleuOptions
    tokenizer: Tokenizer
    tokenized: bool


def _kernel_tokenizes(tokenizer: Tokenizer) -> bool:
    """Whether the kernel applies this tokenizer itself while it counts."""
    return tokenizer.kernel in counting.KERNEL_TOKENIZERS and native.active()


def _bleu_texts(
    lines: Sequence[str], options: BleuOptions, tokenizer: Tokenizer, tokenized: bool
) -> list[str]:
    """sacreBLEU's BLEU preprocessing up to where the kernel takes over: ``str.lower`` when
    asked, then ``tokenizer(text.rstrip())`` when ``tokenized``."""
    texts = [line.lower() for line in lines] if options.lowercase else list(lines)
    return [tokenizer(text.rstrip()) for text in texts] if tokenized else texts


def bleu_references(
    references: Sequence[Sequence[str]],
    options: BleuOptions,
    *,
    tokenizer: Tokenizer | None = None,
) -> BleuReferences:
    """``references`` (per segment, one or more strings) prepared as sacreBLEU's BLEU
    prepares references, for :func:`bleu_statistics_of` (``tokenizer``: an instance of
    ``options.tokenize`` to use, else a new one)."""
    tokenizer = tokenizer if tokenizer is not None else options.tokenizer()
    tokenized = not _kernel_tokenizes(tokenizer)
    counts = [len(segment) for segment in references]
    flat = _bleu_texts(
        [line for segment in references for line in segment], options, tokenizer, tokenized
    )
    texts = []
    at = 0
    for count in counts:
        texts.append(tuple(flat[at : at + count]))
        at += count
    return BleuReferences(tuple(texts), options, tokenizer, tokenized)


def bleu_statistics_of(
    hypotheses: Sequence[str], references: BleuReferences, *, per_segment: bool = False
) -> tuple[list[int], list[list[int]] | None]:
    """:func:`bleu_statistics` against references prepared by :func:`bleu_references`
    (their options and tokenizer apply to the hypotheses too)."""
    texts, tokenizer = _bleu_hypotheses(hypotheses, references)
    total, each = counting.bleu_text_statistics(
        texts,
        references.texts,
        references.options.max_ngram_order,
        per_segment=per_segment,
        tokenizer=tokenizer,
    )
    return _flat_bleu(total), ([_flat_bleu(s) for s in each] if each is not None else None)


def bleu_rows_of(hypotheses: Sequence[str], references: BleuReferences) -> tuple[list[int], bytes]:
    """:func:`bleu_statistics_of` per segment, each segment's statistics (the same numbers)
    as one buffer of native int64 values, ``2 + 2 * max_ngram_order`` a segment
    (:func:`mtcompute.counting.bleu_text_rows`): no Python object per segment."""
    texts, tokenizer = _bleu_hypotheses(hypotheses, references)
    total, rows = counting.bleu_text_rows(
        texts, references.texts, references.options.max_ngram_order, tokenizer=tokenizer
    )
    return _flat_bleu(total), rows


def _bleu_hypotheses(
    hypotheses: Sequence[str], references: BleuReferences
) -> tuple[Sequence[str], Tokenizer | None]:
    """The hypotheses prepared as the references were, and the tokenizer left to apply."""
    if len(hypotheses) != len(references.texts):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references.texts)} reference lists "
            "(one list per segment expected)"
        )
    texts = _bleu_texts(hypotheses, references.options, references.tokenizer, references.tokenized)
    return texts, None if references.tokenized else references.tokenizer


def bleu_statistics(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    options: BleuOptions,
    *,
    per_segment: bool = False,
    tokenizer: Tokenizer | None = None,
) -> tuple[list[int], list[list[int]] | None]:
    """The summed statistics and, with ``per_segment``, each segment's, as sacreBLEU's
    ``BLEU`` extracts them: ``str.lower`` if asked, ``rstrip``, the tokenizer, ``split``
    (for many hypothesis sets against the same references: :func:`bleu_references` and
    :func:`bleu_statistics_of`, the same numbers). Iterables that are not lists or tuples
    are read in chunks, in bounded memory without ``per_segment``."""
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        chosen = tokenizer if tokenizer is not None else options.tokenizer()

        def count(
            hyps: Sequence[str], refs: Sequence[Sequence[str]]
        ) -> tuple[list[int], list[list[int]] | None]:
            return bleu_statistics(hyps, refs, options, per_segment=per_segment, tokenizer=chosen)

        return summed_in_chunks(count, hypotheses, references)
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    total, each = counting.bleu_text_statistics(
        hypotheses,
        references,
        options.max_ngram_order,
        per_segment=per_segment,
        tokenizer=tokenizer if tokenizer is not None else options.tokenizer(),
        lowercase=options.lowercase,
    )
    return _flat_bleu(total), ([_flat_bleu(s) for s in each] if each is not None else None)


def bleu_score(statistics: Sequence[int | float], options: BleuOptions) -> BleuResult:
    """sacreBLEU's ``BLEU._compute_score_from_stats`` of summed statistics."""
    n = options.max_ngram_order
    parts = sacre.compute_bleu(
        statistics[2 : 2 + n],
        statistics[2 + n :],
        int(statistics[0]),
        int(statistics[1]),
        options.smooth_method,
        options.smooth_value,
        options.effective_order,
        n,
    )
    return BleuResult(
        parts.score,
        parts.counts,
        parts.totals,
        parts.precisions,
        parts.bp,
        parts.sys_len,
        parts.ref_len,
    )


def corpus_bleu(
    hypotheses: Iterable[str], references: Iterable[Sequence[str]], options: BleuOptions
) -> BleuResult:
    """Corpus BLEU as sacreBLEU's ``BLEU(...).corpus_score`` gives it.

    >>> corpus_bleu(["The cat sat on the mat."], [["The cat sat on the mat."]], BleuOptions())
    ... # doctest: +ELLIPSIS
    BleuResult(score=100.0000...
    """
    total, _ = bleu_statistics(hypotheses, references, options)
    return bleu_score(total, options)
