"""sacreBLEU 2.6.0's ``metrics/ter.py``: translation edit rate (Snover et al. 2006, §2-3:
edits with greedy block shifts over tercom's tokenization), as a thin facade over
:mod:`mtcompute.metrics` (options, signature fields, the statistics through the TER kernel,
score).

Per segment: the fewest edits over its references and the mean of their lengths, each line
right-stripped and tokenized (a reference twice, as sacreBLEU's reference cache and
``_extract_reference_info`` both do, a hypothesis once) and split on whitespace; corpus TER is
total edits over the total of the mean reference lengths
(:func:`mtcompute.metrics.ter.score.ter_score`).

The ``references=`` cache keeps the references preprocessed
(:func:`mtcompute.metrics.ter.score.ter_references`), so that scoring several systems against it
tokenizes the references once, as sacreBLEU's cache intends; references given to
``corpus_score`` are tokenized for that call. Constructor arguments are sacreBLEU's and, as
there, not checked: a true value is on (and ``TER(normalized=1)`` prints ``norm:1`` in its
signature as sacreBLEU's does). As in sacreBLEU, the switches choose the tokenizer when the
metric is built: changing one afterwards (``ter.case_sensitive = True``) changes the
signature, not the score. A replaced ``tokenizer`` (any callable), or a subclass that
replaces one of sacreBLEU's hooks, is scored by sacreBLEU's path
(:mod:`mtcompute.sacrebleu.metrics.base`).
"""

from __future__ import annotations

__all__ = ["TER", "TERScore", "TERSignature"]

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mtcompute.metrics import _base as score_line
from mtcompute.metrics.ter import edits as ter
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.sacrebleu.metrics.base import Metric, Score, Signature
from mtcompute.sacrebleu.metrics.lib_ter import translation_edit_rate
from mtcompute.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

if TYPE_CHECKING:  # imported when resampling (numpy)
    from mtcompute import significance

_FIELDS = ("case", "tok", "norm", "punct", "asian")
"""TER's own signature fields, after the shared ones."""


def _options(args: Mapping[str, Any]) -> ter_scoring.TerOptions:
    """The :class:`mtcompute.metrics.ter.score.TerOptions` of a TER's attributes."""
    return ter_scoring.TerOptions(
        normalized=bool(args["normalized"]),
        no_punct=bool(args["no_punct"]),
        asian_support=bool(args["asian_support"]),
        case_sensitive=bool(args["case_sensitive"]),
    )


class TERSignature(Signature):
    """TER's signature: ``nrefs``, ``case``, ``tok``, ``norm``, ``punct``, ``asian``,
    ``version`` (short keys ``#``, ``c``, ``t``, ``nr``, ``pn``, ``as``, ``v``)."""

    def __init__(self, args: Mapping[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({key: ter_scoring.TER_ABBREVIATIONS[key] for key in _FIELDS})
        self._metric_fields(ter_scoring.ter_signature_fields(_options(args), self.info["nrefs"]))
        # sacreBLEU prints these two as given (yes/no for bools, the value itself otherwise)
        self.info["norm"] = args["normalized"]
        self.info["asian"] = args["asian_support"]

    def format(self, short: bool = False) -> str:
        """The signature string (TER's short field names when ``short``)."""
        return score_line.format_signature(
            self.info, short=short, abbreviations=ter_scoring.TER_ABBREVIATIONS
        )


class TERScore(Score):
    """A TER score: ``score`` (0-100, more is worse), ``num_edits`` (the total, an int) and
    ``ref_length`` (the total of the segments' mean reference lengths, a float)."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length


class TER(Metric[TERScore]):
    """Translation edit rate (TER) with sacreBLEU 2.6.0's arguments and defaults.

    :param normalized: tercom's normalization (punctuation apart, entities decoded; with
        ``asian_support``, CJK characters apart).
    :param no_punct: remove punctuation (with ``asian_support``, CJK punctuation too).
    :param asian_support: the CJK steps of ``normalized`` and ``no_punct``.
    :param case_sensitive: do not lowercase.
    :param references: reference streams to keep, tokenized, for ``corpus_score(hyps, None)``.
    """

    _SIGNATURE_TYPE: ClassVar[type[Signature]] = TERSignature
    _CACHE_STATE = ("tokenizer",)
    _SUMMED_IN_ORDER = True  # the reference lengths are floats

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer: Callable[[str], str] = TercomTokenizer(
            normalized=normalized,
            no_punct=no_punct,
            asian_support=asian_support,
            case_sensitive=case_sensitive,
        )
        self.tokenizer_signature = "tercom"  # TercomTokenizer.signature()
        self._ref_words: ter_scoring.TerReferences | None = None

        self._keep_references(references)
        if self._ref_cache is not None:  # the cache, also kept tokenized
            self._ref_words = ter_scoring.ter_references(self._ref_cache, self._counting())

    def _options(self) -> ter_scoring.TerOptions:
        return _options(self.__dict__)

    def _counting(self) -> ter_scoring.TerOptions:
        """The options of the tokenizer, which count (the attributes only sign)."""
        tokenizer = self.tokenizer
        assert isinstance(tokenizer, TercomTokenizer)  # else sacreBLEU's path
        return _options(
            {
                "normalized": tokenizer._normalized,
                "no_punct": tokenizer._no_punct,
                "asian_support": tokenizer._asian_support,
                "case_sensitive": tokenizer._case_sensitive,
            }
        )

    def _kernel_takes(self) -> bool:
        return type(self.tokenizer) is TercomTokenizer

    # --- sacreBLEU's hooks (its path: see mtcompute.sacrebleu.metrics.base) ---------------

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        """Each reference's words, preprocessed (again: sacreBLEU's cache already did)."""
        return {"ref_words": [self._preprocess_segment(ref).split() for ref in refs]}

    def _compute_segment_statistics(
        self, hypothesis: str, ref_kwargs: dict[str, Any]
    ) -> list[float]:
        """``[fewest edits over the references, mean reference length]``."""
        ref_lengths = 0
        best_num_edits = int(1e16)
        words_hyp = hypothesis.split()
        ref_words = ref_kwargs["ref_words"]
        for words_ref in ref_words:
            num_edits, ref_len = translation_edit_rate(words_hyp, words_ref)
            ref_lengths += ref_len
            best_num_edits = min(best_num_edits, num_edits)
        return [best_num_edits, ref_lengths / len(ref_words)]

    def _preprocess_segment(self, sent: str) -> str:
        """A line as TER compares it: right-stripped, then tokenized."""
        return self.tokenizer(sent.rstrip())

    def _statistics(
        self, hypotheses: Sequence[str], references: list[list[str]], per_segment: bool
    ) -> tuple[list[Any], list[list[Any]] | None]:
        if self._ref_words is not None and references is self._ref_cache:
            prepared = self._ref_words
        else:
            prepared = ter_scoring.ter_references(references, self._counting())
        segments = ter_scoring.ter_statistics_of(hypotheses, prepared)
        total = list(ter.sum_statistics(segments))
        return total, ([list(segment) for segment in segments] if per_segment else None)

    def _compute_score_from_stats(self, stats: Sequence[Any]) -> TERScore:
        """The TER score of summed statistics ``[total edits, total reference length]``."""
        result = ter_scoring.ter_score(stats[0], stats[1])
        return TERScore(result.score, result.num_edits, result.ref_length)

    def _significance_metric(self) -> significance.Metric:
        """TER's scoring of summed statistics for :mod:`mtcompute.significance`."""
        # Imported here: numpy only when resampling (see Metric.corpus_score).
        from mtcompute import significance  # noqa: PLC0415

        return significance.TerMetric(self._options())

    def get_signature(self) -> TERSignature:
        """``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` and the
        like."""
        return TERSignature(self.__dict__)
