"""What the tools that promise sacreBLEU 2.6.0's numbers share (bleu-tokenize, sacrebleu-score,
ter-compute, paired-significance).

Raw text in, as sacreBLEU reads it: the texts' total UTF-8 size against the contract's ``max
text bytes``, then no lone surrogates (a JSON text may hold one; no tokenizer or counter is
asked to see it), the tokenizer named by sacreBLEU's name (:data:`mtcompute.contracts.
fields.TOKENIZE`, checked once more for what this installation can run: MeCab is an extra), and an
options object (``sacrebleu-score``'s ``bleu`` and ``chrf``) whose keys are declared field by
field like a tool's input, each fault named by its JSON Pointer (``/bleu/smooth_method``).
Also the texts these tools score, laid out as the catalog lays them (:func:`hypotheses`,
:func:`references_per_segment`: ``references[i]`` holds segment i's references), the
``nrefs`` of sacreBLEU's signature for that layout, and the bound on TER's work (ter-compute,
sacrebleu-score's and paired-significance's ``ter``): the words of each text, and the words
aligned in all.
"""

from __future__ import annotations

__all__ = [
    "Options",
    "Texts",
    "available_tokenizer",
    "hypotheses",
    "hypotheses_and_references",
    "indexed",
    "no_lone_surrogates",
    "nrefs",
    "references_per_segment",
    "ter_word_limits",
    "ter_words",
    "text_bytes",
    "text_steps",
]

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtcompute.contracts.validate import (
    MAX_ECHOED_KEY,
    Array,
    Field,
    FieldType,
    Limit,
    Rule,
    Text,
    check_no_lone_surrogate,
    describe,
    one_to,
    quote,
    same_count,
    total_over,
    utf8_length,
    where,
)
from mtcompute.errors import InvalidInput, LimitExceeded, json_pointer
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.tokenizers import get_tokenizer

Texts = Callable[[Mapping[str, Any]], Iterable[tuple[str, str]]]
"""The checked texts of an input as (JSON Pointer, text) pairs, in input order."""


def text_bytes(limit: Limit, texts: Texts) -> Rule:
    """At most ``limit`` UTF-8 bytes in all the texts (a lone surrogate counting 3)."""

    def check(values: Mapping[str, Any]) -> None:
        sizes = (utf8_length(text) for _, text in texts(values))
        if total_over(sizes, limit.value):
            total = sum(utf8_length(text) for _, text in texts(values))
            raise LimitExceeded(
                f"Expected at most {limit.value} UTF-8 bytes of text in all "
                f"(limit {limit.name}), got {total}."
            )

    return Rule(check)


def no_lone_surrogates(texts: Texts) -> Rule:
    """No text holds a lone surrogate (the first one found is named)."""

    def check(values: Mapping[str, Any]) -> None:
        for path, text in texts(values):
            if not text.isascii():
                check_no_lone_surrogate(text, "text", path)

    return Rule(check)


def available_tokenizer(name: str, path: str) -> Rule:
    """The field ``name`` (a checked :data:`~mtcompute.contracts.fields.TOKENIZE` value)
    names a tokenizer this installation runs (``unsupported_input`` at ``path`` otherwise)."""

    def check(values: Mapping[str, Any]) -> None:
        get_tokenizer(values[name], path)

    return Rule(check)


def indexed(key: str, values: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(``/key/i``, text) for each text of the checked array field ``key``."""
    for i, text in enumerate(values[key]):
        yield f"/{key}/{i}", text


def hypotheses(limits: Mapping[str, Limit]) -> Array[str]:
    """``hypotheses``: 1 to ``max segments`` (limit) raw texts, one per segment."""
    return one_to(limits["max_segments"], Text(), "strings", "segment")


def references_per_segment(limits: Mapping[str, Limit]) -> Array[list[str]]:
    """``references``: per segment (1 to ``max segments``), 1 to ``max references`` (limits)
    raw reference texts."""
    texts = one_to(limits["max_references"], Text(), "reference strings", "reference")
    return one_to(limits["max_segments"], texts, "reference lists", "segment")


def text_steps(limits: Mapping[str, Limit]) -> tuple[Field[Any] | Rule, ...]:
    """hypotheses, references per segment, equal segment counts, then the texts' total size
    and no lone surrogates: the raw-text input ter-compute and sacrebleu-score open with."""
    return (
        Field("hypotheses", hypotheses(limits)),
        Field("references", references_per_segment(limits)),
        same_count("hypotheses", "references", "segments"),
        text_bytes(limits["max_text_bytes"], hypotheses_and_references),
        no_lone_surrogates(hypotheses_and_references),
    )


def hypotheses_and_references(values: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every hypothesis, then every reference of each segment in turn, with its JSON Pointer."""
    yield from indexed("hypotheses", values)
    for i, texts in enumerate(values["references"]):
        for j, text in enumerate(texts):
            yield f"/references/{i}/{j}", text


def nrefs(references: Sequence[Sequence[str]]) -> int | str:
    """The references per segment as sacreBLEU's signature prints them: the count, or
    ``var`` when segments have different counts."""
    counts = {len(texts) for texts in references}
    return counts.pop() if len(counts) == 1 else "var"


@dataclass(frozen=True, slots=True)
class Options(FieldType[dict[str, Any]]):
    """A JSON object of options declared like an input: its :class:`Field` objects (keys in
    the contract's order) and :class:`Rule` steps, in order. Unknown keys first (in input
    order), then missing required keys (a field whose default is
    :data:`~mtcompute.contracts.validate.REQUIRED`, in declared order), then each field at
    ``path/name``; an omitted field takes its default. ``what`` names the object in messages
    (``bleu options``)."""

    what: str
    steps: tuple[Field[Any] | Rule, ...]

    @property
    def fields(self) -> tuple[Field[Any], ...]:
        """The declared keys, in order."""
        return tuple(step for step in self.steps if isinstance(step, Field))

    @property
    def defaults(self) -> dict[str, Any]:
        """The checked value of an omitted object: every field's default."""
        return {f.name: f.default for f in self.fields}

    def parse(self, value: object, path: str) -> dict[str, Any]:
        if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
            raise InvalidInput(
                f"Expected an object of {self.what} {where(path)}, got {describe(value)}.", path
            )
        names = [f.name for f in self.fields]
        for key in value:
            if key not in names:
                raise InvalidInput(
                    f"Unknown key {quote(key)} {where(path)}; expected only {', '.join(names)}.",
                    path + json_pointer(key) if len(key) <= MAX_ECHOED_KEY else path,
                )
        for f in self.fields:
            if f.required and f.name not in value:
                raise InvalidInput(
                    f'Missing required key "{f.name}" {where(path)}.', path + json_pointer(f.name)
                )
        values: dict[str, Any] = {}
        for step in self.steps:
            if isinstance(step, Rule):
                step.check(values)
            elif step.name in value:
                values[step.name] = step.type.parse(
                    value[step.name], path + json_pointer(step.name)
                )
            else:
                values[step.name] = step.default
        return values

    def schema(self) -> dict[str, object]:
        out: dict[str, object] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {f.name: f.type.schema() for f in self.fields},
        }
        required = [f.name for f in self.fields if f.required]
        if required:
            out["required"] = required
        return out


def ter_words(text: str, options: ter_scoring.TerOptions, *, reference: bool) -> int:
    """The number of words TER aligns for ``text`` (:func:`mtcompute.metrics.ter.score.ter_texts`:
    right-stripped and tokenized, a reference twice, as sacreBLEU does)."""
    return len(ter_scoring.ter_texts([text], options, reference=reference)[0].split())


def ter_word_limits(
    limits: Mapping[str, Limit],
    options: Callable[[Mapping[str, Any]], ter_scoring.TerOptions | None],
    texts: Texts = hypotheses_and_references,
) -> Rule:
    """Each hypothesis and reference at most ``max segment words`` (limit) words after TER's
    tokenization (the first over it named, in the order of ``texts``: hypotheses then
    references), then the aligned words (each hypothesis's words times its segment's
    references, summed) at most ``max aligned words``; ``options(values)`` gives the TER
    options, or None when TER is not computed. ``texts`` yields every hypothesis and reference
    with its JSON Pointer: a reference's starts with ``/references/``, and a hypothesis's ends
    with its segment's index (``/hypotheses/3``, or paired-significance's
    ``/systems/0/hypotheses/3``)."""

    segment_words, aligned_words = limits["max_segment_words"], limits["max_aligned_words"]

    def check(values: Mapping[str, Any]) -> None:
        ter_options = options(values)
        if ter_options is None:
            return
        references = values["references"]
        aligned = 0
        for path, text in texts(values):
            reference = path.startswith("/references/")
            words = ter_words(text, ter_options, reference=reference)
            if words > segment_words.value:
                raise LimitExceeded(
                    f"Expected at most {segment_words.value} words at {path} after tercom "
                    f"tokenization (limit {segment_words.name}), got {words}.",
                    path,
                )
            if not reference:
                aligned += words * len(references[int(path.rsplit("/", 1)[1])])
        if aligned > aligned_words.value:
            raise LimitExceeded(
                f"Expected at most {aligned_words.value} aligned words (each hypothesis's words "
                f"times its references, summed over segments; limit {aligned_words.name}), "
                f"got {aligned}."
            )

    return Rule(check)
