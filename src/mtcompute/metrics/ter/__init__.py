"""Translation edit rate (TER; Snover et al. 2006, "A Study of Translation Edit Rate with
Targeted Human Annotation", §2-3), exactly as sacreBLEU 2.6.0 computes it.

* :mod:`~mtcompute.metrics.ter.tokenizer`: sacreBLEU's tercom tokenizer;
* :mod:`~mtcompute.metrics.ter.edits`: the pure edit count with block shifts of one
  hypothesis against one reference, and the score of summed statistics;
* :mod:`~mtcompute.metrics.ter.statistics`: segment statistics at scale (the C kernel on
  threads, or the pure core);
* :mod:`~mtcompute.metrics.ter.score`: sacreBLEU's ``TER`` from raw text (options,
  preprocessing, statistics, corpus score, result, signature fields);
* :mod:`~mtcompute.metrics.ter.resample`: the resampling terms of the significance tests.

The library's corpus API (:func:`mtcompute.corpus_ter`, :class:`mtcompute.CorpusTer`) is
still :mod:`mtcompute.batch`'s. The submodules are imported by name: this package imports
none of them, so that importing one loads only what it needs.
"""
