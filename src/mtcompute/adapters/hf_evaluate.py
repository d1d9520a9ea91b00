"""A Hugging Face ``evaluate`` module computing mtcompute's corpus BLEU, chrF, chrF++, TER,
WER and CER (the extra ``mtcompute[evaluate]``).

Load it from its file, the configuration naming the metric (``bleu`` by default)::

    import evaluate
    from mtcompute.adapters import hf_evaluate

    chrf = evaluate.load(hf_evaluate.__file__, "chrf++")
    chrf.compute(predictions=hyps, references=[[ref] for ref in refs], beta=2)

``predictions`` are hypothesis strings, ``references`` each one's reference or list of
references (WER and CER: one string each); the keywords of ``compute`` are the batch API's
(:func:`mtcompute.corpus_bleu`'s ``tokenize``, :func:`mtcompute.corpus_chrf`'s ``beta``...).
The answer is the corpus result as JSON-ready data (``score`` on sacreBLEU's 0..100 scale,
``signature``, the statistics), as ``mtcompute score --format json`` prints it.
"""

from __future__ import annotations

__all__ = ["Mtcompute"]

from typing import Any

import datasets
import evaluate

from mtcompute.adapters import corpus_function

_DESCRIPTION = """mtcompute's corpus BLEU, chrF, chrF++ and TER (sacreBLEU 2.6.0's numbers,
exactly) and WER and CER (jiwer 4.0's): the configuration names the metric."""

_CITATION = """@inproceedings{post-2018-call,
    title = "A Call for Clarity in Reporting {BLEU} Scores",
    author = "Post, Matt",
    booktitle = "Proceedings of the Third Conference on Machine Translation",
    year = "2018",
    pages = "186--191",
}"""

_INPUTS = """predictions: list of hypothesis strings.
references: per prediction, a reference string or a list of reference strings (WER and CER:
    one string each).
keywords: the batch API's settings (bleu: tokenize, lowercase, smooth_method, smooth_value,
    max_order, effective_order; chrf: beta, lowercase, whitespace, eps_smoothing; ter:
    normalized, no_punct, asian_support, case_sensitive; wer, cer: lowercase,
    remove_punctuation, collapse_whitespace).
Returns the corpus result: name, score (0..100), signature and the metric's statistics."""

_TEXT = datasets.Value("string")


class Mtcompute(evaluate.Metric):
    """The evaluate module: ``_info`` declares the inputs, ``_compute`` runs the batch API
    of the configuration's metric."""

    def _info(self) -> evaluate.MetricInfo:
        if self.config_name != "default":
            corpus_function(self.config_name, "config_name")  # the name checked
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_INPUTS,
            features=[
                datasets.Features({"predictions": _TEXT, "references": datasets.Sequence(_TEXT)}),
                datasets.Features({"predictions": _TEXT, "references": _TEXT}),
            ],
            license="Apache-2.0",
        )

    def _compute(
        self, predictions: list[str], references: list[Any], **options: Any
    ) -> dict[str, Any]:
        name = "bleu" if self.config_name == "default" else self.config_name
        result = corpus_function(name, "config_name")(predictions, references, **options)
        return dict(result.to_dict())
