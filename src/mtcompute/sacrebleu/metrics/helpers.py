"""sacreBLEU 2.6.0's ``metrics/helpers.py``: word and character n-gram counters, with its
names, arguments and results (``collections.Counter`` objects), for code written against
sacreBLEU (MBR decoders, custom metrics) and for the hooks of
:class:`~mtcompute.sacrebleu.metrics.BLEU` and :class:`~mtcompute.sacrebleu.metrics.CHRF`
when a subclass overrides one (the scores of the classes themselves are computed by
:mod:`mtcompute.metrics`)."""

from __future__ import annotations

__all__ = [
    "extract_all_char_ngrams",
    "extract_all_word_ngrams",
    "extract_char_ngrams",
    "extract_word_ngrams",
]

from collections import Counter


def extract_all_word_ngrams(
    line: str, min_order: int, max_order: int
) -> tuple[Counter[tuple[str, ...]], int]:
    """The word n-grams of ``line`` (tuples of words) of orders ``min_order`` to
    ``max_order``, counted, and the number of words.

    >>> extract_all_word_ngrams("a b a", 1, 2)
    (Counter({('a',): 2, ('b',): 1, ('a', 'b'): 1, ('b', 'a'): 1}), 3)
    """
    tokens = line.split()
    ngrams = [
        tuple(tokens[i : i + n])
        for n in range(min_order, max_order + 1)
        for i in range(len(tokens) - n + 1)
    ]
    return Counter(ngrams), len(tokens)


def extract_word_ngrams(tokens: list[str], n: int) -> Counter[str]:
    """The n-grams of order ``n`` of a list of tokens, each joined by one space, counted.

    >>> extract_word_ngrams(["a", "b", "a", "b"], 2)
    Counter({'a b': 2, 'b a': 1})
    """
    return Counter([" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)])


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> Counter[str]:
    """The character n-grams of order ``n`` of ``line``, counted (whitespace removed first
    unless ``include_whitespace``).

    >>> extract_char_ngrams("ab ab", 2)
    Counter({'ab': 2, 'ba': 1})
    """
    if not include_whitespace:
        line = "".join(line.split())
    return Counter([line[i : i + n] for i in range(len(line) - n + 1)])


def extract_all_char_ngrams(
    line: str, max_order: int, include_whitespace: bool = False
) -> list[Counter[str]]:
    """The character n-gram counters of orders 1 to ``max_order`` of ``line``.

    >>> extract_all_char_ngrams("aba", 2)
    [Counter({'a': 2, 'b': 1}), Counter({'ab': 1, 'ba': 1})]
    """
    if not include_whitespace:
        line = "".join(line.split())
    return [
        Counter([line[i : i + n] for i in range(len(line) - n + 1)])
        for n in range(1, max_order + 1)
    ]
