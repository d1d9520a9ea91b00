"""The library's corpus chrF and chrF++ (Popović 2015 §2; 2017 §2, ``word_order=2``), any
size, and all-pairs sentence chrF for MBR decoding: :func:`corpus_chrf` (the public
:func:`mtcompute.corpus_chrf`), :func:`corpus_chrf_lines`, :func:`chrf_pairwise`.

Two families of rules (docs/decisions.md, "Two families of rules"), one score scale, a float
0..100:

* ``rules="sacrebleu"`` (the default) is sacreBLEU 2.6.0's ``CHRF(...).corpus_score``
  (:mod:`mtcompute.metrics.chrf.score`): each segment counted against its best reference (the
  one with the highest sentence chrF, the first of equals), the counts summed, then
  sacreBLEU's float steps;
* ``rules="contract"`` is the catalog contracts' corpus rule (chrf-compute,
  chrf-plus-plus-compute; :mod:`mtcompute.metrics.chrf.statistics`): one reference per
  segment, the per-order counts summed literally, one exact fraction
  (:func:`~mtcompute.metrics.chrf.ngrams.chrf_ratio`), its nearest float the score.

These are the library forms of the tools, without the service limits but with their
behaviour rules, checked by field types declared once (:mod:`mtcompute.contracts.fields`,
:mod:`mtcompute.metrics._arguments`, imported by the functions that take them: the
``score`` command's :func:`corpus_chrf_lines` needs none), in the same words. Faults raise
:class:`~mtcompute.errors.InvalidInput` naming the field and index as a JSON Pointer.
References are laid out per segment (``references[i]`` is segment ``i``'s), flat (one string
each) or nested (one array of one or more strings each).
"""

from __future__ import annotations

__all__ = ["CHAR_ORDER", "CorpusChrf", "chrf_pairwise", "corpus_chrf", "corpus_chrf_lines"]

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

from mtcompute import streaming
from mtcompute.errors import InvalidInput
from mtcompute.metrics._corpus import (
    SummedCounts,
    added_up,
    chunk_scorer,
    nrefs_of,
    result_dict,
    row_scores,
    signature_of,
)
from mtcompute.metrics.chrf.ngrams import ChrfStatistics, chrf_ratio, format_ratio
from mtcompute.metrics.chrf.sacrebleu_statistics import sacrebleu_chrf_line_rows
from mtcompute.metrics.chrf.score import (
    ChrfOptions,
    chrf_score,
    chrf_signature_fields,
    chrf_statistics,
)
from mtcompute.metrics.chrf.statistics import (
    chrf_corpus_statistics,
    chrf_pairwise_matrix,
    chrf_totals,
)

CHAR_ORDER = 6
"""The character order of every corpus chrF here (sacreBLEU's default, the contracts')."""


# --- the result ------------------------------------------------------------------------------


def _flat_chrf(stats: ChrfStatistics) -> tuple[int, ...]:
    """sacreBLEU's layout of chrF statistics: ``[n_hyp, n_ref, n_match]`` per order."""
    flat: list[int] = []
    for h, r, m in zip(stats.hypothesis, stats.reference, stats.matches, strict=True):
        flat += (h, r, m)
    return tuple(flat)


def _chrf_stats(flat: Sequence[int]) -> ChrfStatistics:
    """The per-order statistics of sacreBLEU's flat layout."""
    return ChrfStatistics(tuple(flat[0::3]), tuple(flat[1::3]), tuple(flat[2::3]))


def _ratio_float(stats: ChrfStatistics, beta: int) -> float:
    numerator, denominator = chrf_ratio(stats, beta)
    return numerator / denominator  # int / int is correctly rounded, as float(Fraction) is


@dataclass(frozen=True, slots=True)
class CorpusChrf(SummedCounts):
    """Corpus chrF or chrF++: ``score`` (a float, 0..100) and what it was computed from.

    ``statistics`` are the summed counts in sacreBLEU's layout (``[n_hyp, n_ref, n_match]``
    per order, character orders first); ``options`` the settings (sacreBLEU's names);
    ``rules`` ``"sacrebleu"`` or ``"contract"``; ``nrefs`` the references per segment (-1
    when it varies); ``segment_scores`` each segment's own score when asked for; ``fraction``
    the exact score under the contract rule (``None`` under sacreBLEU's, which is float
    arithmetic). Two results of the same settings add up: ``a + b`` is the result of the
    segments of both, in order.
    """

    METRIC = "chrF"

    score: float
    statistics: tuple[int, ...]
    options: ChrfOptions
    rules: str
    nrefs: int
    segment_scores: tuple[float, ...] | None = None
    fraction: Fraction | None = None

    @classmethod
    def from_statistics(
        cls,
        statistics: Sequence[int],
        options: ChrfOptions,
        rules: str,
        nrefs: int,
        segment_scores: tuple[float, ...] | None = None,
    ) -> CorpusChrf:
        """The result for summed ``statistics`` under ``rules``."""
        flat = tuple(statistics)
        if rules == "contract":
            numerator, denominator = chrf_ratio(_chrf_stats(flat), options.beta)
            fraction = Fraction(numerator, denominator)
            return cls(
                numerator / denominator, flat, options, rules, nrefs, segment_scores, fraction
            )
        score = chrf_score(flat, options).score
        return cls(score, flat, options, rules, nrefs, segment_scores)

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++``: beta, then one ``+`` per word order (sacreBLEU's names)."""
        return f"chrF{self.options.beta}" + "+" * self.options.word_order

    @property
    def score_text(self) -> str:
        """The score as the rules print it: the exact fraction to six decimals, ties to even,
        under the contract rule (``"64.640103"``); sacreBLEU's two decimals otherwise."""
        if self.fraction is not None:
            return format_ratio(self.fraction.numerator, self.fraction.denominator)
        return f"{self.score:.2f}"

    @property
    def signature(self) -> str:
        """sacreBLEU's signature of the settings (``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|
        space:no|version:2.6.0``), then ``rules:contract`` under the contract rule, then
        ``mtcompute:<version>``."""
        nrefs = self.nrefs
        return signature_of(chrf_signature_fields(self.options, nrefs), self.rules)

    def __str__(self) -> str:
        return f"{self.name}|{self.signature} = {self.score_text}"

    def to_dict(self) -> dict[str, object]:
        """The result as JSON-ready data (the ``score`` command's ``--format json``)."""
        fields: dict[str, object] = {
            "rules": self.rules,
            "char_order": self.options.char_order,
            "word_order": self.options.word_order,
            "beta": self.options.beta,
            "lowercase": self.options.lowercase,
            "whitespace": self.options.whitespace,
            "eps_smoothing": self.options.eps_smoothing,
            "nrefs": self.nrefs if self.nrefs >= 0 else "var",
            "statistics": list(self.statistics),
        }
        if self.fraction is not None:
            fields["score_fraction"] = f"{self.fraction.numerator}/{self.fraction.denominator}"
        return result_dict(self, fields)

    @property
    def settings(self) -> tuple[object, ...]:
        """What two results must share to be added: the metric and its settings."""
        return (CorpusChrf, self.options, self.rules)


# --- corpus chrF -----------------------------------------------------------------------------


def _contract_rule_checks(
    references: Sequence[Sequence[str]], whitespace: bool, eps_smoothing: bool
) -> None:
    """What the contract rule does not define: several references, whitespace, eps."""
    why = 'rules "contract" is the chrf-compute contract\'s corpus rule'
    if whitespace:
        raise InvalidInput(
            f"Expected false at /whitespace ({why}, which removes whitespace), got true.",
            "/whitespace",
        )
    if eps_smoothing:
        raise InvalidInput(
            f"Expected false at /eps_smoothing ({why}, which averages over the effective "
            "orders), got true.",
            "/eps_smoothing",
        )
    for i, segment in enumerate(references):
        if len(segment) != 1:
            at = f"/references/{i}"
            raise InvalidInput(
                f"Expected one reference at {at} ({why}, one reference per segment; "
                f'rules "sacrebleu" takes several), got {len(segment)}.',
                at,
            )


def corpus_chrf(
    hypotheses: Iterable[str],
    references: Iterable[str] | Iterable[Sequence[str]],
    *,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    rules: str = "sacrebleu",
    segment_scores: bool = False,
) -> CorpusChrf:
    """Corpus chrF_beta (chrF++ with ``word_order=2``) of aligned segments.

    ``references`` is flat (one string per segment) or nested (a list of one or more
    strings per segment). ``rules="sacrebleu"`` (default) gives sacreBLEU 2.6.0's
    ``CHRF(word_order=..., beta=..., lowercase=..., whitespace=..., eps_smoothing=...)
    .corpus_score`` exactly (several references: the best one per segment);
    ``rules="contract"`` the chrf-compute (chrf-plus-plus-compute) contract's exact corpus
    fraction, one reference per segment, without whitespace and eps_smoothing. Segment
    scores are each segment's own chrF under the same rules.

    Validation, first fault wins: hypotheses (an array of str, at least one), references
    (flat or nested, at least one), equal counts, lone surrogates, word_order (0..4), beta
    (1..16), lowercase, whitespace, eps_smoothing, rules (what the contract rule does not
    take: whitespace, eps_smoothing, then a segment with several references),
    segment_scores.

    >>> print(corpus_chrf(["aa"], ["ab"], beta=3))  # doctest: +ELLIPSIS
    chrF3|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0|mtcompute:... = 25.00
    >>> corpus_chrf(["aa"], ["ab"], beta=3, rules="contract").fraction
    Fraction(25, 1)
    """
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        score = chunk_scorer(corpus_chrf, locals())  # the arguments alone: before any import
        from mtcompute.metrics._arguments import scored_chunks  # noqa: PLC0415

        return added_up(scored_chunks(score, hypotheses, references, unit=None, texts=True))
    # the argument layer, imported here: corpus_chrf_lines (the score command's) needs none
    from mtcompute.metrics import _arguments as given  # noqa: PLC0415

    # a list or a tuple from here on (anything else is refused by the checks below)
    hypotheses = cast("Sequence[str]", hypotheses)
    references = cast("Sequence[str] | Sequence[Sequence[str]]", references)
    refs = given.checked_texts(hypotheses, references, None)
    options = ChrfOptions(
        CHAR_ORDER,
        given.WORD_ORDER.parse(word_order, "/word_order"),
        given.BETA.parse(beta, "/beta"),
        given.FLAG.parse(lowercase, "/lowercase"),
        given.FLAG.parse(whitespace, "/whitespace"),
        given.FLAG.parse(eps_smoothing, "/eps_smoothing"),
    )
    rules = given.RULES.parse(rules, "/rules")
    if rules == "contract":
        _contract_rule_checks(refs, options.whitespace, options.eps_smoothing)
    with_segments = given.FLAG.parse(segment_scores, "/segment_scores")
    nrefs = nrefs_of(refs)
    if rules == "contract":
        return _contract_chrf(hypotheses, [segment[0] for segment in refs], options, with_segments)
    total, each = chrf_statistics(hypotheses, refs, options, per_segment=with_segments)
    scores = None
    if each is not None:
        scores = tuple(chrf_score(stats, options).score for stats in each)
    return CorpusChrf.from_statistics(total, options, rules, nrefs, scores)


def corpus_chrf_lines(
    hypotheses: bytes,
    references: Sequence[bytes],
    count: int,
    options: ChrfOptions,
    *,
    rules: str = "sacrebleu",
    segment_scores: bool = False,
) -> CorpusChrf | None:
    """:func:`corpus_chrf` with ``options`` (its ``char_order`` is 6 there) of ``count``
    undecoded lines, as :func:`mtcompute.metrics.bleu.corpus.corpus_bleu_lines` takes them,
    counted by the kernel without a str per text; ``None`` where it does not count them
    (lowercase, which is Python's ``str.lower``; the contract rule; lines it does not take):
    the caller decodes the lines and calls :func:`corpus_chrf`, which gives the same result.

    >>> found = corpus_chrf_lines(b"aa\\n", [b"ab\\n"], 1, ChrfOptions(beta=3))
    >>> found is None or found.score == corpus_chrf(["aa"], ["ab"], beta=3).score
    True
    """
    if options.lowercase or rules != "sacrebleu":
        return None
    options = replace(options, char_order=CHAR_ORDER)  # as corpus_chrf sets it
    found = options.counted(
        sacrebleu_chrf_line_rows, hypotheses, references, count, per_segment=segment_scores
    )
    if found is None:
        return None
    total, rows = found
    scores = row_scores(rows, 3 * options.order, lambda row: chrf_score(row, options).score)
    return CorpusChrf.from_statistics(total, options, rules, len(references), scores)


def _contract_chrf(
    hypotheses: Sequence[str],
    references: Sequence[str],
    options: ChrfOptions,
    with_segments: bool,
) -> CorpusChrf:
    """The contract rule: per-order counts of every segment summed literally (chrf-compute,
    chrf-plus-plus-compute), each segment's score the float of its exact fraction."""
    beta, lowercase = options.beta, options.lowercase
    scores: tuple[float, ...] | None
    if options.word_order == 0:
        total, scores = chrf_totals(
            hypotheses,
            references,
            CHAR_ORDER,
            lowercase,
            segment_beta=beta if with_segments else None,
        )
    else:
        total, each = chrf_corpus_statistics(
            hypotheses, references, CHAR_ORDER, options.word_order, lowercase
        )
        scores = tuple(_ratio_float(stats, beta) for stats in each) if with_segments else None
    return CorpusChrf.from_statistics(_flat_chrf(total), options, "contract", 1, scores)


# --- sentence chrF of every pair -------------------------------------------------------------


def chrf_pairwise(
    hypotheses: Sequence[str], references: Sequence[str], *, beta: int = 2
) -> list[list[float]]:
    """Sentence chrF_beta (0..100) of every hypothesis against every reference, for MBR.

    ``result[i][j]`` is the double nearest to the exact chrF of ``hypotheses[i]`` against
    ``references[j]`` (``float(chrf_fraction(segment_statistics(h, r), beta))``). Either list
    may be empty.

    >>> chrf_pairwise(["aa", "ab"], ["ab"], beta=3)
    [[25.0], [100.0]]
    """
    from mtcompute.metrics import _arguments as given  # noqa: PLC0415

    given.ANY_TEXTS.parse(hypotheses, "/hypotheses")
    given.ANY_TEXTS.parse(references, "/references")
    given.no_lone_surrogates(hypotheses, "hypotheses")
    given.no_lone_surrogates(references, "references")
    beta = given.BETA.parse(beta, "/beta")
    # the checked arguments themselves: the kernel shares the tables when they are one list
    return chrf_pairwise_matrix(hypotheses, references, beta, CHAR_ORDER)
