"""The metrics, one package each: everything one metric is (options, statistics, scores
under each rule set, results, signature fields, resampling terms) in one place.

:mod:`mtcompute.metrics.ter` is translation edit rate. chrF, chrF++ and BLEU still live in
:mod:`mtcompute.counting`, :mod:`mtcompute.scoring`, :mod:`mtcompute.batch` and
:mod:`mtcompute.significance` while they move here.
"""
