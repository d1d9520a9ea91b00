"""sacreBLEU 2.6.0's ``metrics/chrf.py``: chrF (Popović 2015) and chrF++ (Popović 2017, with
``word_order=2``), sacreBLEU's corpus rule (statistics summed over segments, each segment's
from its best reference) and its two smoothings (effective order by default,
``eps_smoothing`` as chrF++.py), as a thin facade over :mod:`mtcompute.metrics.chrf.score`.

sacreBLEU checks none of the constructor's arguments; the facade refuses at once the values it
cannot score (orders that are not ints or are negative, no order at all, a ``beta`` that is
not a number or is negative), with :class:`~mtcompute.sacrebleu._errors.ArgumentError` or
``TypeError``. A float ``beta`` is taken, as sacreBLEU takes it (``chrF0.5``).
"""

from __future__ import annotations

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mtcompute.metrics._base import ABBREVIATIONS
from mtcompute.metrics.chrf.sacrebleu_statistics import chrf_f_score
from mtcompute.metrics.chrf.score import (
    ChrfOptions,
    ChrfResult,
    chrf_score,
    chrf_signature_fields,
    chrf_statistics,
)
from mtcompute.sacrebleu._errors import ArgumentError
from mtcompute.sacrebleu.metrics.base import Metric, Score, Signature

if TYPE_CHECKING:  # imported when resampling (numpy)
    from mtcompute import significance


def _options(args: Mapping[str, Any]) -> ChrfOptions:
    """The :class:`mtcompute.metrics.chrf.score.ChrfOptions` of a CHRF's attributes."""
    return ChrfOptions(
        char_order=args["char_order"],
        word_order=args["word_order"],
        beta=args["beta"],
        lowercase=bool(args["lowercase"]),
        whitespace=bool(args["whitespace"]),
        eps_smoothing=bool(args["eps_smoothing"]),
    )


class CHRFSignature(Signature):
    """chrF's signature: ``nrefs``, ``case``, ``eff``, ``nc``, ``nw``, ``space``, ``version``."""

    def __init__(self, args: Mapping[str, Any]) -> None:
        super().__init__(args)
        fields = ("case", "eff", "nc", "nw", "space")
        self._abbr.update({key: ABBREVIATIONS[key] for key in fields})
        self._metric_fields(chrf_signature_fields(_options(args), self.info["nrefs"]))


class CHRFScore(Score):
    """A chrF score: ``score`` (0-100), ``char_order``, ``word_order``, ``beta``; its name
    is ``chrF2``, ``chrF2++`` and the like."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        result = ChrfResult(score=score, char_order=char_order, word_order=word_order, beta=beta)
        super().__init__(result.name, score)


class CHRF(Metric[CHRFScore]):
    """chrF and chrF++ with sacreBLEU 2.6.0's arguments and defaults.

    :param char_order: the highest character n-gram order (6).
    :param word_order: the highest word n-gram order (0; 2 for chrF++).
    :param beta: the weight of recall over precision (2).
    :param lowercase: lowercase hypotheses and references first.
    :param whitespace: keep whitespace in the character n-grams.
    :param eps_smoothing: chrF++.py's epsilon smoothing instead of the effective order.
    :param references: reference streams to keep for ``corpus_score(hyps, None)``.
    """

    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _SIGNATURE_TYPE: ClassVar[type[Signature]] = CHRFSignature

    def __init__(
        self,
        char_order: int = CHAR_ORDER,
        word_order: int = WORD_ORDER,
        beta: int = BETA,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        _check_order("char_order", char_order)
        _check_order("word_order", word_order)
        if char_order + word_order < 1:
            raise ArgumentError(
                "CHRF: char_order + word_order should be at least 1, got "
                f"{char_order} + {word_order}."
            )
        if isinstance(beta, bool) or not isinstance(beta, int | float):
            raise TypeError(f"CHRF: beta should be a number, got {type(beta).__name__}.")
        if beta < 0:
            raise ArgumentError(f"CHRF: beta should be at least 0, got {beta}.")
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = self.char_order + self.word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing

        self._keep_references(references)

    def _options(self) -> ChrfOptions:
        return _options(self.__dict__)

    def _compute_f_score(self, statistics: Sequence[int]) -> float:
        """chrF of flat ``[n_hyp, n_ref, n_match] * order`` statistics (0-100)."""
        return chrf_f_score(list(statistics), self.order, self.beta, self.eps_smoothing)

    def _statistics(
        self, hypotheses: Sequence[str], references: list[list[str]], per_segment: bool
    ) -> tuple[list[int], list[list[int]] | None]:
        return chrf_statistics(hypotheses, references, self._options(), per_segment=per_segment)

    def _compute_score_from_stats(self, stats: Sequence[int]) -> CHRFScore:
        """The chrF score of corpus statistics."""
        result = chrf_score(list(stats), self._options())
        return CHRFScore(result.score, self.char_order, self.word_order, self.beta)

    def _significance_metric(self) -> significance.Metric:
        """CHRF's scoring of summed statistics for :mod:`mtcompute.significance`."""
        # Imported here: numpy only when resampling (see Metric.corpus_score).
        from mtcompute.metrics.chrf.resample import ChrfMetric  # noqa: PLC0415

        return ChrfMetric(self._options())

    def get_signature(self) -> CHRFSignature:
        """``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`` and the like."""
        return CHRFSignature(self.__dict__)


def _check_order(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"CHRF: {name} should be an int, got {type(value).__name__}.")
    if value < 0:
        raise ArgumentError(f"CHRF: {name} should be at least 0, got {value}.")
