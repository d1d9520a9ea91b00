"""Word and character error rate (WER, CER): the Levenshtein edit distance between a
hypothesis and its reference in words or characters (substitutions, deletions and insertions,
each costing 1; no block shifts), over the reference's length, as jiwer 4.0 computes it.

* :mod:`~mtcompute.metrics.wer.text`: the normalisations (case, punctuation, whitespace)
  and the words or characters of a text;
* :mod:`~mtcompute.metrics.wer.edits`: the alignment counts of one pair (hits,
  substitutions, deletions, insertions), their corpus sums and the rates;
* :mod:`~mtcompute.metrics.wer.corpus`: the library's corpus API (:func:`mtcompute.corpus_wer`),
  any size, lists or iterables read in chunks.

The submodules are imported by name: this package imports none of them.
"""
