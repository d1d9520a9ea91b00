"""jiwer 4.0 as the oracle of WER and CER, in wer-compute's result shape.

:func:`jiwer_result` scores a corpus with jiwer's ``process_words``/``process_characters`` and
the transforms that match wer-compute's options (:func:`transform`); each segment is scored
alone for its counts. A segment whose reference has no units gets the score None (jiwer gives
its insertions there, which :func:`jiwer_segment_score` returns for the tests that say so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jiwer

UNITS = ("word", "character")
NORMALISATIONS = ("lowercase", "remove_punctuation", "collapse_whitespace")
RAPIDFUZZ_ONE_MATRIX = 4_194_304
"""Unit pairs below which RapidFuzz aligns on one matrix (its Hirschberg threshold:
2 x pairs / 8 bytes under 1 MiB)."""


def transform(unit: str = "word", **options: bool) -> jiwer.Compose:
    """jiwer's transforms for wer-compute's ``unit`` and normalisations: ToLowerCase,
    RemovePunctuation, every whitespace run made one space, then jiwer's defaults."""
    steps: list[Any] = []
    if options.get("lowercase"):
        steps.append(jiwer.ToLowerCase())
    if options.get("remove_punctuation"):
        steps.append(jiwer.RemovePunctuation())
    if options.get("collapse_whitespace"):
        steps.append(jiwer.SubstituteRegexes({r"\s+": " "}))
    default = jiwer.wer_default if unit == "word" else jiwer.cer_default
    return jiwer.Compose([*steps, *default.transforms])


def _process(refs: Sequence[str], hyps: Sequence[str], unit: str, **options: bool) -> Any:
    chosen = transform(unit, **options)
    return jiwer.process_words(list(refs), list(hyps), chosen, chosen)


def _counts(output: Any) -> dict[str, int]:
    h, s, d, i = output.hits, output.substitutions, output.deletions, output.insertions
    return {
        "hits": h,
        "substitutions": s,
        "deletions": d,
        "insertions": i,
        "reference_length": h + s + d,
        "hypothesis_length": h + s + i,
    }


def jiwer_segment_score(hyp: str, ref: str, unit: str = "word", **options: bool) -> float:
    """jiwer's own rate of one pair (the insertions when the reference has no units)."""
    return float(_process([ref], [hyp], unit, **options).wer)


def jiwer_result(
    hyps: Sequence[str], refs: Sequence[str], unit: str = "word", **options: bool
) -> dict[str, Any]:
    """jiwer 4.0's corpus rate and counts in wer-compute's shape; each segment's counts from
    the corpus call's alignments (what jiwer adds up), its score jiwer's formula on them."""
    corpus = _process(refs, hyps, unit, **options)
    segments = []
    for chunks, ref, hyp in zip(
        corpus.alignments, corpus.references, corpus.hypotheses, strict=True
    ):
        done = {"equal": 0, "substitute": 0, "delete": 0, "insert": 0}
        for chunk in chunks:
            size = chunk.hyp_end_idx - chunk.hyp_start_idx
            done[chunk.type] += (
                size if chunk.type == "insert" else chunk.ref_end_idx - chunk.ref_start_idx
            )
        h, s, d, i = done["equal"], done["substitute"], done["delete"], done["insert"]
        assert (h + s + d, h + s + i) == (len(ref), len(hyp))
        score = float(s + d + i) / float(h + s + d) if ref else None
        segments.append({"score": score, "hits": h, "substitutions": s, "deletions": d,
                         "insertions": i, "reference_length": len(ref),
                         "hypothesis_length": len(hyp)})  # fmt: skip
    return {
        "metric": "WER" if unit == "word" else "CER",
        "score": corpus.wer,
        **_counts(corpus),
        "segment_count": len(hyps),
        "segments": segments,
    }
