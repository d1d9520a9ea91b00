"""The Record base (core/_record.py) that replaced frozen dataclasses on the score path:
value equality and hash, repr, immutability, pickle and copy, match, and subclassing."""

from __future__ import annotations

import copy
import pickle
from fractions import Fraction

import pytest

from mtcompute.batch import CorpusBleu, CorpusChrf
from mtcompute.core._record import Record
from mtcompute.core.bleu import BleuStatistics, NgramEntry, SmoothedBleu
from mtcompute.core.chrf import ChrfStatistics, chrf_ratio
from mtcompute.tools._bleu_common import Corpus, ScoringOptions

CHRF = ChrfStatistics((2, 1), (3, 2), (1, 0))
RECORDS: list[Record] = [
    CHRF,
    BleuStatistics(3, 4, (2, 1), (3, 2)),
    NgramEntry(2, ("a", "b"), 2, 1),
    SmoothedBleu(0.5, 1.0, 2, (2, 0.5), (3, 2)),
    CorpusChrf.from_statistics(CHRF, 2, (25.0,)),
    CorpusBleu(0.5, 1.0, (2, 1), (3, 2), 3, 4, 2),
    Corpus([["a"]], [[["a"]]], 2, 2),
    ScoringOptions("method1", 0.2, True, 4),
]


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_records_are_immutable_values_that_pickle_and_copy(record: Record) -> None:
    """Equal to a rebuilt copy (pickle, copy, deepcopy), a repr that names every field, no
    assignment, and positional match patterns over the fields."""
    cls = type(record)
    values = tuple(getattr(record, name) for name in cls.__match_args__)
    rebuilt = [pickle.loads(pickle.dumps(record)), copy.copy(record), copy.deepcopy(record)]
    with pytest.raises(AttributeError, match="immutable"):
        setattr(record, cls.__match_args__[0], None)
    assert (rebuilt, cls(*values), True) == (
        [record] * 3,
        record,
        all(f"{name}=" in repr(record) for name in cls.__match_args__),
    )


def test_a_subclass_of_a_record_keeps_the_base_fields() -> None:
    """Fields add up along the bases: equality, repr, pickle and match see all of them."""
    tagged = _Tagged(3, 4, (2, 1), (3, 2), "x")
    other = _Tagged(9, 4, (2, 1), (3, 2), "x")
    match tagged:
        case _Tagged(c, _, _, _, tag):
            matched = (c, tag)
    shown = repr(tagged)
    assert (False, True, (3, "x"), True) == (
        tagged == other,
        pickle.loads(pickle.dumps(tagged)) == tagged,
        matched,
        shown.startswith("_Tagged(candidate_length=3, ") and shown.endswith("tag='x')"),
    )


def test_records_of_different_classes_are_not_equal() -> None:
    """The class is part of the value, as with dataclasses."""
    assert _Tagged(3, 4, (2, 1), (3, 2), "x") != BleuStatistics(3, 4, (2, 1), (3, 2))


def test_chrf_ratio_keeps_the_denominator_positive() -> None:
    """Even for invalid (negative) counts the sign goes on the numerator, as in Fraction."""
    stats = ChrfStatistics((1,), (1,), (-1,))
    value = Fraction(*chrf_ratio(stats, 2))
    assert ((value.numerator, value.denominator), -100) == (chrf_ratio(stats, 2), value)


class _Tagged(BleuStatistics):
    __slots__ = ("tag",)
    tag: str

    def __init__(
        self, c: int, r: int, matches: tuple[int, ...], totals: tuple[int, ...], tag: str
    ) -> None:
        super().__init__(c, r, matches, totals)
        object.__setattr__(self, "tag", tag)
