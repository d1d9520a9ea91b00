"""What the tools over several named systems share (paired-significance, system-ranking): a
system's fields and name, the names' uniqueness, the texts of the systems and references and
their checks, the tests' sample counts, seed, draws and signature, the significance extra, and
the significance metric of each sacreBLEU metric and of WER and CER (system-ranking@1.1.0:
wer-compute's normalisations as options)."""

from __future__ import annotations

__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_NAME_CHARACTERS",
    "MAX_SEED",
    "METHODS",
    "SIGNATURE_KEY",
    "WER_OPTIONS",
    "WER_UNITS",
    "check_draws",
    "distinct_names",
    "metric_field",
    "need_significance",
    "paired_signature",
    "run_fields",
    "same_segments",
    "samples_of",
    "significance_metric",
    "system_fields",
    "system_steps",
    "system_texts",
    "wer_signature_fields",
]

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtcompute.contracts.validate import (
    Field,
    FieldType,
    Integer,
    Limit,
    Rule,
    check_no_lone_surrogate,
    describe,
    where,
)
from mtcompute.errors import InvalidInput, LimitExceeded, UnsupportedInput
from mtcompute.metrics import DEFAULT_SEED
from mtcompute.metrics import _base as score_line
from mtcompute.metrics.chrf.score import ChrfOptions, chrf_signature_fields
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.wer.corpus import CorpusWer
from mtcompute.metrics.wer.text import NORMALISATIONS, Unit, WerOptions
from mtcompute.tools._sacre_common import (
    Options,
    Texts,
    hypotheses,
    no_lone_surrogates,
    references_per_segment,
    text_bytes,
)
from mtcompute.tools.sacrebleu_score import INPUT as SACREBLEU_INPUT
from mtcompute.tools.sacrebleu_score import bleu_setup
from mtcompute.tools.wer_compute import INPUT as WER_INPUT

# The significance tests need numpy (the extra mtcompute[significance]): imported by the
# computation, so that the registry lists these tools, and checks their input, without it.
if TYPE_CHECKING:
    from mtcompute import significance
    from mtcompute.metrics.chrf.resample import ChrfMetric
    from mtcompute.metrics.wer.resample import WerMetric

    SignificanceMetric = significance.BleuMetric | ChrfMetric | significance.TerMetric | WerMetric

METHODS = ("bootstrap", "approximate_randomization")
"""``method``: paired bootstrap resampling, or approximate randomization."""
DEFAULT_SAMPLES = {"bootstrap": 1000, "approximate_randomization": 10000}
"""sacreBLEU's defaults: ``--paired-bs-n`` 1000 resamples, ``--paired-ar-n`` 10000 trials."""
SIGNATURE_KEY = {"bootstrap": "bs", "approximate_randomization": "ar"}
"""The signature field of each method: ``bs:1000`` or ``ar:10000`` (sacreBLEU's)."""
WER_UNITS: dict[str, Unit] = {"wer": "word", "cer": "character"}
"""The unit of each error-rate metric (as ``mtcompute compare -m wer cer``)."""
WER_OPTIONS = {
    name: Options(f"{name} options", tuple(f for f in WER_INPUT.fields if f.name in NORMALISATIONS))
    for name in WER_UNITS
}
"""The ``wer`` and ``cer`` options objects: wer-compute@1.0.0's normalisations, its fields
(names, defaults, checks and messages) as declared there; the metric gives the unit."""
MAX_NAME_CHARACTERS = 128
MAX_SEED = 2**53 - 1  # the largest integer every JSON reader holds exactly


@dataclass(frozen=True, slots=True)
class _Name(FieldType[str]):
    """A system's name: a non-empty string of at most 128 characters, no lone surrogate."""

    def parse(self, value: object, path: str) -> str:
        if not isinstance(value, str) or not value:
            raise InvalidInput(
                f"Expected a system name (a non-empty string) {where(path)}, "
                f"got {describe(value)}.",
                path,
            )
        if len(value) > MAX_NAME_CHARACTERS:
            raise InvalidInput(
                f"Expected a system name of at most {MAX_NAME_CHARACTERS} characters "
                f"{where(path)}, got {len(value)}.",
                path,
            )
        check_no_lone_surrogate(value, "a system name", path)
        return value

    def schema(self) -> dict[str, object]:
        return {"type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARACTERS}


def system_fields(limits: Mapping[str, Limit]) -> Options:
    """One system: its name and its output, one string per segment (within ``limits``)."""
    return Options(
        "system fields (name, hypotheses)",
        (Field("name", _Name()), Field("hypotheses", hypotheses(limits))),
    )


def distinct_names(values: Mapping[str, Any]) -> None:
    """Each system's name once (the first repeat is the error)."""
    names = [system["name"] for system in values["systems"]]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise InvalidInput(
                f"Expected each system name once at /systems, got {describe(name)} again at "
                f"/systems/{i}/name.",
                f"/systems/{i}/name",
            )


def system_texts(values: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every text with its JSON Pointer: each system's hypotheses, then each segment's
    references."""
    for s, system in enumerate(values["systems"]):
        for i, text in enumerate(system["hypotheses"]):
            yield f"/systems/{s}/hypotheses/{i}", text
    for i, texts in enumerate(values["references"]):
        for j, text in enumerate(texts):
            yield f"/references/{i}/{j}", text


def same_segments(values: Mapping[str, Any], key: str) -> None:
    """Every system has as many segments as the field ``key`` (each system in order)."""
    segments = len(values[key])
    for i, system in enumerate(values["systems"]):
        if len(system["hypotheses"]) != segments:
            raise InvalidInput(
                f"Expected the hypotheses of each system to have as many segments as {key} "
                f"({segments}) at /systems/{i}/hypotheses, got {len(system['hypotheses'])}.",
                f"/systems/{i}/hypotheses",
            )


def system_steps(
    limits: Mapping[str, Limit], same_counts: Rule, texts: Texts
) -> tuple[Field[Any] | Rule, ...]:
    """The steps after the systems: their names once, the references, ``same_counts``, then
    the ``texts``' bytes (within ``limits``) and no lone surrogate in them."""
    return (
        Rule(distinct_names),
        Field("references", references_per_segment(limits)),
        same_counts,
        text_bytes(limits["max_text_bytes"], texts),
        no_lone_surrogates(texts),
    )


def run_fields(limits: Mapping[str, Limit]) -> tuple[Field[Any], Field[Any]]:
    """``samples`` (1 to ``max samples``, omitted: the method's default) and ``seed``."""
    return (
        Field("samples", Integer(1, limits["max_samples"]), default=None),
        Field("seed", Integer(0, MAX_SEED), default=DEFAULT_SEED),
    )


def samples_of(values: Mapping[str, Any]) -> int:
    """The resamples or trials asked for, else the method's default."""
    samples: int | None = values["samples"]
    return DEFAULT_SAMPLES[values["method"]] if samples is None else samples


def check_draws(limits: Mapping[str, Limit], samples: int, segments: int) -> None:
    """The random draws, samples times segments, within the limit ``max draws``."""
    draws = limits["max_draws"]
    if samples * segments > draws.value:
        raise LimitExceeded(
            f"Expected at most {draws.value} for samples times segments (limit {draws.name}), "
            f"got {samples} x {segments} = {samples * segments}."
        )


def need_significance(what: str) -> None:
    """Raise :class:`~mtcompute.errors.UnsupportedInput` (``what`` need ...) when this
    installation lacks the significance tests' libraries (the extra mtcompute[significance])."""
    try:
        from mtcompute import significance  # noqa: F401, PLC0415
    except ImportError as missing:  # a tokenizer-like gap of this installation
        raise UnsupportedInput(
            f"{what} need numpy and threadpoolctl, which this installation lacks "
            f"({missing.name} is not installed): pip install 'mtcompute[significance]'.",
            "",
        ) from None


def paired_signature(fields: Mapping[str, object], method: str, samples: int, seed: int) -> str:
    """The signature of a metric's ``fields`` with the test run, as sacreBLEU's ``PairedTest``
    prints it: the samples (``bs``) or trials (``ar``), and the seed as a string."""
    run = {SIGNATURE_KEY[method]: samples, "seed": str(seed)}
    return score_line.format_signature({**fields, **run})


def metric_field(name: str) -> Field[Any]:
    """sacrebleu-score@1.1.0's field ``name`` (``metrics``, or a metric's options object)."""
    return next(f for f in SACREBLEU_INPUT.fields if f.name == name)


def wer_signature_fields(options: WerOptions) -> dict[str, object]:
    """The signature fields of WER or CER: ``mtcompute score``'s and ``compare``'s WER
    signature (``nrefs:1|unit:word|lc:no|punct:yes|ws:jiwer|jiwer:4.0.0``) without its
    ``mtcompute`` version, with sacreBLEU's empty ``bs``, ``ar`` and ``seed`` after nrefs and
    no ``version`` (jiwer's is the ``jiwer`` field), for
    :func:`~mtcompute.metrics._base.format_signature`."""
    shown = CorpusWer.from_statistics((0, 0, 0, 0), options).signature
    nrefs, *settings = shown.rpartition("|mtcompute:")[0].split("|")
    fields: dict[str, object] = {"nrefs": nrefs.partition(":")[2]}
    fields |= {"bs": None, "ar": None, "seed": None}
    fields |= dict(pair.split(":", 1) for pair in settings)
    return fields | {"version": None}


def significance_metric(
    name: str, raw: Mapping[str, Any], refs: int | str
) -> tuple[SignificanceMetric, dict[str, object]]:
    """The significance metric of ``name`` with its options, and sacreBLEU's signature fields
    for it (``refs`` the signature's nrefs; WER and CER: one reference, their own fields)."""
    from mtcompute import significance  # noqa: PLC0415
    from mtcompute.metrics.chrf.resample import ChrfMetric  # noqa: PLC0415

    if name in WER_UNITS:
        from mtcompute.metrics.wer.resample import WerMetric  # noqa: PLC0415

        options = WerOptions(WER_UNITS[name], **raw)
        return WerMetric(options), wer_signature_fields(options)
    if name == "bleu":
        bleu, _, fields = bleu_setup(raw, refs)
        return significance.BleuMetric(bleu), fields
    if name == "chrf":
        chrf = ChrfOptions(**raw)
        return ChrfMetric(chrf), chrf_signature_fields(chrf, refs)
    ter = ter_scoring.TerOptions(**raw)
    return significance.TerMetric(ter), ter_scoring.ter_signature_fields(ter, refs)
