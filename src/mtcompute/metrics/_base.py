"""What every metric shares: sacreBLEU 2.6.0's score line and signature strings, and
statistics summed over the chunks of a streamed input.

A metric's result formats itself as sacreBLEU's ``Score.format`` does (:class:`Formatted`,
:func:`format_score`); its signature is sacreBLEU's ``Signature.format`` string of its
fields (:func:`common_fields` and the metric's own, :func:`format_signature`).
"""

from __future__ import annotations

__all__ = [
    "ABBREVIATIONS",
    "SACREBLEU_VERSION",
    "Formatted",
    "common_fields",
    "format_score",
    "format_signature",
    "summed_in_chunks",
]

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from mtcompute import streaming

SACREBLEU_VERSION = "2.6.0"
"""The sacreBLEU release whose numbers, strings and signatures these are."""

ABBREVIATIONS = {
    "version": "v",
    "nrefs": "#",
    "test": "t",
    "lang": "l",
    "subset": "S",
    "origlang": "o",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "nc": "nc",
    "nw": "nw",
    "space": "s",
}


def format_score(
    name: str,
    score: float,
    *,
    width: int = 2,
    score_only: bool = False,
    signature: str = "",
    is_json: bool = False,
    verbose: str = "",
    mean: float = -1.0,
    ci: float = -1.0,
) -> str:
    """sacreBLEU's ``Score.format``: ``name|signature = score verbose``, the score alone, or
    its JSON (one-space indent, non-ASCII as is); ``mean``/``ci`` from bootstrap resampling.

    >>> format_score("chrF2", 72.15003498419406, signature="nrefs:1|version:2.6.0")
    'chrF2|nrefs:1|version:2.6.0 = 72.15'
    """
    d: dict[str, object] = {
        "name": name,
        "score": float(f"{score:.{width}f}"),
        "signature": signature,
    }
    sc = f"{score:.{width}f}"
    if mean > 0:
        confidence_mean = f"{mean:.{width}f}"
        confidence_var = f"{ci:.{width}f}"
        confidence_str = f"μ = {confidence_mean} ± {confidence_var}"
        sc += f" ({confidence_str})"
        if is_json:
            d["confidence_mean"] = float(confidence_mean)
            d["confidence_var"] = float(confidence_var)
            d["confidence"] = confidence_str
    full_score = f"{name}|{signature}" if signature else name
    full_score = f"{full_score} = {sc}"
    if verbose:
        full_score += f" {verbose}"
        d["verbose_score"] = verbose
    if score_only:
        return sc
    if is_json:  # sacreBLEU's facade alone asks: json is imported here, not by every metric
        import json  # noqa: PLC0415

        for param in signature.split("|"):
            key, value = param.split(":")  # sacreBLEU's own step: an empty signature fails
            d[key] = value
        return json.dumps(d, indent=1, ensure_ascii=False)
    return full_score


def common_fields(nrefs: int | str) -> dict[str, object]:
    """The fields every sacreBLEU signature starts with (``nrefs``, then those only a test
    set or resampling sets), ``version`` printed last."""
    return {
        "version": SACREBLEU_VERSION,
        "nrefs": "var" if nrefs == -1 else nrefs,
        "bs": None,
        "ar": None,
        "seed": None,
        "test": None,
        "lang": None,
        "origlang": None,
        "subset": None,
    }


def format_signature(
    fields: Mapping[str, object],
    short: bool = False,
    abbreviations: Mapping[str, str] = ABBREVIATIONS,
) -> str:
    """sacreBLEU's ``Signature.format``: ``key:value`` pairs joined by ``|`` in the fields'
    order with ``version`` last, None left out, booleans as yes/no, keys abbreviated when
    ``short`` (by ``abbreviations``: :data:`TERABBREVIATIONS` for TER's fields)."""
    pairs = []
    for name in [key for key in fields if key != "version"] + ["version"]:
        value = fields[name]
        if value is not None:
            if isinstance(value, bool):
                value = "yes" if value else "no"
            final_name = abbreviations[name] if short else name
            pairs.append(f"{final_name}:{value}")
    return "|".join(pairs)


class Formatted:
    """sacreBLEU's ``Score.format`` and ``str()`` for a result with a ``name``, a ``score``
    and a ``verbose`` part (empty unless the metric prints one, as BLEU does)."""

    __slots__ = ()

    score: float

    @property
    def name(self) -> str:
        """The metric's name in the score line."""
        raise NotImplementedError

    @property
    def verbose(self) -> str:
        """What follows the score in the line (nothing by default)."""
        return ""

    def format(
        self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False
    ) -> str:
        """sacreBLEU's ``Score.format`` (``BLEUScore``'s with its verbose part)."""
        return format_score(
            self.name,
            self.score,
            width=width,
            score_only=score_only,
            signature=signature,
            is_json=is_json,
            verbose=self.verbose,
        )

    def __str__(self) -> str:
        return self.format()


Statistics = TypeVar("Statistics", list[int], tuple[int, float])


def summed_in_chunks(
    count: Callable[
        [Sequence[str], Sequence[Sequence[str]]], tuple[list[int], list[Statistics] | None]
    ],
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
) -> tuple[list[int], list[Statistics] | None]:
    """``count`` (a statistics function, its options bound) of aligned iterables read in
    chunks (:func:`mtcompute.streaming.in_chunks`): the sums added, the per-segment lists
    joined when asked for; errors naming the index in the whole input."""
    total: list[int] = []
    each: list[Statistics] | None = None
    for start, hyps, refs in streaming.in_chunks(hypotheses, references):
        try:
            summed, segments = count(hyps, refs)
        except (TypeError, ValueError) as error:
            raise streaming.shifted(error, start) from None
        total = summed if not total else [a + b for a, b in zip(total, summed, strict=True)]
        if segments is not None:
            each = segments if each is None else each + segments
    return total, each
