"""The metrics, one package each: everything one metric is (options, statistics, scores
under each rule set, results, signature fields, resampling terms) in one place.

* :mod:`mtcompute.metrics.bleu`: BLEU;
* :mod:`mtcompute.metrics.chrf`: chrF and chrF++;
* :mod:`mtcompute.metrics.ter`: translation edit rate;
* :mod:`mtcompute.metrics._base`: what every metric's results share (sacreBLEU's score line
  and signature strings, statistics summed over chunks);
* :mod:`mtcompute.metrics._corpus`: what every metric's library corpus API shares (field
  types, raw-text checks, signatures with mtcompute's version, a corpus in chunks);
* :mod:`mtcompute.metrics._resample`: the :class:`~mtcompute.metrics._resample.Metric`
  protocol the significance tests run every metric through.

TER's library corpus API (``CorpusTer``, ``corpus_ter``) is still :mod:`mtcompute.batch`'s,
beside what adds every metric's results up.
"""
