"""``torchmetrics`` metrics computing mtcompute's corpus BLEU, chrF, TER and WER/CER (the
extra ``mtcompute[torchmetrics]``).

Each class is a :class:`torchmetrics.Metric`: ``update(preds, target)`` takes a batch of
hypothesis strings and their references (one string, or a list of strings, per segment, as
``torchmetrics.text.SacreBLEUScore`` takes them), ``compute()`` the corpus score as a 0-dim
``float64`` tensor on sacreBLEU's scale (0..100, the number :func:`mtcompute.corpus_bleu`
and sacreBLEU print; torchmetrics' own text metrics give a fraction).

The states are the metric's sufficient statistics (sacreBLEU's layout: BLEU's lengths,
matches and totals; chrF's n-gram counts; TER's edits and reference length; WER's hits,
substitutions, deletions and insertions), integer tensors summed across processes
(``dist_reduce_fx="sum"``), so a run split over processes or batches gives the corpus score
of all its segments, exactly as one pass. TER's reference length is a float (each segment's
average reference length): within a process it is added one segment at a time, as sacreBLEU
adds it; across processes the partial sums are added, which is exact when every segment has
one reference (whole numbers).

The settings are the batch API's keywords (``BLEU(tokenize="zh")``, ``CHRF(word_order=2)``),
checked when the metric is made, with the batch API's messages.
"""

from __future__ import annotations

__all__ = ["BLEU", "CHRF", "TER", "WER"]

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

import torch
from torchmetrics import Metric

from mtcompute.metrics.bleu.corpus import CorpusBleu, corpus_bleu
from mtcompute.metrics.chrf.corpus import CorpusChrf, corpus_chrf
from mtcompute.metrics.ter.corpus import CorpusTer, corpus_ter
from mtcompute.metrics.ter.edits import sum_statistics
from mtcompute.metrics.wer.corpus import CorpusWer, corpus_wer

Result = CorpusBleu | CorpusChrf | CorpusTer | CorpusWer
References = Sequence[str] | Sequence[Sequence[str]]

_NO_REFS = 2**62  # the fewest references per segment before any update (a min reduction)


class _Corpus(Metric):
    """The flow every metric here shares: count a batch's statistics with the batch API, add
    them to the states, score the summed statistics once."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    _corpus: ClassVar[Callable[..., Result]]
    """The batch API's corpus function of the metric (:func:`~mtcompute.corpus_bleu`...)."""

    statistics: torch.Tensor
    segments: torch.Tensor
    fewest_refs: torch.Tensor
    most_refs: torch.Tensor

    def __init__(self, options: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._options = options
        # one segment scored at once: the settings checked, and the result's shape kept
        self._template = self._score(["a"], ["a"])
        size = len(self._template.statistics) - (1 if isinstance(self._template, CorpusTer) else 0)
        self.add_state("statistics", torch.zeros(size, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("segments", torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("fewest_refs", torch.tensor(_NO_REFS), dist_reduce_fx="min")
        self.add_state("most_refs", torch.tensor(0), dist_reduce_fx="max")

    def _score(self, preds: list[str], target: list[Any]) -> Result:
        """A batch's result from the metric's corpus function, with the settings."""
        return type(self)._corpus(preds, target, **self._options)

    def _add(self, result: Result) -> None:
        """Add a batch's result to the states: its integer statistics."""
        counts = cast("Sequence[int]", result.statistics)
        self.statistics += torch.tensor(counts, dtype=torch.int64)

    def _from_statistics(self, counts: tuple[int, ...], nrefs: int) -> Result:
        raise NotImplementedError

    def update(self, preds: Sequence[str], target: References) -> None:
        """Add the statistics of a batch: ``preds`` the hypotheses, ``target`` each one's
        reference or list of references."""
        self._add(self._score(list(preds), list(target)))
        self.segments += len(preds)
        nrefs = [1 if isinstance(refs, str) else len(refs) for refs in target]
        self.fewest_refs = torch.minimum(self.fewest_refs, torch.tensor(min(nrefs)))
        self.most_refs = torch.maximum(self.most_refs, torch.tensor(max(nrefs)))

    def result(self) -> Result:
        """The corpus result of every segment added (synced across processes when called
        through :meth:`compute`): mtcompute's result object, with its signature."""
        if not int(self.segments):
            raise ValueError(f"{type(self).__name__}: no segments to score; call update() first")
        fewest, most = int(self.fewest_refs), int(self.most_refs)
        counts = tuple(int(x) for x in self.statistics.tolist())
        return self._from_statistics(counts, most if fewest == most else -1)

    def compute(self) -> torch.Tensor:
        """The corpus score (0..100) of every segment added, a 0-dim float64 tensor."""
        return torch.tensor(self.result().score, dtype=torch.float64)


class BLEU(_Corpus):
    """Corpus BLEU as :func:`mtcompute.corpus_bleu` and sacreBLEU's ``BLEU`` compute it;
    the keywords are :func:`~mtcompute.corpus_bleu`'s (``tokenize``, ``smooth_method``...).

    >>> metric = BLEU()
    >>> metric.update(["the cat sat on mat"], [["the cat sat on the mat"]])
    >>> metric.compute()
    tensor(57.8930, dtype=torch.float64)
    """

    _corpus = staticmethod(corpus_bleu)

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_order: int = 4,
        effective_order: bool = False,
        **kwargs: Any,
    ) -> None:
        options = {
            "tokenize": tokenize,
            "lowercase": lowercase,
            "smooth_method": smooth_method,
            "smooth_value": smooth_value,
            "max_order": max_order,
            "effective_order": effective_order,
        }
        super().__init__(options, **kwargs)

    def _from_statistics(self, counts: tuple[int, ...], nrefs: int) -> Result:
        template = cast(CorpusBleu, self._template)
        return CorpusBleu.from_statistics(
            counts, template.options, template.tokenizer_signature, nrefs
        )


class CHRF(_Corpus):
    """Corpus chrF (chrF++ with ``word_order=2``) as :func:`mtcompute.corpus_chrf` and
    sacreBLEU's ``CHRF`` compute it; the keywords are :func:`~mtcompute.corpus_chrf`'s."""

    _corpus = staticmethod(corpus_chrf)

    def __init__(
        self,
        *,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        **kwargs: Any,
    ) -> None:
        options = {
            "word_order": word_order,
            "beta": beta,
            "lowercase": lowercase,
            "whitespace": whitespace,
            "eps_smoothing": eps_smoothing,
        }
        super().__init__(options, **kwargs)

    def _from_statistics(self, counts: tuple[int, ...], nrefs: int) -> Result:
        options = cast(CorpusChrf, self._template).options
        return CorpusChrf.from_statistics(counts, options, "sacrebleu", nrefs)


class TER(_Corpus):
    """Corpus TER as :func:`mtcompute.corpus_ter` and sacreBLEU's ``TER`` compute it (lower
    is better); the keywords are :func:`~mtcompute.corpus_ter`'s."""

    higher_is_better = False
    ref_length: torch.Tensor

    _corpus = staticmethod(corpus_ter)

    def __init__(
        self,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        **kwargs: Any,
    ) -> None:
        options = {
            "normalized": normalized,
            "no_punct": no_punct,
            "asian_support": asian_support,
            "case_sensitive": case_sensitive,
        }
        super().__init__(options, **kwargs)
        self.add_state("ref_length", torch.tensor(0.0, dtype=torch.float64), dist_reduce_fx="sum")

    def _add(self, result: Result) -> None:
        """The edits summed; the lengths added to the state one segment at a time."""
        ter = cast(CorpusTer, result)
        self.statistics += torch.tensor([ter.num_edits], dtype=torch.int64)
        _, length = sum_statistics([(0, float(self.ref_length)), *ter.segment_statistics])
        self.ref_length = torch.tensor(length, dtype=torch.float64)

    def _from_statistics(self, counts: tuple[int, ...], nrefs: int) -> Result:
        options = cast(CorpusTer, self._template).options
        return CorpusTer.from_sums(counts[0], float(self.ref_length), options, nrefs)


class WER(_Corpus):
    """Corpus WER (``unit="character"``: CER) as :func:`mtcompute.corpus_wer` and jiwer
    compute it, in percent (lower is better); one reference string per segment; the
    keywords are :func:`~mtcompute.corpus_wer`'s."""

    higher_is_better = False

    _corpus = staticmethod(corpus_wer)

    def __init__(
        self,
        *,
        unit: str = "word",
        lowercase: bool = False,
        remove_punctuation: bool = False,
        collapse_whitespace: bool = False,
        **kwargs: Any,
    ) -> None:
        options = {
            "unit": unit,
            "lowercase": lowercase,
            "remove_punctuation": remove_punctuation,
            "collapse_whitespace": collapse_whitespace,
        }
        super().__init__(options, **kwargs)

    def _from_statistics(self, counts: tuple[int, ...], nrefs: int) -> Result:
        options = cast(CorpusWer, self._template).options
        return CorpusWer.from_statistics(counts, options, nrefs)
