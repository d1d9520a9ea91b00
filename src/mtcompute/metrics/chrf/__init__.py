"""chrF (Popović 2015, "chrF: character n-gram F-score for automatic MT evaluation", §2) and
chrF++ (Popović 2017, "chrF++: words helping character n-grams", §2), under both families of
rules: the seed contracts' exact arithmetic and sacreBLEU 2.6.0's.

* :mod:`~mtcompute.metrics.chrf.words`: the whitespace chrF removes and chrF++'s words,
  under both rule sets;
* :mod:`~mtcompute.metrics.chrf.ngrams`: the exact core: one segment's character and word
  n-gram statistics, and their exact scores (chrf-compute's effective-order rule, chrF++.py's
  per-order F), in ints and Fractions;
* :mod:`~mtcompute.metrics.chrf.statistics`: those statistics and exact scores for many
  segments (the C kernel on threads, or the pure core), all-pairs sentence chrF for MBR;
* :mod:`~mtcompute.metrics.chrf.sacrebleu_statistics`: sacreBLEU's segment statistics (its
  best reference per segment) at scale, and its floating-point F-score;
* :mod:`~mtcompute.metrics.chrf.score`: sacreBLEU's ``CHRF`` from raw text (options,
  references prepared once, statistics, corpus score, result, signature fields);
* :mod:`~mtcompute.metrics.chrf.corpus`: the library's corpus API (:func:`mtcompute.corpus_chrf`,
  :class:`mtcompute.CorpusChrf`, :func:`mtcompute.chrf_pairwise`), checked as the tools check;
* :mod:`~mtcompute.metrics.chrf.resample`: the resampling terms of the significance tests.

The tools chrf-compute, chrf-plus-plus-compute and chrf-components bind their contracts to
:mod:`~mtcompute.metrics.chrf.statistics`. The submodules are imported by name: this package
imports none of them, so that importing one loads only what it needs.
"""
