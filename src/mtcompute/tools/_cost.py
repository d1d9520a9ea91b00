"""Cost estimates: a bound on the work of running a tool, read from the raw input's size and
shape before anything else is done with it.

A tool's ``cost`` (:class:`~mtcompute.tools.Tool`) maps a raw input (what ``Tool.run`` gets:
any JSON-like value, valid or not) to a number of work units: an upper bound, up to the
tool's measured constant factors, on what checking and computing that input costs, so that a
server can run the inputs under a small budget where it stands (on its event loop) and give
every other one a worker thread (:mod:`mtcompute._execute`). The unit is about a
microsecond: each tool scales :func:`size` (one per JSON value and character) by what it does
per character, token or n-gram, with weights measured as the largest time per size unit over
its contract examples grown up to 16 times and its costliest options (orders, n-gram tables,
tokenizers, averaging), rounded up; ``benchmarks/run.py``'s HTTP section reports the slowest
input the estimates admit within the budget.

The rules every estimate keeps, checked by ``tests/test_server_inline.py``:

- It is cheap and bounded whatever the input: :func:`size` stops walking once the value is
  over the cap it is given, and an estimate never walks more than that.
- It never undercounts: a field the estimate needs that is missing takes its default, and
  one that is malformed or out of range takes the worst value its contract allows (the input
  is then refused by validation, which the estimate must also cover).
- It is monotone: a larger input (more segments, longer texts, a higher order, more
  references) never gets a smaller estimate.
- Over the cap it answers :data:`OVER`, larger than any budget.
"""

from __future__ import annotations

__all__ = [
    "HEAVY_SECONDS",
    "OVER",
    "TOKENIZER_COST",
    "Linear",
    "RequestCost",
    "choice",
    "integer",
    "linear",
    "member",
    "ngram_cost",
    "pair_products",
    "request_cost",
    "size",
]

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

OVER = 1 << 62
"""The estimate of an input over the cap: more than any budget."""

TOKENIZER_COST = {"none": 1, "char": 1, "intl": 1, "13a": 2, "zh": 3}
"""Units per character of sacreBLEU's tokenizers (measured); the others (MeCab, SentencePiece)
load a dictionary or a model: no estimate (:data:`OVER`), a worker thread."""


def size(value: object, cap: int) -> int:
    """The JSON value's size: one per value (array, object, string, number, ...) plus the
    characters of every string and key; ``cap + 1`` once it passes ``cap`` (the walk stops
    there, so this costs at most ``cap`` steps)."""
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)  # exact types first (what JSON parsing makes); subclasses below
        if kind is str:
            total += 1 + len(item)  # type: ignore[arg-type]
        elif kind is list or kind is tuple or isinstance(item, list | tuple):
            items: list[object] | tuple[object, ...] = item  # type: ignore[assignment]
            total += 1
            if total + len(stack) + len(items) > cap:  # each item counts at least 1
                return cap + 1
            for inner in items:
                inner_kind = type(inner)
                if inner_kind is str:
                    total += 1 + len(inner)  # type: ignore[arg-type]
                elif inner_kind is int or inner_kind is float or inner_kind is bool:
                    total += 1
                else:
                    stack.append(inner)
        elif kind is dict or isinstance(item, Mapping):
            mapping: Mapping[object, object] = item  # type: ignore[assignment]
            total += 1
            if total + len(stack) + len(mapping) > cap:  # each key counts at least 1
                return cap + 1
            for key, inner in mapping.items():
                total += len(key) if isinstance(key, str) else 1
                stack.append(inner)
        elif isinstance(item, str):
            total += 1 + len(item)
        else:
            total += 1
        if total > cap:
            return cap + 1
    return total


def member(raw: object, name: str) -> object:
    """``raw[name]`` when ``raw`` is an object that has it, else None."""
    return raw.get(name) if isinstance(raw, Mapping) else None


def integer(raw: object, name: str, default: int, worst: int) -> int:
    """The integer field ``name`` of ``raw`` when it is one within ``0..worst``; ``default``
    when it is missing or null; ``worst`` otherwise (validation will refuse it)."""
    if not isinstance(raw, Mapping) or raw.get(name) is None:
        return default
    value = raw[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return worst
    if math.isnan(value) or not 0 <= value <= worst:
        return worst
    return int(value)


def _length(value: object) -> int:
    """Characters of a string, or (a token list) the characters of its strings and its items;
    1 for anything else."""
    if isinstance(value, str):
        return len(value) + 1
    if isinstance(value, list | tuple):
        return sum(_length(item) for item in value) + 1
    return 1


def pair_products(hypotheses: object, references: object) -> int:
    """The sum over segments of (hypothesis length) x (each reference's length): the bound
    on an alignment's work (TER) for ``hypotheses`` (a list) against ``references`` (per
    segment, a list of references). Only call it on an input whose :func:`size` is under the
    cap: it walks every text once."""
    if not isinstance(hypotheses, Sequence) or isinstance(hypotheses, str):
        return 0
    if not isinstance(references, Sequence) or isinstance(references, str):
        return 0
    total = 0
    for index, hypothesis in enumerate(hypotheses):
        segment = references[index] if index < len(references) else None
        refs = segment if isinstance(segment, list | tuple) else [segment]
        total += _length(hypothesis) * sum(_length(ref) for ref in refs)
    return total


@dataclass(frozen=True, slots=True)
class Linear:
    """The cost of a tool whose work is ``weight`` units per unit of :func:`size`."""

    weight: int

    def __call__(self, raw: object, cap: int) -> int:
        return self.weight * size(raw, cap)

    def of_json_length(self, length: int) -> int:
        """A bound from the length in bytes of the JSON text the input was read from, with no
        walk: a JSON text has at least :func:`size` bytes (a value takes a byte or more, a
        string two quotes and a byte or more per character, a key its characters and three
        bytes more), so ``weight * length`` never undercounts."""
        return self.weight * length


def linear(weight: int) -> Linear:
    """The cost of a tool whose work is ``weight`` units per unit of :func:`size`."""
    return Linear(weight)


def choice(raw: object, name: str, weights: Mapping[str, int], default: str) -> int:
    """The weight of the option ``name`` of ``raw`` (``default`` when missing or null): its
    entry in ``weights``, :data:`OVER` for a string not there, the largest weight for a value
    that is not a string (validation refuses it)."""
    value = member(raw, name)
    if value is None:
        value = default
    return weights.get(value, OVER) if isinstance(value, str) else max(weights.values())


def ngram_cost(raw: object, cap: int) -> int:
    """Every token counted once per order (at most 8): the size times 1 + order / 8 (the BLEU
    tools that count and score tokenized segments without n-gram tables)."""
    return size(raw, cap) * (8 + integer(raw, "max_order", 4, 8)) // 8


# -- request classes: seconds from the raw JSON bytes, before anything is parsed -----------

HEAVY_SECONDS = 0.25
"""Estimated CPU seconds above which a request is ``heavy`` (:func:`request_cost`)."""

BYTE_SECONDS = 1.5e-6
"""CPU seconds per byte of a body through a tool that names no tokenizer (parsing, checking and
computing; measured: 13a tokenization of English text takes 1.35 microseconds a byte)."""

TOKENIZER_BYTE_SECONDS = {
    "none": 0.3e-6,
    "char": 0.3e-6,
    "intl": 0.5e-6,
    "13a": 1.5e-6,
    "zh": 1.5e-6,
    "ja-mecab": 6e-6,
    "ko-mecab": 6e-6,
}
"""CPU seconds per byte of sacreBLEU's tokenizers (measured: zh 0.8 microseconds a byte of
UTF-8 Chinese, 13a 1.35); MeCab's are dearer (a dictionary lookup per character). A name not
here (SentencePiece models) counts as the dearest."""

TOOL_BYTE_FACTOR = {"ter-compute": 4, "wer-compute": 4, "sacrebleu-score": 3}
"""Tools that do more per byte than one tokenizer pass: TER's and WER's alignments (bounded by
their limits), sacrebleu-score's three metrics. paired-significance and system-ranking asked
for TER (:func:`_byte_factor`) take TER's."""

_SCORING_TOOLS = frozenset({"paired-significance", "system-ranking"})
_TER = b'"ter"'

RESAMPLE_BYTE_SECONDS = 1e-8
"""paired-significance: CPU seconds per resample and byte of body (each segment of each system
takes 3 bytes or more; measured: 20,000 resamples of a 3.9 KB body with all three metrics,
0.33 s, so about twice that: a 4 KB body asking 10,000 resamples is 0.4 s, heavy)."""

RANK_TEST_SECONDS = 2.5e-6
"""system-ranking: CPU seconds per resample and system scored (bootstrap) or per trial and pair
of systems (approximate randomization scores both sides of each pair; measured: 10,000 trials
of 16 systems, 120 pairs, 2.0 to 2.4 s whatever the segments). Plus, per resample and tested
system or pair, :data:`RESAMPLE_BYTE_SECONDS` times one system's share of the body (its
segments' sums)."""

CEILING_SECONDS = {
    "bleu-brevity-penalty": 2.0,
    "bleu-corpus-compute": 1.0,
    "bleu-ngrams-count": 1.0,
    "bleu-tokenize": 6.0,
    "paired-significance": 8.0,
    "sacrebleu-score": 3.0,
    "system-ranking": 8.0,
    "ter-compute": 3.0,
    "wer-compute": 3.0,
}
"""About three times the most CPU seconds the costliest input the tool's limits allow took
(``scripts/cost_ceilings.py``, docs/reliability.md; paired-significance: its contract's
figure); an estimate never says more. The other tools: :data:`CEILING`."""

CEILING = 0.5
"""The ceiling of the tools not in :data:`CEILING_SECONDS` (their costliest inputs took at
most 0.04 s)."""

_HYPOTHESES = b'"hypotheses"'
_MAX_RANKED = 16  # system-ranking's max systems

_TOKENIZER = re.compile(rb'"tokeni[sz]er?"\s*:\s*"([^"\\]{0,32})"')
_SAMPLES = re.compile(rb'"samples"\s*:\s*([0-9][0-9.eE+]{0,24})')
_ESCAPE = b"\\u"


@dataclass(frozen=True, slots=True)
class RequestCost:
    """A request's estimated CPU seconds (:func:`request_cost`) and its class."""

    seconds: float

    @property
    def heavy(self) -> bool:
        """Whether the request is ``heavy``: over :data:`HEAVY_SECONDS`."""
        return self.seconds > HEAVY_SECONDS

    @property
    def name(self) -> str:
        """``"light"`` or ``"heavy"``."""
        return "heavy" if self.heavy else "light"


def _samples(body: bytes) -> int:
    """paired-significance's and system-ranking's resample count: the largest ``"samples"``
    written (anything that is not a count in range: the most allowed, validation refuses
    it); missing, the default of the method (10,000 when approximate randomization may be
    asked)."""
    found = _SAMPLES.findall(body)
    worst = 20000
    if not found:
        if _ESCAPE in body:  # the key may be written with escapes: assume the worst
            return worst
        return 10000 if b"approximate_randomization" in body else 1000
    best = 0
    for text in found:
        try:
            value = float(text)
        except ValueError:
            return worst
        best = max(best, int(min(value, worst)) if math.isfinite(value) else worst)
    return best


def _ranking_seconds(body: bytes) -> float:
    """system-ranking's resampling: per resample or trial, each system (bootstrap) or each
    pair (approximate randomization, when the body may ask for it) scored, and its share of
    the sums. The systems are the ``"hypotheses"`` keys written (16, the most, when a key may
    be written with escapes)."""
    systems = _MAX_RANKED if _ESCAPE in body else min(body.count(_HYPOTHESES), _MAX_RANKED)
    systems = max(systems, 2)
    ar = _ESCAPE in body or b"approximate_randomization" in body
    tested = systems * (systems - 1) // 2 if ar else systems
    share = len(body) / systems * RESAMPLE_BYTE_SECONDS
    return _samples(body) * tested * (RANK_TEST_SECONDS + share)


def _tokenizer_seconds(body: bytes) -> float:
    """Seconds per byte of the dearest tokenizer the body names; 13a's when it names none
    (a key written with escapes is not read: the tokenizers installed here cost 13a's rate or
    less, MeCab's aside)."""
    dearest = max(TOKENIZER_BYTE_SECONDS.values())
    names = _TOKENIZER.findall(body)
    if not names:
        return BYTE_SECONDS
    return max(
        TOKENIZER_BYTE_SECONDS.get(name.decode("ascii", "replace"), dearest) for name in names
    )


def _byte_factor(tool_id: str, body: bytes) -> int:
    """The tool's :data:`TOOL_BYTE_FACTOR`; for the tools that score with a metric the body
    names, TER's when the body may name it (the string ``"ter"`` anywhere, or a key or value
    written with escapes)."""
    if tool_id in _SCORING_TOOLS and (_TER in body or _ESCAPE in body):
        return TOOL_BYTE_FACTOR["ter-compute"]
    return TOOL_BYTE_FACTOR.get(tool_id, 1)


def request_cost(tool_id: str, body: bytes) -> RequestCost:
    """The CPU seconds a request to execute ``tool_id`` with this JSON body may take, read from
    the bytes alone (a scan, no parse): the body's size times its dearest tokenizer's rate
    (:data:`TOKENIZER_BYTE_SECONDS`) and the tool's factor (:func:`_byte_factor`), plus,
    for paired-significance, its resamples times its size (:data:`RESAMPLE_BYTE_SECONDS`),
    for system-ranking, its resamples times the systems or pairs tested
    (:func:`_ranking_seconds`), at most the tool's ceiling (:data:`CEILING_SECONDS`). It
    leans high: a parameter that cannot be read takes its worst value."""
    size_ = len(body)
    seconds = size_ * _tokenizer_seconds(body) * _byte_factor(tool_id, body)
    if tool_id == "paired-significance":
        seconds += _samples(body) * size_ * RESAMPLE_BYTE_SECONDS
    elif tool_id == "system-ranking":
        seconds += _ranking_seconds(body)
    return RequestCost(min(seconds, CEILING_SECONDS.get(tool_id, CEILING)))
