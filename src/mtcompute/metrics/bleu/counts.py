"""BLEU statistics at scale (Papineni et al. 2002 §2.1): clipped matches with the largest
count in any one reference, totals, candidate length and closest reference length, for one
segment or many, each segment's or their sum; of token lists, or of raw texts tokenized as
sacreBLEU 2.6.0's ``BLEU`` tokenizes them (``str.lower`` when asked,
``tokenizer(text.rstrip())``, ``str.split()``).

The C kernel (:mod:`mtcompute.native`) counts where the path chosen at import is the
kernel's (these functions are twins), on several threads
(:func:`mtcompute.counting.map_spans`; it releases the GIL), else the pure definition
(:func:`~mtcompute.metrics.bleu.statistics.sentence_statistics`): both give the same
integers. Input the kernel does not take (a str subclass, more tokens than it indexes) is
counted by the pure path; with ``validate``, the first fault of the input is raised as a
:class:`TokenProblem`. From raw text, when the kernel applies the tokenizer itself (``13a``
or ``none``), it tokenizes and counts in one pass without a str per token; other tokenizers
run in Python and the kernel splits their output.
"""

from __future__ import annotations

__all__ = [
    "KERNEL_TOKENIZERS",
    "MIN_SEGMENTS_PER_THREAD",
    "TokenProblem",
    "bleu_line_rows",
    "bleu_sentence_statistics",
    "bleu_statistics_many",
    "bleu_text_rows",
    "bleu_text_statistics",
    "bleu_totals",
    "corpus_statistics",
    "kernel_tokenizes",
    "tokenize_segments",
]

from array import array
from collections.abc import Callable, Sequence
from itertools import chain
from typing import TypeAlias, TypeVar

from mtcompute.core.text import first_lone_surrogate as _first_surrogate_py
from mtcompute.counting import MIN_SEGMENTS_PER_THREAD, _check_texts, _int64s, map_spans
from mtcompute.metrics.bleu.statistics import BleuStatistics, sentence_statistics
from mtcompute.native import ext as _ext
from mtcompute.native import kernel_step, kernel_test, twin
from mtcompute.tokenizers import Tokenizer


class TokenProblem(ValueError):
    """The first fault in BLEU token input, in reading order (every hypothesis, then every
    reference): ``code`` is ``not_array``, ``no_references``, ``not_str``, ``empty`` or
    ``surrogate``; ``path`` is (field, segment[, reference][, token]); ``position`` is the
    index of the surrogate in the token (else -1)."""

    def __init__(self, code: str, path: tuple[str | int, ...], position: int = -1) -> None:
        super().__init__(code, path, position)
        self.code = code
        self.path = path
        self.position = position

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TokenProblem):
            return NotImplemented
        return (self.code, self.path, self.position) == (other.code, other.path, other.position)

    def __hash__(self) -> int:
        return hash((self.code, self.path, self.position))

    def order(self) -> tuple[int, ...]:
        """Sort key: reading order of the place the problem is at."""
        field, *rest = self.path
        return (0 if field == "hypotheses" else 1, *(int(x) for x in rest))


@twin(sentence_statistics)
def bleu_sentence_statistics(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int
) -> BleuStatistics:
    """:func:`~mtcompute.metrics.bleu.statistics.sentence_statistics` of one segment.

    >>> bleu_sentence_statistics(["a", "b"], [["a", "b", "c"]], 2).matches
    (2, 1)
    """
    if type(max_order) is int:
        stats = _ext.bleu_sentence(hypothesis, references, max_order)
        if stats is not None:
            return BleuStatistics(*stats)
    return sentence_statistics(hypothesis, references, max_order)


def _find_token_problem(
    hypotheses: Sequence[object], references: Sequence[object]
) -> TokenProblem | None:
    """The pure path's scan for the first :class:`TokenProblem` (what the kernel reports)."""

    def token_problem(tokens: Sequence[object], path: tuple[str | int, ...]) -> TokenProblem | None:
        for k, token in enumerate(tokens):
            if not isinstance(token, str):
                return TokenProblem("not_str", (*path, k))
            if not token:
                return TokenProblem("empty", (*path, k))
            at = _first_surrogate_py(token)
            if at >= 0:
                return TokenProblem("surrogate", (*path, k), at)
        return None

    for i, hypothesis in enumerate(hypotheses):
        if not isinstance(hypothesis, list | tuple):
            return TokenProblem("not_array", ("hypotheses", i))
        problem = token_problem(hypothesis, ("hypotheses", i))
        if problem:
            return problem
    for i, segment in enumerate(references):
        if not isinstance(segment, list | tuple):
            return TokenProblem("not_array", ("references", i))
        if not segment:
            return TokenProblem("no_references", ("references", i))
        for j, reference in enumerate(segment):
            if not isinstance(reference, list | tuple):
                return TokenProblem("not_array", ("references", i, j))
            problem = token_problem(reference, ("references", i, j))
            if problem:
                return problem
    return None


@kernel_test
def _bleu_kernel_ok(hypotheses: object, references: object, max_order: int) -> bool:
    """Whether the BLEU kernel takes these arguments (else the pure path answers)."""
    return (
        type(max_order) is int
        and 1 <= max_order <= _ext.MAX_ORDER
        and isinstance(hypotheses, list | tuple)
        and isinstance(references, list | tuple)
        and len(hypotheses) == len(references)
    )


_Counted: TypeAlias = "tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, _ext.Problem]"
"""What the kernel's BLEU counting gives for a span of segments: the per-segment buffer and
the totals, or the first problem of the input in place of both."""

H = TypeVar("H")
F = TypeVar("F")


def _counted_spans(
    count: Callable[[Sequence[H], Sequence[F]], _Counted],
    hypotheses: Sequence[H],
    references: Sequence[F],
    threads: int | None,
) -> list[tuple[int, _Counted]] | None:
    """``count`` (a kernel counting function, its settings bound) of each span of the aligned
    segments, on up to ``threads`` threads; ``None`` where they hold more tokens than the
    kernel indexes (2^32), for the pure path."""

    def work(start: int, stop: int) -> _Counted:
        return count(hypotheses[start:stop], references[start:stop])

    try:
        return map_spans(work, len(hypotheses), threads, MIN_SEGMENTS_PER_THREAD)
    except OverflowError:
        return None


_PURE_PROBLEMS = frozenset({"str_subclass", "too_long"})


def _bleu_counts(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
    per_segment: bool,
    validate: bool,
    threads: int | None,
) -> tuple[bytes, list[int]] | None:
    """Kernel statistics (per-segment buffer, totals), or ``None`` for the pure path; raises
    :class:`TokenProblem` when ``validate`` and the input has one."""
    if not _bleu_kernel_ok(hypotheses, references, max_order):
        return None
    parts = _counted_spans(
        lambda hyps, refs: _ext.bleu_counts(hyps, refs, max_order, per_segment, validate),
        hypotheses,
        references,
        threads,
    )
    if parts is None:
        return None
    problems: list[TokenProblem] = []
    for start, (_, _, problem) in parts:  # a part with a problem has no totals
        if problem is not None:
            code, (field, segment, *rest), position = problem
            problems.append(TokenProblem(code, (field, int(segment) + start, *rest), position))
    if problems:
        first = min(problems, key=TokenProblem.order)
        if not validate or first.code in _PURE_PROBLEMS:
            return None
        raise first
    return _join_bleu_parts(parts)


def _join_bleu_parts(
    parts: Sequence[tuple[int, tuple[bytes | None, tuple[int, ...] | None, object]]],
) -> tuple[bytes, list[int]] | None:
    """The per-segment buffers of the parts, joined in order, and the sums of their totals;
    ``None`` if a part has no totals (it reported a problem)."""
    buffers: list[bytes] = []
    columns: list[tuple[int, ...]] = []
    for _, (buf, totals, _) in parts:
        if totals is None:
            return None
        buffers.append(buf or b"")
        columns.append(totals)
    return b"".join(buffers), [sum(column) for column in zip(*columns, strict=True)]


def _bleu_stats(values: Sequence[int], order: int) -> BleuStatistics:
    return BleuStatistics(
        values[0], values[1], tuple(values[2 : 2 + order]), tuple(values[2 + order :])
    )


def bleu_statistics_many(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    *,
    threads: int | None = None,
) -> list[BleuStatistics]:
    """:func:`~mtcompute.core.sentence_statistics` of every segment; ``references[i]``
    holds the one or more reference token lists of segment ``i``.

    >>> bleu_statistics_many([["a", "b"]], [[["a", "b", "c"]]], max_order=2)[0].matches
    (2, 1)
    """
    counts = _bleu_counts(hypotheses, references, max_order, True, False, threads)
    if counts is None:
        return [
            sentence_statistics(h, r, max_order)
            for h, r in zip(hypotheses, references, strict=True)
        ]
    return _bleu_segments(counts[0], max_order)


def _bleu_segments(buffer: bytes, max_order: int) -> list[BleuStatistics]:
    """The per-segment statistics in a kernel buffer (2 + 2 * max_order int64 each)."""
    values = _int64s(buffer)
    width = 2 + 2 * max_order
    return [_bleu_stats(values[i : i + width], max_order) for i in range(0, len(values), width)]


def bleu_totals(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int = 4,
    *,
    validate: bool = False,
    threads: int | None = None,
) -> BleuStatistics:
    """The sum of every segment's BLEU statistics (candidate lengths, closest reference
    lengths, matches and totals each summed). With ``validate``, first raises the first
    :class:`TokenProblem` of the input, if any."""
    counts = _bleu_counts(hypotheses, references, max_order, False, validate, threads)
    if counts is not None:
        return _bleu_stats(counts[1], max_order)
    if validate:
        problem = _find_token_problem(hypotheses, references)
        if problem is not None:
            raise problem
    total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
    for h, r in zip(hypotheses, references, strict=True):
        total = total + sentence_statistics(h, r, max_order)
    return total


def corpus_statistics(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
) -> tuple[list[BleuStatistics], BleuStatistics]:
    """Each segment's statistics, in input order, as bleu-sentence-components counts them
    (:func:`bleu_statistics_many`), and their exact sum (Papineni 2002 §2.1.1, §2.2.2): what
    bleu-ngrams-count and bleu-corpus-compute report; at least one segment."""
    segments = bleu_statistics_many(hypotheses, references, max_order)
    total = segments[0]
    for stats in segments[1:]:
        total = total + stats
    return segments, total


# The tokenizers the kernel's text path applies itself (Tokenizer.kernel).
KERNEL_TOKENIZERS = ("none", "13a")


def bleu_text_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = 4,
    *,
    per_segment: bool = False,
    threads: int | None = None,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = False,
) -> tuple[BleuStatistics, list[BleuStatistics] | None]:
    """BLEU statistics of texts: the sum over the segments and, with ``per_segment``, each
    segment's. ``references[i]`` holds the one or more reference texts of segment ``i``.

    A text's tokens are what sacreBLEU 2.6.0's ``BLEU`` counts: ``str.lower`` when
    ``lowercase``, then, with a ``tokenizer``, ``tokenizer(text.rstrip())``, then
    ``str.split()``; without one (``None``), the text is split on whitespace as it is (as
    ``none`` does). On the kernel's path, when the tokenizer's ``kernel`` is ``13a`` or
    ``none``, the kernel tokenizes and counts in one pass without making a str per token;
    other tokenizers run in Python and the kernel splits their output. The answer is
    :func:`bleu_totals` and :func:`bleu_statistics_many` of the tokens, whichever path
    computes it. Any other layout (a bare str for a segment's references, say) is TypeError
    or ValueError.

    >>> total, each = bleu_text_statistics(["a b\u3000c"], [["a  b d"]], 2, per_segment=True)
    >>> total.matches, total.totals, each == [total]
    ((2, 1), (3, 2), True)
    """
    total, buffer, each = _bleu_text(
        hypotheses, references, max_order, per_segment, threads, tokenizer, lowercase
    )
    if buffer is not None:
        each = _bleu_segments(buffer, max_order)
    return total, each


def bleu_text_rows(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int = 4,
    *,
    threads: int | None = None,
    tokenizer: Tokenizer | None = None,
    lowercase: bool = False,
) -> tuple[BleuStatistics, bytes]:
    """:func:`bleu_text_statistics` with each segment's statistics as one buffer of native
    int64 values, ``2 + 2 * max_order`` a segment (candidate length, reference length, the
    matches and the totals of each order): the kernel's own buffer, without a Python object
    per segment, for code that holds many segments' rows (the significance tests).

    >>> total, rows = bleu_text_rows(["a b"], [["a c"]], 2)
    >>> memoryview(rows).cast("q").tolist()
    [2, 2, 1, 0, 2, 1]
    """
    total, buffer, each = _bleu_text(
        hypotheses, references, max_order, True, threads, tokenizer, lowercase
    )
    if buffer is None:
        assert each is not None  # asked for per segment
        flat = [
            v for s in each for v in (s.candidate_length, s.reference_length, *s.matches, *s.totals)
        ]
        buffer = array("q", flat).tobytes()
    return total, buffer


@kernel_step
def bleu_line_rows(
    hypotheses: bytes,
    references: Sequence[bytes],
    count: int,
    max_order: int = 4,
    *,
    per_segment: bool = False,
    tokenizer: Tokenizer | None = None,
) -> tuple[BleuStatistics, bytes | None] | None:
    """:func:`bleu_text_rows` (``per_segment``: with the buffer, else None in its place) of
    ``count`` undecoded lines: ``hypotheses`` the bytes of the hypotheses' lines, each
    ``references`` item those of one reference of every segment, a line what
    :func:`mtcompute.streaming.split_lines` decodes; the kernel checks, decodes,
    tokenizes and counts them without the GIL and without a str per text. ``None`` where
    it does not (the pure path, a tokenizer it does not apply, an order it does not take, a
    line that is not UTF-8, inputs of other line counts, a text too long for it): the
    caller decodes the lines and takes :func:`bleu_text_rows`' path, which gives the same
    numbers.

    >>> found = bleu_line_rows(b"a b\\n", [b"a c\\n"], 1, 2, per_segment=True)
    >>> found is None or memoryview(found[1]).cast("q").tolist() == [2, 2, 1, 0, 2, 1]
    True
    """
    kernel = "none" if tokenizer is None else tokenizer.kernel
    if not (
        kernel in KERNEL_TOKENIZERS
        and type(max_order) is int
        and 1 <= max_order <= _ext.MAX_ORDER
        and references
    ):
        return None
    assert kernel is not None  # one of KERNEL_TOKENIZERS
    found = _ext.bleu_counts_lines(
        hypotheses, tuple(references), count, max_order, per_segment, kernel
    )
    if found is None:
        return None
    buffer, totals = found
    return _bleu_stats(totals, max_order), buffer


def _bleu_text(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int,
    per_segment: bool,
    threads: int | None,
    tokenizer: Tokenizer | None,
    lowercase: bool,
) -> tuple[BleuStatistics, bytes | None, list[BleuStatistics] | None]:
    """The sum, and per segment (with ``per_segment``) the kernel's buffer or, where the
    kernel did not count, the statistics objects (the other one ``None``)."""
    _check_texts(hypotheses, references)
    if lowercase:
        hypotheses = [text.lower() for text in hypotheses]
        references = [[text.lower() for text in texts] for texts in references]
    kernel = "none" if tokenizer is None else tokenizer.kernel
    if tokenizer is not None and not kernel_tokenizes(tokenizer):
        hypotheses, references = _tokenized(tokenizer, hypotheses, references)
        kernel = "none"
    counts = None
    if kernel is not None and _bleu_kernel_ok(hypotheses, references, max_order):
        parts = _counted_spans(
            lambda hyps, refs: _ext.bleu_counts_text(hyps, refs, max_order, per_segment, kernel),
            hypotheses,
            references,
            threads,
        )
        counts = None if parts is None else _join_bleu_parts(parts)  # None: split below
    if counts is None:  # no kernel, or an input it does not take: tokenize, split, count
        if tokenizer is not None and kernel != "none":
            hypotheses, references = _tokenized(tokenizer, hypotheses, references)
        hyp_tokens = [text.split() for text in hypotheses]
        ref_tokens = [[text.split() for text in texts] for texts in references]
        each = bleu_statistics_many(hyp_tokens, ref_tokens, max_order, threads=threads)
        total = BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)
        for stats in each:
            total = total + stats
        return total, None, (each if per_segment else None)
    buffer, totals = counts
    return _bleu_stats(totals, max_order), (buffer if per_segment else None), None


@kernel_test
def kernel_tokenizes(tokenizer: Tokenizer) -> bool:
    """Whether the kernel applies this tokenizer itself while it counts."""
    return tokenizer.kernel in KERNEL_TOKENIZERS


def _tokenized(
    tokenizer: Tokenizer, hypotheses: Sequence[str], references: Sequence[Sequence[str]]
) -> tuple[list[str], list[list[str]]]:
    """``tokenizer(text.rstrip())`` of every text (sacreBLEU's BLEU preprocessing); all
    texts in one call of a tokenizer that tokenizes a batch (SentencePiece)."""
    if tokenizer.batch is not None:
        flat = tokenizer.many([text.rstrip() for text in [*hypotheses, *chain(*references)]])
        at = len(hypotheses)
        nested = []
        for texts in references:
            nested.append(flat[at : at + len(texts)])
            at += len(texts)
        return flat[: len(hypotheses)], nested
    return (
        [tokenizer(text.rstrip()) for text in hypotheses],
        [[tokenizer(text.rstrip()) for text in texts] for texts in references],
    )


def tokenize_segments(
    segments: Sequence[str], tokenizer: Tokenizer, lowercase: bool
) -> tuple[list[str], ...]:
    """Each segment as sacreBLEU's BLEU counts it: lowercased when asked, rstripped,
    tokenized, split on whitespace."""
    if tokenizer.batch is not None:
        texts = [(s.lower() if lowercase else s).rstrip() for s in segments]
        return tuple(text.split() for text in tokenizer.many(texts))
    if lowercase:
        return tuple(tokenizer(segment.lower().rstrip()).split() for segment in segments)
    return tuple(tokenizer(segment.rstrip()).split() for segment in segments)
