"""The library corpus APIs' arguments (:func:`~mtcompute.metrics.bleu.corpus.corpus_bleu`,
:func:`~mtcompute.metrics.chrf.corpus.corpus_chrf`, :func:`~mtcompute.metrics.ter.corpus.corpus_ter`
and their kin): the field types without the service limits, the raw-text checks in their
order, and an iterable input read and checked a chunk at a time.

Apart from :mod:`mtcompute.metrics._corpus` (the results, their sums) so that what scores
arguments already checked, such as the ``score`` command's undecoded lines
(:func:`~mtcompute.metrics.chrf.corpus.corpus_chrf_lines`), needs none of the validation
layer (:mod:`mtcompute.contracts.validate`): the functions that take the library's arguments
import this module.
"""

from __future__ import annotations

__all__ = [
    "ANY_TEXTS",
    "BETA",
    "FLAG",
    "HYPOTHESES",
    "HYPOTHESIS",
    "MAX_ORDER",
    "REFERENCE",
    "REFERENCES",
    "REFERENCE_TEXTS",
    "RULES",
    "SEGMENT_REFERENCES",
    "SEGMENT_TEXTS",
    "SMOOTH_METHOD",
    "SMOOTH_VALUE",
    "TEXTS",
    "TEXT_REFERENCES",
    "TOKEN",
    "WORD_ORDER",
    "ReferenceTexts",
    "check_same_count",
    "check_smooth_value",
    "checked_texts",
    "no_lone_surrogates",
    "no_lone_surrogates_in",
    "scored_chunks",
]

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from mtcompute import counting, streaming
from mtcompute.contracts.fields import (
    BETA,
    MAX_ORDER,
    RULES,
    SMOOTH_METHOD,
    SMOOTH_VALUE,
    WORD_ORDER,
    check_smooth_value,
    texts,
)
from mtcompute.contracts.validate import (
    Array,
    Boolean,
    FieldType,
    Text,
    Token,
    check_same_count,
    describe,
    where,
)
from mtcompute.errors import InvalidInput, MtcomputeError, json_pointer

# --- field types -----------------------------------------------------------------------------
# The raw-text arguments' types: the tools' field types, without the service limits.

FLAG = Boolean()
TEXTS = texts()
SEGMENT_TEXTS = Array(Text(), "an array of strings", "reference", 1)
TEXT_REFERENCES = Array(SEGMENT_TEXTS, "an array of reference lists", "segment", 1)


@dataclass(frozen=True, slots=True)
class ReferenceTexts(FieldType[list[list[str]]]):
    """Raw-text references per segment, flat or nested (the first item decides): one string
    per segment, or one array of one or more strings per segment; parsed to the nested form.

    >>> REFERENCE_TEXTS.parse(["a", "b"], "/references")
    [['a'], ['b']]
    """

    def parse(self, value: object, path: str) -> list[list[str]]:
        items = TEXTS.check_shape(value, path)
        first = items[0]
        if isinstance(first, str):
            return [[text] for text in TEXTS.items.parse_items(items, path)]
        if not isinstance(first, list | tuple):
            at = f"{path}/0"
            raise InvalidInput(
                f"Expected a string or an array of strings {where(at)}, got {describe(first)}.",
                at,
            )
        if _all_strings(items):  # the usual case, without a call per item
            return [list(cast("Sequence[str]", segment)) for segment in items]
        return SEGMENT_TEXTS.parse_items(items, path)  # the first fault and its message

    def schema(self) -> dict[str, object]:
        return {"anyOf": [TEXTS.schema(), TEXT_REFERENCES.schema()]}


def _all_strings(items: Sequence[object]) -> bool:
    """Whether every item is a list or tuple of one or more str (each segment's references),
    in a plain loop (faster than a call or a generator per item)."""
    for segment in items:
        if not isinstance(segment, list | tuple) or not segment:
            return False
        for text in segment:
            if not isinstance(text, str):
                return False
    return True


REFERENCE_TEXTS = ReferenceTexts()
"""``references`` of the raw-text metrics (:class:`ReferenceTexts`)."""


# --- token lists (corpus_bleu with tokenize=None) ---------------------------------------------

TOKEN = Token()
HYPOTHESIS = Array(TOKEN, "a token list (an array)")
REFERENCE = Array(TOKEN, "a reference token list (an array)")
SEGMENT_REFERENCES = Array(REFERENCE, "an array of token lists", "reference", 1)
HYPOTHESES = Array(HYPOTHESIS, "an array of token lists", "segment", 1)
REFERENCES = Array(SEGMENT_REFERENCES, "an array of reference lists", "segment", 1)

ANY_TEXTS = Array(Text(), "an array of strings", "segment")
""":func:`~mtcompute.metrics.chrf.corpus.chrf_pairwise`'s texts: an array of strings,
possibly empty."""


# --- raw-text checks -------------------------------------------------------------------------


def no_lone_surrogates(texts: Sequence[str], *path: str | int) -> None:
    """InvalidInput at ``/path.../i`` for the first text holding a lone surrogate."""
    found = counting.first_lone_surrogate(texts)
    if found is not None:
        i, at = found
        pointer = json_pointer(*path, i)
        raise InvalidInput(
            f"Expected text without lone surrogates at {pointer}, "
            f"got U+{ord(texts[i][at]):04X} at index {at}.",
            pointer,
        )


def no_lone_surrogates_in(references: Sequence[Sequence[str]], flat: bool) -> None:
    """Every reference text, in reading order: at ``/references/i`` when the references were
    given flat, at ``/references/i/j`` when nested."""
    if flat:
        no_lone_surrogates([segment[0] for segment in references], "references")
        return
    if counting.first_lone_surrogate([t for segment in references for t in segment]) is not None:
        for i, segment in enumerate(references):
            no_lone_surrogates(segment, "references", i)


def checked_texts(
    hypotheses: Sequence[str], references: Sequence[str] | Sequence[Sequence[str]], unit: str | None
) -> list[list[str]]:
    """The raw-text checks of chrF and TER, in order: hypotheses, references (returned
    nested), equal counts (``unit`` phrases the message: :func:`check_same_count`), lone
    surrogates. Texts the kernel finds plain (:func:`mtcompute.counting.plain_texts`: every
    check passes) are returned as they are, without a Python call per text."""
    if counting.plain_texts(hypotheses, references):
        return cast("list[list[str]]", references)
    TEXTS.parse(hypotheses, "/hypotheses")
    refs = REFERENCE_TEXTS.parse(references, "/references")
    check_same_count("hypotheses", hypotheses, "references", references, unit)
    no_lone_surrogates(hypotheses, "hypotheses")
    no_lone_surrogates_in(refs, isinstance(references[0], str))
    return refs


# --- a corpus in chunks ----------------------------------------------------------------------

R = TypeVar("R")


def _same_form(first: object, item: object, path: str) -> None:
    """A chunk's first raw-text reference has the form of the whole input's first (flat: a
    string; nested: an array of strings), as :data:`REFERENCE_TEXTS` requires of every item."""
    if isinstance(first, str):
        TEXTS.items.parse(item, path)
    else:
        SEGMENT_TEXTS.parse(item, path)


def scored_chunks(
    score: Callable[[list[Any], list[Any]], R],
    hypotheses: Iterable[Any],
    references: Iterable[Any],
    *,
    unit: str | None,
    texts: bool,
) -> Iterator[R]:
    """``score`` (a corpus function, its options bound) of each chunk of aligned iterables
    read in chunks (:func:`mtcompute.streaming.in_chunks`), in order, for the caller to add
    up. Errors name the segment's index in the whole input; with ``texts`` (raw-text
    references) every chunk's first reference must have the form of the first chunk's. The
    checks run chunk by chunk: a fault is found once the chunks before it have been scored,
    so with several faults the one reported may differ from a list's (of one fault, never)."""
    first: object = None
    try:
        for start, hyps, refs in streaming.in_chunks(hypotheses, references):
            if start == 0:
                first = refs[0] if refs else None
            elif texts:
                try:
                    _same_form(first, refs[0], "/references/0")
                except MtcomputeError as error:
                    raise streaming.shifted(error, start) from None
            try:
                part = score(hyps, refs)
            except MtcomputeError as error:
                raise streaming.shifted(error, start) from None
            yield part
    except streaming.CountMismatch as mismatch:
        check_same_count(
            "hypotheses", range(mismatch.first), "references", range(mismatch.second), unit
        )
        raise  # check_same_count raised: the counts differ
