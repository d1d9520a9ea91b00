"""Translation edit rate (TER; Snover et al. 2006, "A Study of Translation Edit Rate with
Targeted Human Annotation", §2-3), exactly as sacreBLEU 2.6.0 computes it.

* :mod:`~mtcompute.metrics.ter.tokenizer`: sacreBLEU's tercom tokenizer;
* :mod:`~mtcompute.metrics.ter.edits`: the pure edit count with block shifts of one
  hypothesis against one reference, and the score of summed statistics;
* :mod:`~mtcompute.metrics.ter.statistics`: segment statistics at scale (the C kernel on
  threads, or the pure core).
"""
