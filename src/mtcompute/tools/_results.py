"""Result records that write the contract's output object from their own fields.

A tool's result is a frozen dataclass whose fields are the output schema's properties, in its
order; :class:`Output` writes them as the ``result`` object: tuples as arrays, nested results
as objects, clipping-table entries as bleu-sentence-components' ``ngrams`` rows, exact
fractions as ``"n/d"`` texts, and a field declared with :func:`omitted_when_none` left out
while it is ``None`` (any other ``None`` is JSON ``null``). A result whose output has computed
keys (properties) names its keys in order in ``OUTPUT_KEYS``.
"""

from __future__ import annotations

__all__ = ["Output", "chrf_order", "json_value", "ngram_row", "omitted_when_none"]

from dataclasses import Field, field, fields
from fractions import Fraction
from typing import Any, ClassVar

from mtcompute.metrics.bleu.statistics import NgramEntry
from mtcompute.metrics.chrf.ngrams import format_fraction

_OMIT = "omitted when None"


def omitted_when_none() -> Any:
    """A dataclass field, ``None`` by default, that the output leaves out while it is None."""
    return field(default=None, metadata={_OMIT: True})


def ngram_row(entry: NgramEntry) -> dict[str, object]:
    """One ``ngrams`` row: order, ngram, count, max_reference_count, clipped_count."""
    return {
        "order": entry.order,
        "ngram": list(entry.ngram),
        "count": entry.count,
        "max_reference_count": entry.max_reference_count,
        "clipped_count": entry.clipped_count,
    }


def chrf_order(index: int, char_order: int) -> tuple[str, int]:
    """The kind (``char`` or ``word``) and n of a chrF statistics row: the character orders
    come first, then the word orders."""
    return ("char", index + 1) if index < char_order else ("word", index - char_order + 1)


_SCALARS = (str, int, float, bool, type(None))


def json_value(value: object) -> object:
    """``value`` as the JSON-like value the output holds."""
    if type(value) in _SCALARS:
        return value  # the common case, as the last line below returns it
    if isinstance(value, tuple | list):
        return [json_value(item) for item in value]
    if isinstance(value, NgramEntry):
        return ngram_row(value)
    if isinstance(value, Output):
        return value.to_dict()
    if isinstance(value, Fraction):
        return format_fraction(value)
    return value


class Output:
    """Mixin for a result dataclass: :meth:`to_dict` from the fields, in their order, or from
    the attributes ``OUTPUT_KEYS`` names."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    OUTPUT_KEYS: ClassVar[tuple[str, ...]] = ()
    """The output's keys in order, when they are not the fields (empty: the fields)."""

    def to_dict(self) -> dict[str, object]:
        """The contract's output object, keys in the output schema's order."""
        out: dict[str, object] = {}
        for name, omit_none in _output_fields(self):
            value = getattr(self, name)
            if value is None and omit_none:
                continue
            out[name] = json_value(value)
        return out


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _output_fields(result: Output) -> tuple[tuple[str, bool], ...]:
    """The result class's output keys in order, each with whether it is left out while None
    (read from the class once, not per result)."""
    known = _FIELDS.get(type(result))
    if known is None:
        if result.OUTPUT_KEYS:
            known = tuple((name, False) for name in result.OUTPUT_KEYS)
        else:
            known = tuple((f.name, bool(f.metadata.get(_OMIT))) for f in fields(result))
        _FIELDS[type(result)] = known
    return known
