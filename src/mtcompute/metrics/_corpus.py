"""What every metric's corpus result shares (:mod:`mtcompute.batch`,
:mod:`mtcompute.metrics.bleu.corpus`, :mod:`mtcompute.metrics.chrf.corpus`,
:mod:`mtcompute.metrics.ter.corpus`): the signature with mtcompute's version, the JSON form,
what two results of the same settings join to, and a corpus scored a chunk at a time and
added up.

Below the metric packages' corpus modules and :mod:`mtcompute.batch`, which import it: the
batch layer adds the results of every metric up (``ResultSum``) and names them all, so what a
metric's corpus module needs of it lives here. The arguments' field types and checks are
:mod:`mtcompute.metrics._arguments`'s: what scores the ``score`` command's files adds its
results up here without them.
"""

from __future__ import annotations

__all__ = [
    "Accumulable",
    "Joinable",
    "ResultSum",
    "Running",
    "Summable",
    "SummedCounts",
    "added_up",
    "chunk_scorer",
    "joined",
    "joined_nrefs_and_segments",
    "nrefs_of",
    "result_dict",
    "row_scores",
    "same_settings",
    "signature_of",
]

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from mtcompute._version import __version__
from mtcompute.metrics._base import format_signature

# --- results ---------------------------------------------------------------------------------


def nrefs_of(references: Sequence[Sequence[str | Sequence[str]]]) -> int:
    """References per segment as the signature's nrefs (-1 when it varies: ``var``)."""
    counts = set(map(len, references))
    return counts.pop() if len(counts) == 1 else -1


def signature_of(sacrebleu_fields: dict[str, object], rules: str = "sacrebleu") -> str:
    """sacreBLEU's signature of the settings, then ``rules:contract`` when the contract rule
    computed the score, then ``mtcompute:<version>``."""
    extra = "|rules:contract" if rules == "contract" else ""
    return f"{format_signature(sacrebleu_fields)}{extra}|mtcompute:{__version__}"


def row_scores(
    rows: bytes | None, width: int, score: Callable[[list[int]], float]
) -> tuple[float, ...] | None:
    """Each segment's ``score`` of a kernel buffer of per-segment statistics (native int64
    values, ``width`` a segment), in order; ``None`` without a buffer."""
    if rows is None:
        return None
    values = memoryview(rows).cast("q").tolist()
    return tuple(score(values[at : at + width]) for at in range(0, len(values), width))


class _Described(Protocol):
    """What a corpus result's JSON form starts and ends with."""

    @property
    def name(self) -> str: ...

    @property
    def score(self) -> float: ...

    @property
    def score_text(self) -> str: ...

    @property
    def signature(self) -> str: ...

    @property
    def segment_scores(self) -> tuple[float, ...] | None: ...


def result_dict(result: _Described, fields: Mapping[str, object]) -> dict[str, object]:
    """A corpus result as JSON-ready data (the ``score`` command's ``--format json``): its
    name, score, score text and signature, then the metric's own ``fields``, then the segment
    scores when it has them."""
    out: dict[str, object] = {
        "name": result.name,
        "score": result.score,
        "score_text": result.score_text,
        "signature": result.signature,
        **fields,
    }
    if result.segment_scores is not None:
        out["segment_scores"] = list(result.segment_scores)
    return out


Running = list[int | float]
"""What :class:`ResultSum` keeps of the results added so far (each metric says what)."""


class Joinable(Protocol):
    """What any corpus result joins by: its reference count and its segment scores; and
    what two results must share to be added (``settings``)."""

    @property
    def settings(self) -> tuple[object, ...]:
        """The result's class and its settings."""
        ...

    @property
    def nrefs(self) -> int:
        """References per segment (-1 when it varies)."""
        ...

    @property
    def segment_scores(self) -> tuple[float, ...] | None:
        """Each segment's score, when asked for."""
        ...


class Summable(Joinable, Protocol):
    """A corpus result whose statistics are integer counts, summed to add two results."""

    @property
    def statistics(self) -> tuple[int, ...]:
        """The summed counts."""
        ...


def joined_nrefs_and_segments(
    first: Joinable, second: Joinable
) -> tuple[int, tuple[float, ...] | None]:
    """What any two results of the same settings join to besides their statistics: the
    reference count (-1, variable, when they differ) and the segment scores when both have
    them."""
    segments = None
    if first.segment_scores is not None and second.segment_scores is not None:
        segments = first.segment_scores + second.segment_scores
    return first.nrefs if first.nrefs == second.nrefs else -1, segments


def same_settings(first: Joinable, second: Joinable, metric: str) -> None:
    """ValueError unless two results of ``metric`` (its name in the message) have the same
    settings, as adding them requires."""
    if first.settings != second.settings:
        raise ValueError(f"cannot add {metric} results of different settings")


def joined(
    first: Summable, second: Summable, metric: str
) -> tuple[Running, int, tuple[float, ...] | None]:
    """What two results of ``metric`` add up to, once :func:`same_settings` found their
    settings the same: summed statistics (integer counts, so any grouping gives the same
    sums), the reference count and the segment scores (:func:`joined_nrefs_and_segments`).
    TER's lengths are floats, summed in segment order instead (``CorpusTer.__add__``)."""
    same_settings(first, second, metric)
    summed: Running = [a + b for a, b in zip(first.statistics, second.statistics, strict=True)]
    return summed, *joined_nrefs_and_segments(first, second)


# --- a corpus in chunks ----------------------------------------------------------------------

R = TypeVar("R")


def chunk_scorer(
    corpus: Callable[..., R], arguments: Mapping[str, Any]
) -> Callable[[list[Any], list[Any]], R]:
    """A metric's corpus function ``corpus`` of one chunk's hypotheses and references, for
    :func:`~mtcompute.metrics._arguments.scored_chunks`, with the settings of the call whose
    arguments ``arguments`` holds (its ``locals()`` on entry, before any other local): every
    one but ``hypotheses`` and ``references``, by name."""
    settings = {k: v for k, v in arguments.items() if k not in ("hypotheses", "references")}

    def score(hyps: list[Any], refs: list[Any]) -> R:
        return corpus(hyps, refs, **settings)

    return score


class Accumulable(Joinable, Protocol):
    """A corpus result that adds itself to a running sum and makes the total from it."""

    def add_to(self, running: Running | None) -> Running:
        """The running sum with this result added (``None``: this is the first)."""
        ...

    def from_sum(
        self, running: Running, nrefs: int, segment_scores: tuple[float, ...] | None
    ) -> Self:
        """The result of the running sum, with this result's settings."""
        ...


S = TypeVar("S", bound=Accumulable)


class ResultSum(Generic[S]):
    """The results of consecutive chunks of one corpus (same metric, same settings) added up
    in bounded memory, in the order added, as each metric adds (:meth:`Accumulable.add_to`:
    BLEU's and chrF's counts summed, TER's reference lengths one segment at a time); the
    reference counts joined (-1 when they differ). :meth:`total` is what ``a + b + ...``
    gives, without the segment scores (a caller that wants them keeps or writes each
    chunk's) and, for TER, the segment statistics."""

    __slots__ = ("_first", "_nrefs", "_running")

    def __init__(self) -> None:
        self._first: S | None = None
        self._running: Running = []
        self._nrefs = 0

    def add(self, part: S) -> None:
        """Add the result of the next chunk (ValueError for another metric or settings, or
        what the metric cannot add)."""
        first = self._first
        if first is None:
            self._first, self._nrefs = part, part.nrefs
        else:
            if first.settings != part.settings:
                raise ValueError("cannot add results of different metrics or settings")
            self._nrefs = self._nrefs if self._nrefs == part.nrefs else -1
        self._running = part.add_to(None if first is None else self._running)

    def total(self, segment_scores: tuple[float, ...] | None = None) -> S:
        """The result of every chunk added (with ``segment_scores`` if given); ValueError
        before any."""
        if self._first is None:
            raise ValueError("no result added")
        return self._first.from_sum(self._running, self._nrefs, segment_scores)


class _CountsResult(Summable, Accumulable, Protocol):
    """A result whose statistics are integer counts, added to others by summing them, and
    made from summed counts by ``from_statistics``."""

    METRIC: ClassVar[str]

    def from_statistics(self, statistics: Sequence[int], /, *args: Any, **kwargs: Any) -> Self:
        """The result of summed ``statistics``: its settings, ``nrefs``, ``segment_scores``."""
        ...


C = TypeVar("C", bound=_CountsResult)


class SummedCounts:
    """:class:`Accumulable` and ``+`` for a result whose statistics are integer counts (BLEU,
    chrF): the running sum is their sum, and the total ``from_statistics`` of it with the
    result's ``settings`` after its class (the arguments it takes between the counts and
    ``nrefs``). ``METRIC`` names the metric in messages."""

    __slots__ = ()
    METRIC: ClassVar[str]

    def add_to(self: Summable, running: Running | None) -> Running:
        """The counts summed."""
        if running is None:
            return list(self.statistics)
        return [a + b for a, b in zip(running, self.statistics, strict=True)]

    def from_sum(
        self: C, running: Running, nrefs: int, segment_scores: tuple[float, ...] | None
    ) -> C:
        """The result of summed counts, with these settings."""
        _, *settings = self.settings
        counts = cast("list[int]", running)
        return self.from_statistics(counts, *settings, nrefs, segment_scores)

    def __add__(self: C, other: C) -> C:
        """The result of the segments of both, in order (same settings only)."""
        return self.from_sum(*joined(self, other, type(self).METRIC))


def added_up(parts: Iterable[S]) -> S:
    """The results of a corpus' consecutive chunks added up in bounded memory
    (:class:`ResultSum`: a running sum, scored once at the end), with the chunks' segment
    scores, when they have them, gathered once."""
    total: ResultSum[S] = ResultSum()
    scores: list[float] = []
    for part in parts:
        total.add(part)
        scores += part.segment_scores or ()
    return total.total(tuple(scores) if scores else None)
