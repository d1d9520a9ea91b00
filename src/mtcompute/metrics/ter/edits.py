"""Translation edit rate (TER; Snover et al. 2006, "A Study of Translation Edit Rate with
Targeted Human Annotation", §2-3: edits with block shifts, shifts chosen greedily) exactly as
sacreBLEU 2.6.0 computes it: ``sacrebleu/metrics/lib_ter.py`` (``translation_edit_rate``, the
shift search ``_shift`` over ``_find_shifted_pairs``, ``_perform_shift``, the alignment of
``trace_to_alignment``, ``BeamEditDistance``) and ``sacrebleu/metrics/ter.py`` (the best
reference, the average reference length, ``_compute_score_from_stats``), with its tercom
tokenizer (:mod:`mtcompute.metrics.ter.tokenizer`).

The same edit counts, not merely a TER: the same limits (:data:`MAX_SHIFT_SIZE`,
:data:`MAX_SHIFT_DIST`, :data:`BEAM_WIDTH`, :data:`MAX_SHIFT_CANDIDATES`, unit costs), the
same candidate order and tie-breaking (gain, then the longer block, the earlier start, the
earlier target; the first of equals kept), the same beam around the length-ratio diagonal
(its float arithmetic included) and the same "infinity" of ``10**16`` for cells outside it.

What differs from sacreBLEU's code changes no result, and is what a port to C needs:

* Words are compared for equality only, so they may be interned ints (:func:`intern_words`).
  sacreBLEU's candidate tuples end with the shifted word list, compared only when the four
  figures before it are equal, which means the same block, start and target, hence the same
  list: the order of words never decides.
* The edit-distance matrix keeps costs only. sacreBLEU stores an operation beside each cost
  and reads its trace from them; a cell's operation is the first of (match or substitution,
  deletion, insertion) that reaches its cost (strict ``>`` updates from infinity), so
  :func:`_alignment` reads the same trace back from the costs.
* Rows are cached per hypothesis prefix in a trie as sacreBLEU's ``BeamEditDistance`` does
  (at most :data:`MAX_CACHE_SIZE` nodes, checked before each insertion). Every hypothesis an
  instance sees has the same length (shifts keep it), and a row depends only on the words
  before it and that length, so a cached row is the row that would be computed: the cache
  saves time and never changes a result. One cache per call, none shared.
* Pairs of matching blocks are enumerated in sacreBLEU's order (hypothesis start, then
  reference start, then length) but only from reference positions holding the same word;
  error sums over blocks use prefix sums.
"""

from __future__ import annotations

__all__ = [
    "BEAM_WIDTH",
    "COST_DEL",
    "COST_INS",
    "COST_SUB",
    "INT_INFINITY",
    "MAX_CACHE_SIZE",
    "MAX_SHIFT_CANDIDATES",
    "MAX_SHIFT_DIST",
    "MAX_SHIFT_SIZE",
    "corpus_statistics",
    "intern_words",
    "score_from_statistics",
    "segment_statistics",
    "sum_statistics",
    "translation_edit_rate",
]

import math
from collections.abc import Hashable, Sequence

from mtcompute.metrics.ter.tokenizer import TercomTokenizer

COST_INS = 1
COST_DEL = 1
COST_SUB = 1

# Tercom's limits, as sacreBLEU takes them
MAX_SHIFT_SIZE = 10
"""The longest block a shift moves (words)."""
MAX_SHIFT_DIST = 50
"""The largest distance between a block's start in the hypothesis and in the reference."""
BEAM_WIDTH = 25
"""Half the band of edit-distance cells computed around the diagonal (widened for very unequal
lengths as sacreBLEU widens it)."""

# sacreBLEU's own limits
MAX_CACHE_SIZE = 10000
"""Rows cached per segment and reference (a bound on memory; no effect on results)."""
MAX_SHIFT_CANDIDATES = 1000
"""Shift candidates evaluated per segment and reference, over all shifts; when a search
reaches it, the search stops and its best shift is not applied."""
INT_INFINITY = 10**16
"""sacreBLEU's ``int(1e16)``: the cost of a cell outside the beam."""

_Row = list[int]
_Node = dict[int, tuple["_Node", _Row]]


def intern_words(words: Sequence[str], vocabulary: dict[str, int]) -> list[int]:
    """The words as ids of ``vocabulary``, adding the words it lacks (ids 0, 1, 2, ... in
    order of first appearance).

    >>> vocabulary: dict[str, int] = {}
    >>> intern_words(["a", "b", "a"], vocabulary), intern_words(["b", "c"], vocabulary)
    ([0, 1, 0], [1, 2])
    """
    return [vocabulary.setdefault(word, len(vocabulary)) for word in words]


class _BeamEditDistance:
    """sacreBLEU's ``BeamEditDistance`` for hypotheses of one length against one reference:
    the Levenshtein distance (unit costs) over a band of cells around the diagonal, with the
    rows cached by hypothesis prefix."""

    __slots__ = ("_bounds", "_cache", "_cache_size", "_reference")

    def __init__(self, reference: Sequence[int], hypothesis_length: int) -> None:
        n_ref = len(reference)
        self._reference = reference
        # sacreBLEU computes the ratio, the band and each row's diagonal in these float steps
        ratio = n_ref / hypothesis_length if hypothesis_length else 1
        beam_width = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
        bounds = []
        for i in range(1, hypothesis_length + 1):
            diagonal = math.floor(i * ratio)
            low = max(0, diagonal - beam_width)
            high = min(n_ref + 1, diagonal + beam_width)
            if i == hypothesis_length:
                high = n_ref + 1
            bounds.append((low, high))
        self._bounds = bounds
        # the first row: j insertions to reach reference position j
        self._cache: tuple[_Node, _Row] = ({}, [j * COST_INS for j in range(n_ref + 1)])
        self._cache_size = 0

    def rows(self, words: Sequence[int]) -> list[_Row]:
        """The ``len(words) + 1`` rows of the matrix (costs; ``INT_INFINITY`` outside the
        band), from the cache where a prefix of ``words`` is in it."""
        node, first = self._cache
        rows = [first]
        for word in words:
            entry = node.get(word)
            if entry is None:
                break
            node, row = entry
            rows.append(row)
        start = len(rows) - 1
        if start == len(words):
            return rows

        reference = self._reference
        bounds = self._bounds
        infinity = INT_INFINITY
        width = len(reference) + 1
        previous = rows[-1]
        for i in range(start + 1, len(words) + 1):
            word = words[i - 1]
            low, high = bounds[i - 1]
            current = [infinity] * width
            if low == 0:
                current[0] = previous[0] + COST_DEL  # unconditional, as sacreBLEU sets it
                low = 1
            left = current[low - 1]
            for j in range(low, high):
                # the first of (match or substitution, deletion, insertion) reaching the
                # minimum (conditional expressions: no call per cell); a cell stays at
                # infinity unless one is below it
                cost = previous[j - 1] + (COST_SUB if word != reference[j - 1] else 0)
                deletion = previous[j] + COST_DEL
                cost = deletion if deletion < cost else cost
                insertion = left + COST_INS
                cost = insertion if insertion < cost else cost
                cost = infinity if cost > infinity else cost
                current[j] = cost
                left = cost
            rows.append(current)
            previous = current
        self._add(words, start, rows)
        return rows

    def _add(self, words: Sequence[int], start: int, rows: list[_Row]) -> None:
        """Cache the rows after ``start`` (sacreBLEU's ``_add_cache``: nothing once the cache
        holds ``MAX_CACHE_SIZE`` rows, else all of them)."""
        if self._cache_size >= MAX_CACHE_SIZE:
            return
        node = self._cache[0]
        for i in range(start):
            node = node[words[i]][0]
        for i in range(start, len(words)):
            entry = node.get(words[i])
            if entry is None:
                entry = ({}, rows[i + 1])
                node[words[i]] = entry
                self._cache_size += 1
            node = entry[0]


def _alignment(
    words: Sequence[int], reference: Sequence[int], rows: list[_Row]
) -> tuple[list[int], list[int], list[int]]:
    """sacreBLEU's ``trace_to_alignment(_flip_trace(trace))`` of the matrix ``rows``: for each
    reference position the hypothesis position aligned with it (-1 before the first), and
    the error flags of the reference and of the hypothesis positions.

    The trace is read back from the costs: at a cell, the first of match or substitution,
    deletion (a hypothesis word), insertion (a reference word) whose predecessor's cost plus
    its own gives the cell's.
    """
    i, j = len(words), len(reference)
    ops: list[int] = []  # 0 match, 1 substitution, 2 hypothesis word only, 3 reference word only
    while i > 0 or j > 0:
        if i == 0:
            op = 3
        elif j == 0:
            op = 2
        else:
            cost = rows[i][j]
            substitution = 0 if words[i - 1] == reference[j - 1] else COST_SUB
            if rows[i - 1][j - 1] + substitution == cost:
                op = 1 if substitution else 0
            elif rows[i - 1][j] + COST_DEL == cost:
                op = 2
            else:
                op = 3
        ops.append(op)
        if op <= 1:
            i -= 1
            j -= 1
        elif op == 2:
            i -= 1
        else:
            j -= 1

    align: list[int] = []
    ref_err: list[int] = []
    hyp_err: list[int] = []
    pos_hyp = -1
    for op in reversed(ops):
        if op <= 1:
            pos_hyp += 1
            align.append(pos_hyp)
            hyp_err.append(op)
            ref_err.append(op)
        elif op == 2:
            pos_hyp += 1
            hyp_err.append(1)
        else:
            align.append(pos_hyp)
            ref_err.append(1)
    return align, ref_err, hyp_err


def _prefix_sums(flags: list[int]) -> list[int]:
    sums = [0]
    total = 0
    for flag in flags:
        total += flag
        sums.append(total)
    return sums


def _perform_shift(words: list[int], start: int, length: int, target: int) -> list[int]:
    """sacreBLEU's ``_perform_shift``: the block ``words[start:start + length]`` moved so that
    it starts before ``words[target]`` (of the list without it, when ``target`` is inside)."""
    if target < start:
        return (
            words[:target]
            + words[start : start + length]
            + words[target:start]
            + words[start + length :]
        )
    if target > start + length:
        return (
            words[:start]
            + words[start + length : target]
            + words[start : start + length]
            + (words[target:])
        )
    return (
        words[:start]
        + words[start + length : length + target]
        + words[start : start + length]
        + words[length + target :]
    )


def _shift(
    words: list[int],
    reference: Sequence[int],
    positions: dict[int, list[int]],
    distance: _BeamEditDistance,
    checked: int,
) -> tuple[int, list[int], int]:
    """sacreBLEU's ``_shift``: the best shift of ``words`` towards ``reference`` as
    (gain, shifted words, candidates checked so far); gain 0 and ``words`` when none."""
    rows = distance.rows(words)
    pre_score = rows[-1][-1]
    align, ref_err, hyp_err = _alignment(words, reference, rows)
    hyp_sums = _prefix_sums(hyp_err)
    ref_sums = _prefix_sums(ref_err)
    n_hyp, n_ref = len(words), len(reference)

    best: tuple[int, int, int, int] | None = None
    best_words = words
    for start_h in range(n_hyp):
        starts = positions.get(words[start_h], ())
        for start_r in starts:
            if abs(start_r - start_h) > MAX_SHIFT_DIST:
                continue
            # the lengths of the matching blocks at (start_h, start_r), 1 up, as
            # _find_shifted_pairs yields them
            length = 0
            while (
                length < MAX_SHIFT_SIZE and words[start_h + length] == reference[start_r + length]
            ):
                length += 1
                # the block must hold a hypothesis error and a reference error, and must not
                # be where the reference's first word is aligned already
                if (
                    hyp_sums[start_h + length] != hyp_sums[start_h]
                    and ref_sums[start_r + length] != ref_sums[start_r]
                    and not start_h <= align[start_r] < start_h + length
                ):
                    previous_target = -1
                    for offset in range(-1, length):
                        # before the word aligned with each reference position from the one
                        # before the block's to its last (sacreBLEU inserts before, tercom
                        # after)
                        target = 0 if start_r + offset == -1 else align[start_r + offset] + 1
                        if target == previous_target:
                            continue
                        previous_target = target
                        shifted = _perform_shift(words, start_h, length, target)
                        candidate = (
                            pre_score - distance.rows(shifted)[-1][-1],
                            length,
                            -start_h,
                            -target,
                        )
                        checked += 1
                        if best is None or candidate > best:
                            best, best_words = candidate, shifted
                    if checked >= MAX_SHIFT_CANDIDATES:
                        return _found(best, best_words, words, checked)
                if start_h + length == n_hyp or start_r + length == n_ref:
                    break
    return _found(best, best_words, words, checked)


def _found(
    best: tuple[int, int, int, int] | None, best_words: list[int], words: list[int], checked: int
) -> tuple[int, list[int], int]:
    if best is None:
        return 0, words, checked
    return best[0], best_words, checked


def translation_edit_rate(
    hypothesis: Sequence[Hashable], reference: Sequence[Hashable]
) -> tuple[int, int]:
    """(edits, reference length) of one hypothesis against one reference, as sacreBLEU's
    ``translation_edit_rate``: shifts applied greedily while the best one lowers the edit
    distance, then the edit distance; an empty reference costs one edit per hypothesis word.
    Words are compared for equality only: pass interned ids (:func:`intern_words`) or any
    hashables.

    >>> translation_edit_rate("d e f g h a b c".split(), "a b c d e f g h".split())
    (1, 8)
    """
    n_ref = len(reference)
    if n_ref == 0:
        return len(hypothesis), 0
    ids: dict[Hashable, int] = {}
    ref = [ids.setdefault(word, len(ids)) for word in reference]
    words = [ids.setdefault(word, len(ids)) for word in hypothesis]
    positions: dict[int, list[int]] = {}
    for position, word in enumerate(ref):
        positions.setdefault(word, []).append(position)

    distance = _BeamEditDistance(ref, len(words))
    shifts = 0
    checked = 0
    while True:
        gain, shifted, checked = _shift(words, ref, positions, distance, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        words = shifted
    return shifts + distance.rows(words)[-1][-1], n_ref


def segment_statistics(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]]
) -> tuple[int, float]:
    """(edits, average reference length) of one segment's tokens, as sacreBLEU's
    ``TER._compute_segment_statistics``: the fewest edits over the references (the first on a
    tie), and the mean of their lengths (a float). ``references`` must not be empty.

    >>> segment_statistics("a b c".split(), ["a b c d".split(), "x a b c".split()])
    (1, 4.0)
    """
    if not references:
        raise ValueError("a segment needs at least one reference")
    vocabulary: dict[str, int] = {}
    words = intern_words(hypothesis, vocabulary)
    best = INT_INFINITY
    lengths = 0
    for reference in references:
        edits, length = translation_edit_rate(words, intern_words(reference, vocabulary))
        lengths += length
        best = min(best, edits)
    return best, lengths / len(references)


def corpus_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    tokenizer: TercomTokenizer,
) -> list[tuple[int, float]]:
    """Per segment (edits, average reference length) from raw text, as sacreBLEU's TER
    computes them: ``references[i]`` is segment i's list of one or more reference strings
    (per-segment layout); each line is right-stripped and tokenized, a reference twice
    (sacreBLEU preprocesses its references once when caching them and again when extracting
    their words), then split on whitespace.

    >>> corpus_statistics(["The cat sat on mat."], [["The cat sat on the mat."]],
    ...                   TercomTokenizer())
    [(1, 6.0)]
    """
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references)} reference lists "
            "(one list per segment expected)"
        )
    statistics = []
    for hypothesis, segment_references in zip(hypotheses, references, strict=True):
        words = tokenizer(hypothesis.rstrip()).split()
        refs = [tokenizer(tokenizer(ref.rstrip()).rstrip()).split() for ref in segment_references]
        statistics.append(segment_statistics(words, refs))
    return statistics


def sum_statistics(statistics: Sequence[tuple[int, float]]) -> tuple[int, float]:
    """(total edits, total of the average reference lengths) as sacreBLEU's ``sum_of_lists``
    adds them: in segment order, one float addition at a time from 0 (not :func:`math.fsum`,
    nor :func:`sum`, whose float algorithm changed in Python 3.12).

    >>> sum_statistics([(1, 6.5), (2, 9.0)])
    (3, 15.5)
    """
    edits = 0
    length: float = 0
    for segment_edits, segment_length in statistics:
        edits += segment_edits
        length += segment_length
    return edits, length


def score_from_statistics(num_edits: int, ref_length: float) -> float:
    """TER on sacreBLEU's 0-100 scale from (total) edits and reference length, as
    ``TER._compute_score_from_stats``: ``100 * (edits / length)``; with a zero length, 100.0
    when there are edits (empty references, a non-empty hypothesis) and 0.0 when not.

    >>> score_from_statistics(3, 15.5), score_from_statistics(2, 0.0), score_from_statistics(0, 0)
    (19.35483870967742, 100.0, 0.0)
    """
    if ref_length > 0:
        score = num_edits / ref_length
    elif num_edits > 0:
        score = 1.0
    else:
        score = 0.0
    return 100 * score
