"""The metrics, one package each: everything one metric is (options, statistics, scores
under each rule set, results, signature fields, resampling terms) in one place.

* :mod:`mtcompute.metrics.bleu`: BLEU;
* :mod:`mtcompute.metrics.chrf`: chrF and chrF++;
* :mod:`mtcompute.metrics.ter`: translation edit rate;
* :mod:`mtcompute.metrics.wer`: word and character error rate (WER, CER), as jiwer 4.0;
* :mod:`mtcompute.metrics._base`: what every metric's results share (sacreBLEU's score line
  and signature strings, statistics summed over chunks);
* :mod:`mtcompute.metrics._arguments`: the library corpus APIs' arguments (field types,
  raw-text checks, an input read in chunks), imported by the functions that take them;
* :mod:`mtcompute.metrics._corpus`: what every metric's corpus result shares (signatures
  with mtcompute's version, the JSON form, results of chunks added up);
* :mod:`mtcompute.metrics._resample`: the :class:`~mtcompute.metrics._resample.Metric`
  protocol the significance tests run every metric through.

TER's library corpus API (``CorpusTer``, ``corpus_ter``) is still :mod:`mtcompute.batch`'s,
beside what adds every metric's results up.
"""

DEFAULT_SEED = 12345
"""sacreBLEU's default ``SACREBLEU_SEED``: the significance tests' seed unless one is given
(here, without numpy, for the paired-significance tool's input)."""
