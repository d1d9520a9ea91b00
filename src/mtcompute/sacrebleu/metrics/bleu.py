"""sacreBLEU 2.6.0's ``metrics/bleu.py``: BLEU (Papineni et al. 2002) with sacreBLEU's
tokenizers, smoothing (Chen & Cherry 2014 methods 1-3: ``floor``, ``add-k``, ``exp``) and
signature, as a thin facade over :mod:`mtcompute.metrics`.

Constructor arguments, defaults, attributes and warnings are sacreBLEU's: ``tokenize=None``
picks ``13a``, or ``zh``/``ja-mecab``/``ko-mecab`` for ``trg_lang`` ``zh``/``ja``/``ko``; an
explicit tokenizer other than those for such a ``trg_lang`` logs sacreBLEU's advice on the
``sacrebleu`` logger, and so does ``sentence_score`` without ``effective_order``.

Errors (:mod:`mtcompute.sacrebleu._errors`): an unknown ``smooth_method`` raises
:class:`~mtcompute.sacrebleu._errors.ArgumentError` (a ``ValueError`` and, as sacreBLEU's
``assert``, an ``AssertionError``); an unknown ``tokenize``
:class:`~mtcompute.sacrebleu._errors.UnknownTokenizer` (``ValueError`` and, as sacreBLEU,
``KeyError``); ``spm``, ``flores101``, ``flores200`` and ``spBLEU-1K`` without their
SentencePiece model (sacreBLEU's cached file, downloaded when missing, or the one
:func:`bleu_with_spm_model` names) and tokenizers whose optional dependency is
missing :class:`~mtcompute.sacrebleu._errors.TokenizerError` (``RuntimeError``). A ``smooth_value``
that is not a number, or a ``max_ngram_order`` that is not an integer, raises ``TypeError``
at once (sacreBLEU fails later). A ``max_ngram_order`` under 1 is sacreBLEU's: a score of 0
(its path, :mod:`mtcompute.sacrebleu.metrics.base`).

sacreBLEU's hooks are here for subclasses (``_preprocess_segment``,
``_extract_reference_info``, ``_compute_segment_statistics``, ``_get_closest_ref_len``,
``compute_bleu``, ...); a ``tokenizer`` set after construction, any callable, is used as
sacreBLEU uses it (the signature keeps the constructor's, as sacreBLEU's does).
"""

from __future__ import annotations

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore", "BLEUSignature", "bleu_with_spm_model"]

import logging
import numbers
import operator
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

from mtcompute.metrics._base import ABBREVIATIONS
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.sacrebleu._errors import ArgumentError, UnknownTokenizer
from mtcompute.sacrebleu.metrics.base import Metric, Score, Signature, integral
from mtcompute.sacrebleu.metrics.helpers import extract_all_word_ngrams
from mtcompute.sacrebleu.tokenizers.tokenizer_base import BaseTokenizer, RegistryTokenizer
from mtcompute.tokenizer_names import SPM, TARGET_TOKENIZERS
from mtcompute.tokenizers import Tokenizer

if TYPE_CHECKING:  # imported when resampling (numpy)
    from mtcompute import significance

sacrelogger = logging.getLogger("sacrebleu")

MAX_NGRAM_ORDER = 4
"""The default maximum n-gram order."""

_TOKENIZERS = {
    "none": "tokenizer_none.NoneTokenizer",
    "zh": "tokenizer_zh.TokenizerZh",
    "13a": "tokenizer_13a.Tokenizer13a",
    "intl": "tokenizer_intl.TokenizerV14International",
    "char": "tokenizer_char.TokenizerChar",
    "ja-mecab": "tokenizer_ja_mecab.TokenizerJaMecab",
    "ko-mecab": "tokenizer_ko_mecab.TokenizerKoMecab",
    "spm": "tokenizer_spm.TokenizerSPM",
    "flores101": "tokenizer_spm.Flores101Tokenizer",
    "flores200": "tokenizer_spm.Flores200Tokenizer",
    "spBLEU-1K": "tokenizer_spm.spBLEU1KTokenizer",
}
"""sacreBLEU's tokenizer names and the ``module.Class`` of each under ``tokenizers``."""

_TOKENIZERS_PACKAGE = "mtcompute.sacrebleu.tokenizers"


def _get_tokenizer(name: object) -> type[BaseTokenizer]:
    """The tokenizer class sacreBLEU calls ``name`` (imported when asked for, as sacreBLEU)."""
    if not isinstance(name, str) or name not in _TOKENIZERS:
        raise UnknownTokenizer(
            f"BLEU: unknown tokenize {name!r}: expected one of {', '.join(_TOKENIZERS)}."
        )
    module_name, class_name = _TOKENIZERS[name].rsplit(".", 1)
    cls: type[BaseTokenizer] = getattr(
        import_module(f"{_TOKENIZERS_PACKAGE}.{module_name}"), class_name
    )
    return cls


def _registry_tokenizer(tokenizer: Callable[[str], str]) -> Tokenizer:
    """The :class:`mtcompute.tokenizers.Tokenizer` to count with: the wrapped one for this
    package's classes (the kernel's text path), else one that calls ``tokenizer`` (any
    callable, as sacreBLEU calls it; a subclass's own ``__call__`` included)."""
    if (
        isinstance(tokenizer, RegistryTokenizer)
        and type(tokenizer).__call__ is RegistryTokenizer.__call__
    ):
        return tokenizer.tokenizer
    return Tokenizer("custom", "custom", tokenizer)


def _options(args: Mapping[str, Any]) -> sacre_bleu.BleuOptions:
    """The :class:`mtcompute.metrics.bleu.score.BleuOptions` of a BLEU's attributes."""
    return sacre_bleu.BleuOptions(
        lowercase=bool(args["lowercase"]),
        smooth_method=args["smooth_method"],
        smooth_value=args["smooth_value"],
        max_ngram_order=operator.index(args["max_ngram_order"]),
        effective_order=bool(args["effective_order"]),
    )


class BLEUSignature(Signature):
    """BLEU's signature: ``nrefs``, ``case``, ``eff``, ``tok``, ``smooth``, ``version``."""

    def __init__(self, args: Mapping[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({key: ABBREVIATIONS[key] for key in ("case", "eff", "tok", "smooth")})
        self._metric_fields(
            sacre_bleu.bleu_signature_fields(
                _options(args), self.info["nrefs"], args["tokenizer_signature"]
            )
        )


class BLEUScore(Score):
    """A BLEU score: ``score`` (0-100), ``counts``, ``totals``, ``precisions``, ``bp``,
    ``sys_len``, ``ref_len``, ``ratio`` and ``prec_str`` as sacreBLEU's."""

    def __init__(
        self,
        score: float,
        counts: list[int | float],
        totals: list[int | float],
        precisions: list[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        result = sacre_bleu.BleuResult(
            score=score,
            counts=tuple(counts),
            totals=tuple(totals),
            precisions=tuple(precisions),
            bp=bp,
            sys_len=sys_len,
            ref_len=ref_len,
        )
        self.prec_str = result.prec_str
        self.ratio = result.ratio
        self._verbose = result.verbose

    @classmethod
    def _of(cls, result: sacre_bleu.BleuResult | sacre_bleu.BleuParts) -> BLEUScore:
        return cls(
            result.score,
            list(result.counts),
            list(result.totals),
            list(result.precisions),
            result.bp,
            result.sys_len,
            result.ref_len,
        )


class BLEU(Metric[BLEUScore]):
    """BLEU with sacreBLEU 2.6.0's arguments and defaults.

    :param lowercase: lowercase hypotheses and references first.
    :param force: no warning for hypotheses that look tokenized.
    :param tokenize: the tokenizer's name; ``None``: by ``trg_lang``, else ``13a``.
    :param smooth_method: ``exp`` (default), ``floor``, ``add-k`` or ``none``.
    :param smooth_value: the value of ``floor`` (0.1) and ``add-k`` (1); ``None``: default.
    :param max_ngram_order: the highest n-gram order (default 4).
    :param effective_order: leave out the orders with no n-gram (for sentence BLEU).
    :param trg_lang: the target language, for the default tokenizer and its warnings.
    :param references: reference streams to keep for ``corpus_score(hyps, None)``.

    ``spm``, ``flores101`` and ``flores200`` load sacreBLEU's cached model; another model
    file: :func:`bleu_with_spm_model`.
    """

    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = dict(sacre_bleu.SMOOTH_DEFAULTS)
    TOKENIZERS = _TOKENIZERS.keys()
    TOKENIZER_DEFAULT = "13a"
    _TOKENIZER_MAP: ClassVar[dict[str, str]] = dict(TARGET_TOKENIZERS)  # sacreBLEU's, a copy
    _SIGNATURE_TYPE = BLEUSignature
    _CACHE_STATE = ("tokenizer", "lowercase", "max_ngram_order")
    _HOOKS = (*Metric._HOOKS, "compute_bleu", "_get_closest_ref_len")

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = MAX_NGRAM_ORDER,
        effective_order: bool = False,
        trg_lang: str = "",
        references: Sequence[Sequence[str | None]] | None = None,
    ) -> None:
        super().__init__()
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order

        _check_smoothing(smooth_method, smooth_value)
        _check_max_ngram_order(max_ngram_order)

        if tokenize is None:
            best_tokenizer = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        else:
            best_tokenizer = tokenize
            if trg_lang == "zh" and best_tokenizer != "zh":
                sacrelogger.warning("Consider using the 'zh' or 'spm' tokenizer for Chinese.")
            if trg_lang == "ja" and best_tokenizer != "ja-mecab":
                sacrelogger.warning(
                    "Consider using the 'ja-mecab' or 'spm' tokenizer for Japanese."
                )
            if trg_lang == "ko" and best_tokenizer != "ko-mecab":
                sacrelogger.warning("Consider using the 'ko-mecab' or 'spm' tokenizer for Korean.")

        spm_model = _SPM_MODEL.get()
        model = {} if spm_model is None or best_tokenizer not in SPM else {"model": spm_model}
        self.tokenizer: Callable[[str], str] = _get_tokenizer(best_tokenizer)(**model)
        self.tokenizer_signature = self.tokenizer.signature()

        # _ref_cache and its references prepared (tokenized) by _statistics
        self._prepared: tuple[list[list[str]], sacre_bleu.BleuReferences] | None = None
        self._keep_references(references)

    @staticmethod
    def compute_bleu(
        correct: Sequence[int],
        total: Sequence[int],
        sys_len: int,
        ref_len: int,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = MAX_NGRAM_ORDER,
    ) -> BLEUScore:
        """BLEU from its sufficient statistics (sacreBLEU's ``BLEU.compute_bleu``; the lists
        given are not changed: the score's ``counts`` and ``totals`` hold add-k's values)."""
        _check_smoothing(smooth_method, smooth_value)
        return BLEUScore._of(
            sacre_bleu.compute_bleu(
                list(correct),
                list(total),
                sys_len,
                ref_len,
                smooth_method=smooth_method,
                smooth_value=smooth_value,
                effective_order=effective_order,
                max_ngram_order=max_ngram_order,
            )
        )

    def _options(self) -> sacre_bleu.BleuOptions:
        return _options(self.__dict__)

    def _kernel_takes(self) -> bool:
        # numpy numbers: sacreBLEU's arithmetic promotes with them (its path keeps that)
        plain = type(self.max_ngram_order) is int and type(self.smooth_value) in _PLAIN
        return bool(plain and self.max_ngram_order >= 1)

    # --- sacreBLEU's hooks (its path: see mtcompute.sacrebleu.metrics.base) ---------------

    def _preprocess_segment(self, sent: str) -> str:
        """Lowercased (when asked), right-stripped and tokenized."""
        if self.lowercase:
            sent = sent.lower()
        return self.tokenizer(sent.rstrip())

    def _get_closest_ref_len(self, hyp_len: int, ref_lens: list[int]) -> int:
        """The reference length closest to ``hyp_len`` (the shorter on a tie; -1 for none)."""
        closest_diff, closest_len = -1, -1
        for ref_len in ref_lens:
            diff = abs(hyp_len - ref_len)
            if closest_diff == -1 or diff < closest_diff:
                closest_diff, closest_len = diff, ref_len
            elif diff == closest_diff and ref_len < closest_len:
                closest_len = ref_len
        return closest_len

    def _extract_reference_info(self, refs: Sequence[str]) -> dict[str, Any]:
        """The references' n-grams (each count the highest over them) and lengths."""
        ngrams: Counter[tuple[str, ...]] | None = None
        ref_lens = []
        for ref in refs:
            this_ngrams, ref_len = extract_all_word_ngrams(ref, 1, self.max_ngram_order)
            ref_lens.append(ref_len)
            if ngrams is None:
                ngrams = this_ngrams
            else:
                for ngram, count in this_ngrams.items():
                    ngrams[ngram] = max(ngrams[ngram], count)
        return {"ref_ngrams": ngrams, "ref_lens": ref_lens}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> list[int]:
        """``[hyp_len, ref_len, correct..., total...]`` of one (preprocessed) hypothesis."""
        ref_ngrams, ref_lens = ref_kwargs["ref_ngrams"], ref_kwargs["ref_lens"]
        hyp_ngrams, hyp_len = extract_all_word_ngrams(hypothesis, 1, self.max_ngram_order)
        ref_len = self._get_closest_ref_len(hyp_len, ref_lens)
        correct = [0 for _ in range(self.max_ngram_order)]
        total = correct[:]
        for hyp_ngram, hyp_count in hyp_ngrams.items():
            n = len(hyp_ngram) - 1
            total[n] += hyp_count
            if hyp_ngram in ref_ngrams:
                correct[n] += min(hyp_count, ref_ngrams[hyp_ngram])
        return [hyp_len, ref_len, *correct, *total]

    def _statistics(
        self, hypotheses: Sequence[str], references: list[list[str]], per_segment: bool
    ) -> tuple[list[int], list[list[int]] | None]:
        options, tokenizer = self._options(), _registry_tokenizer(self.tokenizer)
        if references is self._ref_cache:
            # The constructor's references, tokenized once for every corpus_score (as
            # sacreBLEU's reference cache): again when they, the options or the tokenizer
            # object change (a custom tokenizer's wrapper is new at each call).
            kept = self._prepared
            if (
                kept is None
                or kept[0] is not references
                or kept[1].options != options
                or kept[1].tokenizer is not tokenizer
            ):
                prepared = sacre_bleu.bleu_references(references, options, tokenizer=tokenizer)
                kept = self._prepared = (references, prepared)
            return sacre_bleu.bleu_statistics_of(hypotheses, kept[1], per_segment=per_segment)
        return sacre_bleu.bleu_statistics(
            hypotheses, references, options, per_segment=per_segment, tokenizer=tokenizer
        )

    def _compute_score_from_stats(self, stats: Sequence[int]) -> BLEUScore:
        """The BLEU score of corpus statistics ``[sys_len, ref_len, correct..., total...]``
        (through ``compute_bleu``, as sacreBLEU)."""
        n = self.max_ngram_order
        return self.compute_bleu(
            correct=stats[2 : 2 + n],
            total=stats[2 + n :],
            sys_len=int(stats[0]),
            ref_len=int(stats[1]),
            smooth_method=self.smooth_method,
            smooth_value=self.smooth_value,
            effective_order=self.effective_order,
            max_ngram_order=n,
        )

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BLEUScore:
        """BLEU of one hypothesis (warns, as sacreBLEU, without ``effective_order``)."""
        if not self.effective_order:
            sacrelogger.warning(
                "It is recommended to enable `effective_order` for sentence-level BLEU."
            )
        return super().sentence_score(hypothesis, references)

    def _significance_metric(self) -> significance.Metric:
        """BLEU's scoring of summed statistics for :mod:`mtcompute.significance`."""
        # Imported here: numpy only when resampling (see Metric.corpus_score).
        from mtcompute import significance  # noqa: PLC0415

        return significance.BleuMetric(self._options())

    def get_signature(self) -> BLEUSignature:
        """``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0`` and the like."""
        return BLEUSignature(self.__dict__)


_PLAIN = (type(None), int, float)

_SPM_MODEL: ContextVar[str | os.PathLike[str] | None] = ContextVar("spm_model", default=None)
"""The model file the BLEU being built gives spm, flores101 or flores200 (set only while
:func:`bleu_with_spm_model` builds one)."""


def bleu_with_spm_model(model: str | os.PathLike[str], **kwargs: Any) -> BLEU:
    """``BLEU(**kwargs)`` whose ``spm``, ``flores101`` or ``flores200`` tokenizer loads the
    SentencePiece model file ``model`` instead of sacreBLEU's cached one (mtcompute's:
    sacreBLEU's constructor takes no model, so neither does :class:`BLEU`'s)."""
    token = _SPM_MODEL.set(model)
    try:
        return BLEU(**kwargs)
    finally:
        _SPM_MODEL.reset(token)


def _check_smoothing(smooth_method: object, smooth_value: object) -> None:
    if not isinstance(smooth_method, str) or smooth_method not in sacre_bleu.SMOOTH_DEFAULTS:
        raise ArgumentError(
            f"BLEU: unknown smooth_method {smooth_method!r}: expected one of "
            f"{', '.join(sacre_bleu.SMOOTH_DEFAULTS)}."
        )
    if smooth_value is not None and (
        isinstance(smooth_value, bool) or not isinstance(smooth_value, numbers.Real)
    ):
        raise TypeError(
            f"BLEU: smooth_value should be a number or None, got {type(smooth_value).__name__}."
        )


def _check_max_ngram_order(max_ngram_order: object) -> None:
    if not integral(max_ngram_order):
        raise TypeError(
            f"BLEU: max_ngram_order should be an int, got {type(max_ngram_order).__name__}."
        )
