"""The edit counts of WER and CER: the Levenshtein alignment of a reference and a hypothesis
(substitutions, deletions and insertions, each costing 1; no block shifts), with the ties
between alignments of equal cost broken as jiwer 4.0 breaks them (through RapidFuzz's
``Levenshtein.opcodes``), their sums over a corpus, and the rates.

The distance is Hyyrö's bit-parallel computation (H. Hyyrö, "A Note on Bit-Parallel Alignment
Computation", Stringology 2004): one Python integer per hypothesis unit holds the vertical
differences of a column of the dynamic-programming matrix, so a pair costs about
``len(hypothesis) * len(reference) / 30`` machine steps rather than a Python step per cell.
The common prefix and suffix are hits and are set aside first (identical texts cost one
comparison). The alignment is read back from the end: a deletion where the cell above is one
less, else an insertion where the column to the left says so, else a hit or a substitution.
"""

from __future__ import annotations

__all__ = ["EditCounts", "edit_counts", "error_rate", "sum_counts"]

from collections.abc import Hashable, Iterable, Sequence
from typing import NamedTuple


class EditCounts(NamedTuple):
    """One alignment's counts (or their sums): hits + substitutions + deletions is the
    reference's length, hits + substitutions + insertions the hypothesis's."""

    hits: int
    substitutions: int
    deletions: int
    insertions: int

    @property
    def errors(self) -> int:
        """Substitutions, deletions and insertions: the edit distance."""
        return self.substitutions + self.deletions + self.insertions

    @property
    def reference_length(self) -> int:
        """The reference's units: hits, substitutions and deletions."""
        return self.hits + self.substitutions + self.deletions

    @property
    def hypothesis_length(self) -> int:
        """The hypothesis's units: hits, substitutions and insertions."""
        return self.hits + self.substitutions + self.insertions


def _columns(ref: Sequence[Hashable], hyp: Sequence[Hashable]) -> tuple[list[int], list[int]]:
    """Hyyrö's vertical positive and negative difference vectors after each hypothesis unit:
    bit ``i`` of ``vp[j]`` is set where ``D[i + 1][j + 1] - D[i][j + 1]`` is 1 (``vn``: -1),
    ``D`` the edit distances of reference prefixes (rows) and hypothesis prefixes."""
    full = (1 << len(ref)) - 1
    match: dict[Hashable, int] = {}
    bit = 1
    for unit in ref:
        match[unit] = match.get(unit, 0) | bit
        bit <<= 1
    vp, vn = full, 0
    vps: list[int] = []
    vns: list[int] = []
    for unit in hyp:
        x = match.get(unit, 0)
        d0 = (((x & vp) + vp) ^ vp) | x | vn
        hp = vn | ~(d0 | vp)
        hn = d0 & vp
        hp = (hp << 1) | 1
        vp = ((hn << 1) | ~(d0 | hp)) & full
        vn = hp & d0 & full
        vps.append(vp)
        vns.append(vn)
    return vps, vns


def edit_counts(ref: Sequence[Hashable], hyp: Sequence[Hashable]) -> EditCounts:
    """The counts of the alignment of ``ref`` with ``hyp`` (sequences of words, or strings
    of characters), with jiwer 4.0's choice among alignments of equal cost."""
    if ref == hyp:
        return EditCounts(len(ref), 0, 0, 0)
    n, m = len(ref), len(hyp)
    shorter = min(n, m)
    prefix = 0
    while prefix < shorter and ref[prefix] == hyp[prefix]:
        prefix += 1
    suffix = 0
    while suffix < shorter - prefix and ref[n - 1 - suffix] == hyp[m - 1 - suffix]:
        suffix += 1
    ref, hyp = ref[prefix : n - suffix], hyp[prefix : m - suffix]
    hits = prefix + suffix
    if not ref or not hyp:
        return EditCounts(hits, 0, len(ref), len(hyp))
    vps, vns = _columns(ref, hyp)
    substitutions = deletions = insertions = 0
    row, col = len(ref), len(hyp)  # row: reference units left; col: hypothesis units left
    while row and col:
        if vps[col - 1] >> (row - 1) & 1:
            deletions += 1
            row -= 1
            continue
        col -= 1
        if col and vns[col - 1] >> (row - 1) & 1:
            insertions += 1
            continue
        row -= 1
        if ref[row] == hyp[col]:
            hits += 1
        else:
            substitutions += 1
    return EditCounts(hits, substitutions, deletions + row, insertions + col)


def sum_counts(counts: Iterable[EditCounts]) -> EditCounts:
    """The counts of a corpus: each count summed over its segments."""
    hits = substitutions = deletions = insertions = 0
    for h, s, d, i in counts:
        hits += h
        substitutions += s
        deletions += d
        insertions += i
    return EditCounts(hits, substitutions, deletions, insertions)


def error_rate(counts: EditCounts) -> float | None:
    """Errors over reference units (jiwer's ``float(S + D + I) / float(H + S + D)``), or
    None when the reference has no units (the rate is undefined)."""
    length = counts.reference_length
    return counts.errors / length if length else None
