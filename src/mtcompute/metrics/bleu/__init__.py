"""BLEU (Papineni et al. 2002, "BLEU: a Method for Automatic Evaluation of Machine
Translation", §2), with the smoothing methods of Chen & Cherry 2014 ("A Systematic Comparison
of Smoothing Techniques for Sentence-Level BLEU", §2), under two rule sets: the catalog
contracts' (exact counts, JavaScript's float steps) and sacreBLEU 2.6.0's.

* :mod:`~mtcompute.metrics.bleu.statistics`: the pure definition of one segment's statistics
  (clipped matches, totals, candidate and closest reference lengths), the clipping table, the
  brevity penalty and the contracts' smoothing and score;
* :mod:`~mtcompute.metrics.bleu.counts`: the statistics at scale (the C kernel on threads,
  or the pure definition) of token lists, with the first fault of token input, and of raw
  texts tokenized as sacreBLEU's ``BLEU`` tokenizes them (the kernel applying 13a itself);
* :mod:`~mtcompute.metrics.bleu.score`: sacreBLEU's ``BLEU`` from raw text (options,
  preprocessing, statistics, ``compute_bleu``'s float steps, result, signature fields);
* :mod:`~mtcompute.metrics.bleu.corpus`: the library's corpus API
  (:func:`mtcompute.corpus_bleu`, :class:`mtcompute.CorpusBleu`), of texts, token lists or
  undecoded lines, any size;
* :mod:`~mtcompute.metrics.bleu.resample`: the resampling terms of the significance tests.

The submodules are imported by name: this package imports none of them, so that importing
one loads only what it needs.
"""
