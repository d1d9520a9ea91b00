"""sacreBLEU 2.6.0's ``metrics/chrf.py``: chrF (Popović 2015) and chrF++ (Popović 2017, with
``word_order=2``), sacreBLEU's corpus rule (statistics summed over segments, each segment's
from its best reference) and its two smoothings (effective order by default,
``eps_smoothing`` as chrF++.py), as a thin facade over :mod:`mtcompute.metrics.chrf.score`.

sacreBLEU checks none of the constructor's arguments; the facade refuses at once orders that
are not integers and a ``beta`` that is not a number (``TypeError``). Values in no range the
kernel takes (a negative order or ``beta``, no order at all) are scored as sacreBLEU scores
them, errors included, by its path (:mod:`mtcompute.sacrebleu.metrics.base`), and so is a
subclass that replaces one of its hooks (``_remove_punctuation``, ``_compute_f_score``,
...). A float ``beta`` is taken, as sacreBLEU takes it (``chrF0.5``).
"""

from __future__ import annotations

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]

import numbers
import operator
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mtcompute.metrics._base import ABBREVIATIONS
from mtcompute.metrics.chrf.sacrebleu_statistics import chrf_f_score
from mtcompute.metrics.chrf.score import (
    ChrfOptions,
    ChrfResult,
    chrf_signature_fields,
    chrf_statistics,
)
from mtcompute.sacrebleu.metrics.base import Metric, Score, Signature, integral
from mtcompute.sacrebleu.metrics.helpers import extract_all_char_ngrams, extract_word_ngrams

if TYPE_CHECKING:  # imported when resampling (numpy)
    from mtcompute import significance


def _options(args: Mapping[str, Any]) -> ChrfOptions:
    """The :class:`mtcompute.metrics.chrf.score.ChrfOptions` of a CHRF's attributes."""
    beta = args["beta"]
    return ChrfOptions(
        char_order=operator.index(args["char_order"]),
        word_order=operator.index(args["word_order"]),
        beta=operator.index(beta) if integral(beta) else beta,
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
    _PUNCTS: ClassVar[set[str]] = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    _SIGNATURE_TYPE: ClassVar[type[Signature]] = CHRFSignature
    _CACHE_STATE = ("lowercase", "char_order", "word_order", "whitespace")
    _HOOKS = (
        *Metric._HOOKS,
        "_remove_punctuation",
        "_get_match_statistics",
        "_compute_f_score",
        "_PUNCTS",
    )

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
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise TypeError(f"CHRF: beta should be a number, got {type(beta).__name__}.")
        self.beta: int = beta
        self.char_order: int = char_order
        self.word_order: int = word_order
        self.order: int = self.char_order + self.word_order
        self.lowercase: bool = lowercase
        self.whitespace: bool = whitespace
        self.eps_smoothing: bool = eps_smoothing

        self._keep_references(references)

    def _options(self) -> ChrfOptions:
        return _options(self.__dict__)

    def _kernel_takes(self) -> bool:
        # numpy numbers: sacreBLEU's arithmetic promotes with them (its path keeps that)
        plain = {type(self.char_order), type(self.word_order), type(self.order)} == {int}
        return bool(
            plain
            and type(self.beta) in (int, float)
            and self.char_order >= 0
            and self.word_order >= 0
            and self.order == self.char_order + self.word_order >= 1
            and self.beta >= 0
        )

    def _compute_f_score(self, statistics: Sequence[int]) -> float:
        """chrF of flat ``[n_hyp, n_ref, n_match] * order`` statistics (0-100)."""
        return chrf_f_score(list(statistics), self.order, self.beta, self.eps_smoothing)

    # --- sacreBLEU's hooks (its path: see mtcompute.sacrebleu.metrics.base) ---------------

    @staticmethod
    def _get_match_statistics(hyp_ngrams: Counter[Any], ref_ngrams: Counter[Any]) -> list[int]:
        """``[hypothesis n-grams (0 without reference n-grams), reference n-grams,
        matches]`` of one order."""
        match_count, hyp_count = 0, 0
        for ng, count in hyp_ngrams.items():
            hyp_count += count
            if ng in ref_ngrams:
                match_count += min(count, ref_ngrams[ng])
        return [hyp_count if ref_ngrams else 0, sum(ref_ngrams.values()), match_count]

    def _remove_punctuation(self, sent: str) -> list[str]:
        """The words of ``sent``, a punctuation mark at a word's end (else at its start)
        apart (``_PUNCTS``)."""
        tokenized = []
        for w in sent.split():
            if len(w) == 1:
                tokenized.append(w)
            elif w[-1] in self._PUNCTS:
                tokenized += [w[:-1], w[-1]]
            elif w[0] in self._PUNCTS:
                tokenized += [w[0], w[1:]]
            else:
                tokenized.append(w)
        return tokenized

    def _preprocess_segment(self, sent: str) -> str:
        """Lowercased when asked."""
        return sent.lower() if self.lowercase else sent

    def _ngrams(self, line: str) -> list[Counter[str]]:
        """The character n-grams of ``line``, then (chrF++) its word n-grams."""
        ngrams = extract_all_char_ngrams(line, self.char_order, self.whitespace)
        if self.word_order > 0:
            words = self._remove_punctuation(line)
            ngrams += [extract_word_ngrams(words, n) for n in range(1, self.word_order + 1)]
        return ngrams

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        """Each reference's n-gram counters."""
        return {"ref_ngrams": [self._ngrams(ref) for ref in refs]}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[int]:
        """The statistics of one hypothesis against its best reference (highest F-score,
        the first on a tie)."""
        best_stats: list[int] = []
        best_f_score = -1.0
        all_hyp_ngrams = self._ngrams(hypothesis)
        for ref_ngrams in ref_kwargs["ref_ngrams"]:
            stats: list[int] = []
            for h, r in zip(all_hyp_ngrams, ref_ngrams):  # noqa: B905 (sacreBLEU's zip)
                stats.extend(self._get_match_statistics(h, r))
            f_score = self._compute_f_score(stats)
            if f_score > best_f_score:
                best_f_score = f_score
                best_stats = stats
        return best_stats

    def _statistics(
        self, hypotheses: Sequence[str], references: list[list[str]], per_segment: bool
    ) -> tuple[list[int], list[list[int]] | None]:
        return chrf_statistics(hypotheses, references, self._options(), per_segment=per_segment)

    def _compute_score_from_stats(self, stats: Sequence[int]) -> CHRFScore:
        """The chrF score of corpus statistics (``_compute_f_score``, as sacreBLEU)."""
        return CHRFScore(self._compute_f_score(stats), self.char_order, self.word_order, self.beta)

    def _significance_metric(self) -> significance.Metric:
        """CHRF's scoring of summed statistics for :mod:`mtcompute.significance`."""
        # Imported here: numpy only when resampling (see Metric.corpus_score).
        from mtcompute.metrics.chrf.resample import ChrfMetric  # noqa: PLC0415

        return ChrfMetric(self._options())

    def get_signature(self) -> CHRFSignature:
        """``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`` and the like."""
        return CHRFSignature(self.__dict__)


def _check_order(name: str, value: object) -> None:
    if not integral(value):
        raise TypeError(f"CHRF: {name} should be an int, got {type(value).__name__}.")
