"""chrF (Popović 2015 §2) and chrF++ (Popović 2017 §2) under sacreBLEU 2.6.0's rules, from raw
text: its ``CHRF`` settings, references prepared once, segment statistics (each segment's from
the reference with the best sentence chrF, the first of equals:
:mod:`mtcompute.metrics.chrf.sacrebleu_statistics`), the corpus score of their sums by its
floating-point steps (:func:`~mtcompute.metrics.chrf.sacrebleu_statistics.chrf_f_score`), the
result and its signature fields.

Statistics are sacreBLEU's flat lists, ``[n_hyp, n_ref, n_match]`` per order, character orders
first. ``references[i]`` holds the one or more reference strings of segment ``i`` (the
per-segment layout of the catalog). Nothing here validates: the callers check their arguments
(field types, or sacreBLEU's own checks in the facade) before calling.
"""

from __future__ import annotations

__all__ = [
    "ChrfOptions",
    "ChrfReferences",
    "ChrfResult",
    "chrf_references",
    "chrf_rows_of",
    "chrf_score",
    "chrf_signature_fields",
    "chrf_statistics",
    "chrf_statistics_of",
    "corpus_chrf",
]

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from mtcompute import streaming
from mtcompute.metrics._base import Formatted, common_fields, summed_in_chunks
from mtcompute.metrics.chrf.sacrebleu_statistics import (
    chrf_f_score,
    sacrebleu_chrf_rows,
    sacrebleu_chrf_statistics,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ChrfOptions:
    """sacreBLEU's ``CHRF`` settings, with its names and defaults."""

    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    @property
    def order(self) -> int:
        """Character orders plus word orders."""
        return self.char_order + self.word_order

    def corpus_keywords(self) -> dict[str, Any]:
        """These settings as the corpus API's keywords
        (:func:`mtcompute.metrics.chrf.corpus.corpus_chrf`, whose character order is 6)."""
        return {
            "word_order": self.word_order,
            "beta": self.beta,
            "lowercase": self.lowercase,
            "whitespace": self.whitespace,
            "eps_smoothing": self.eps_smoothing,
        }

    def counted(self, count: Callable[..., T], *texts: Any, **extra: Any) -> T:
        """``count`` (a counting function of
        :mod:`~mtcompute.metrics.chrf.sacrebleu_statistics`) of ``texts`` with these orders,
        beta, whitespace and eps_smoothing (and its other keywords, ``extra``)."""
        return count(
            *texts,
            self.char_order,
            self.word_order,
            self.beta,
            whitespace=self.whitespace,
            eps_smoothing=self.eps_smoothing,
            **extra,
        )


@dataclass(frozen=True, slots=True)
class ChrfResult(Formatted):
    """What sacreBLEU's ``CHRFScore`` holds, and its strings."""

    score: float
    char_order: int
    word_order: int
    beta: int

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++``: beta, then one ``+`` per word order."""
        return f"chrF{self.beta}" + "+" * self.word_order


def chrf_signature_fields(options: ChrfOptions, nrefs: int | str) -> dict[str, object]:
    """sacreBLEU's ``CHRFSignature.info`` for these options, in its order."""
    return common_fields(nrefs) | {
        "case": "lc" if options.lowercase else "mixed",
        "eff": "yes" if not options.eps_smoothing else "no",
        "nc": options.char_order,
        "nw": options.word_order,
        "space": "yes" if options.whitespace else "no",
    }


@dataclass(frozen=True, slots=True)
class ChrfReferences:
    """References prepared once for many hypothesis sets (sacreBLEU's reference cache,
    ``CHRF(references=...)``): per segment, each reference lowercased when the options ask.
    Made by :func:`chrf_references`; ``texts`` are lists, so that each system's counting
    checks them in one kernel call (:func:`mtcompute.counting.plain_texts`), and never
    changed."""

    texts: list[list[str]]
    options: ChrfOptions


def chrf_references(references: Sequence[Sequence[str]], options: ChrfOptions) -> ChrfReferences:
    """``references`` (per segment, one or more strings) prepared as sacreBLEU's CHRF
    prepares references, for :func:`chrf_statistics_of`."""
    if options.lowercase:
        return ChrfReferences(
            [[text.lower() for text in segment] for segment in references], options
        )
    return ChrfReferences([list(segment) for segment in references], options)


def chrf_statistics_of(
    hypotheses: Sequence[str], references: ChrfReferences, *, per_segment: bool = False
) -> tuple[list[int], list[list[int]] | None]:
    """:func:`chrf_statistics` against references prepared by :func:`chrf_references`
    (their options apply to the hypotheses too)."""
    return references.options.counted(
        sacrebleu_chrf_statistics,
        _chrf_hypotheses(hypotheses, references),
        references.texts,
        per_segment=per_segment,
    )


def chrf_rows_of(hypotheses: Sequence[str], references: ChrfReferences) -> tuple[list[int], bytes]:
    """:func:`chrf_statistics_of` per segment, each segment's statistics (the same numbers) as
    one buffer of native int64 values, ``3 * (char_order + word_order)`` a segment
    (:func:`~mtcompute.metrics.chrf.sacrebleu_statistics.sacrebleu_chrf_rows`): no list per
    segment."""
    return references.options.counted(
        sacrebleu_chrf_rows, _chrf_hypotheses(hypotheses, references), references.texts
    )


def _chrf_hypotheses(hypotheses: Sequence[str], references: ChrfReferences) -> Sequence[str]:
    """The hypotheses prepared as the references were (lowercased when the options ask)."""
    if len(hypotheses) != len(references.texts):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references.texts)} reference lists "
            "(one list per segment expected)"
        )
    return [text.lower() for text in hypotheses] if references.options.lowercase else hypotheses


def chrf_statistics(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    options: ChrfOptions,
    *,
    per_segment: bool = False,
) -> tuple[list[int], list[list[int]] | None]:
    """The summed statistics and, with ``per_segment``, each segment's, as sacreBLEU's
    ``CHRF`` extracts them (each segment's from its best reference; for many hypothesis sets
    against the same references: :func:`chrf_references` and :func:`chrf_statistics_of`, the
    same numbers). Iterables that are not lists or tuples are read in chunks, in bounded
    memory without ``per_segment``."""
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):

        def count(
            hyps: Sequence[str], refs: Sequence[Sequence[str]]
        ) -> tuple[list[int], list[list[int]] | None]:
            return chrf_statistics(hyps, refs, options, per_segment=per_segment)

        return summed_in_chunks(count, hypotheses, references)
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    return options.counted(
        sacrebleu_chrf_statistics,
        hypotheses,
        references,
        lowercase=options.lowercase,
        per_segment=per_segment,
    )


def chrf_score(statistics: Sequence[int], options: ChrfOptions) -> ChrfResult:
    """sacreBLEU's ``CHRF._compute_score_from_stats`` of summed statistics."""
    score = chrf_f_score(statistics, options.order, options.beta, options.eps_smoothing)
    return ChrfResult(score, options.char_order, options.word_order, options.beta)


def corpus_chrf(
    hypotheses: Iterable[str], references: Iterable[Sequence[str]], options: ChrfOptions
) -> ChrfResult:
    """Corpus chrF (chrF++ with ``word_order=2``) as sacreBLEU's ``CHRF(...).corpus_score``.

    >>> corpus_chrf(["aa"], [["ab"]], ChrfOptions()).format()
    'chrF2 = 25.00'
    """
    total, _ = chrf_statistics(hypotheses, references, options)
    return chrf_score(total, options)
