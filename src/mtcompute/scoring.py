"""sacreBLEU-exact BLEU, chrF and chrF++ from raw text: the one path of every surface that
promises sacreBLEU 2.6.0's numbers (the sacrebleu-score tool, ``mtcompute.sacrebleu``,
``mtcompute sacrebleu`` and ``mtcompute score``).

Each metric is sacreBLEU's seam: statistics per segment (integers, exact; the kernel through
:mod:`mtcompute.counting`), summed, then scored by sacreBLEU's floating-point steps
(:mod:`mtcompute.core.sacre`). Results format themselves as sacreBLEU's ``Score.format``
does, and signatures are sacreBLEU's ``Signature.format`` strings.

Statistics are sacreBLEU's flat lists: BLEU ``[sys_len, ref_len, correct_1..N, total_1..N]``;
chrF ``[n_hyp, n_ref, n_match]`` per order, character orders first, each segment's from the
reference with the best sentence chrF (the first of equals). ``references[i]`` holds the one
or more reference strings of segment ``i`` (the per-segment layout of the catalog).

Nothing here validates: the callers check their arguments (field types, or sacreBLEU's own
checks in the facade) before calling.
"""

from __future__ import annotations

__all__ = [
    "SACREBLEU_VERSION",
    "TER_ABBREVIATIONS",
    "BleuOptions",
    "BleuReferences",
    "BleuResult",
    "ChrfOptions",
    "ChrfReferences",
    "ChrfResult",
    "TerOptions",
    "TerReferences",
    "TerResult",
    "bleu_references",
    "bleu_rows_of",
    "bleu_score",
    "bleu_signature_fields",
    "bleu_statistics",
    "bleu_statistics_of",
    "chrf_references",
    "chrf_rows_of",
    "chrf_score",
    "chrf_signature_fields",
    "chrf_statistics",
    "chrf_statistics_of",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "format_score",
    "format_signature",
    "ter_references",
    "ter_score",
    "ter_signature_fields",
    "ter_statistics",
    "ter_statistics_of",
    "ter_texts",
]

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from mtcompute import counting, native, streaming
from mtcompute.core import sacre
from mtcompute.core.bleu import BleuStatistics
from mtcompute.metrics.ter.edits import score_from_statistics, sum_statistics
from mtcompute.metrics.ter.statistics import lowered_statistics, text_statistics
from mtcompute.metrics.ter.tokenizer import TercomTokenizer
from mtcompute.tokenizers import Tokenizer, get_tokenizer

SACREBLEU_VERSION = "2.6.0"
"""The sacreBLEU release whose numbers, strings and signatures these are."""

_ABBREVIATIONS = {
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

TER_ABBREVIATIONS = _ABBREVIATIONS | {
    "case": "c",
    "tok": "t",
    "norm": "nr",
    "punct": "pn",
    "asian": "as",
}
"""The short signature keys of TER (sacreBLEU's ``TERSignature``: ``tok`` is ``t`` there)."""


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
    if is_json:
        for param in signature.split("|"):
            key, value = param.split(":")  # sacreBLEU's own step: an empty signature fails
            d[key] = value
        return json.dumps(d, indent=1, ensure_ascii=False)
    return full_score


def _common_fields(nrefs: int | str) -> dict[str, object]:
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
    abbreviations: Mapping[str, str] = _ABBREVIATIONS,
) -> str:
    """sacreBLEU's ``Signature.format``: ``key:value`` pairs joined by ``|`` in the fields'
    order with ``version`` last, None left out, booleans as yes/no, keys abbreviated when
    ``short`` (by ``abbreviations``: :data:`TER_ABBREVIATIONS` for TER's fields)."""
    pairs = []
    for name in [key for key in fields if key != "version"] + ["version"]:
        value = fields[name]
        if value is not None:
            if isinstance(value, bool):
                value = "yes" if value else "no"
            final_name = abbreviations[name] if short else name
            pairs.append(f"{final_name}:{value}")
    return "|".join(pairs)


class _Formatted:
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


def _in_chunks(
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


# --- BLEU ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BleuOptions:
    """sacreBLEU's ``BLEU`` settings, with its names and defaults (``tokenize`` resolved)."""

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_ngram_order: int = 4
    effective_order: bool = False

    def tokenizer(self) -> Tokenizer:
        """A new tokenizer of this name (:func:`mtcompute.tokenizers.get_tokenizer`)."""
        return get_tokenizer(self.tokenize)


@dataclass(frozen=True, slots=True)
class BleuResult(_Formatted):
    """What sacreBLEU's ``BLEUScore`` holds, and its strings."""

    score: float
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int

    name = "BLEU"

    @property
    def prec_str(self) -> str:
        """The precisions with one decimal, joined by ``/``."""
        return "/".join([f"{p:.1f}" for p in self.precisions])

    @property
    def ratio(self) -> float:
        """sys_len / ref_len (0 when ref_len is 0)."""
        return self.sys_len / self.ref_len if self.ref_len else 0

    @property
    def verbose(self) -> str:
        """What sacreBLEU prints after the score: precisions, BP, ratio and lengths."""
        return (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


def bleu_signature_fields(
    options: BleuOptions, nrefs: int | str, tokenizer_signature: str
) -> dict[str, object]:
    """sacreBLEU's ``BLEUSignature.info`` for these options, in its order."""
    smooth = options.smooth_method
    default = sacre.SMOOTH_DEFAULTS[smooth]
    if default is not None:
        value = default if options.smooth_value is None else options.smooth_value
        smooth += f"[{value:.2f}]"
    return _common_fields(nrefs) | {
        "case": "lc" if options.lowercase else "mixed",
        "eff": "yes" if options.effective_order else "no",
        "tok": tokenizer_signature,
        "smooth": smooth,
    }


def _flat_bleu(stats: BleuStatistics) -> list[int]:
    return [stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals]


@dataclass(frozen=True, slots=True)
class BleuReferences:
    """References prepared once for many hypothesis sets (sacreBLEU's reference cache,
    ``BLEU(references=...)``): per segment, each reference lowercased when the options ask,
    and tokenized (``tokenizer(text.rstrip())``) when ``tokenized``: for a tokenizer that the
    kernel does not apply itself (intl, zh, char, the MeCab ones, or any without the
    kernel), which would otherwise tokenize the references again for each system. Made by
    :func:`bleu_references`."""

    texts: tuple[tuple[str, ...], ...]
    options: BleuOptions
    tokenizer: Tokenizer
    tokenized: bool


def _kernel_tokenizes(tokenizer: Tokenizer) -> bool:
    """Whether the kernel applies this tokenizer itself while it counts."""
    return tokenizer.kernel in counting.KERNEL_TOKENIZERS and native.active()


def _bleu_texts(
    lines: Sequence[str], options: BleuOptions, tokenizer: Tokenizer, tokenized: bool
) -> list[str]:
    """sacreBLEU's BLEU preprocessing up to where the kernel takes over: ``str.lower`` when
    asked, then ``tokenizer(text.rstrip())`` when ``tokenized``."""
    texts = [line.lower() for line in lines] if options.lowercase else list(lines)
    return [tokenizer(text.rstrip()) for text in texts] if tokenized else texts


def bleu_references(
    references: Sequence[Sequence[str]],
    options: BleuOptions,
    *,
    tokenizer: Tokenizer | None = None,
) -> BleuReferences:
    """``references`` (per segment, one or more strings) prepared as sacreBLEU's BLEU
    prepares references, for :func:`bleu_statistics_of` (``tokenizer``: an instance of
    ``options.tokenize`` to use, else a new one)."""
    tokenizer = tokenizer if tokenizer is not None else options.tokenizer()
    tokenized = not _kernel_tokenizes(tokenizer)
    counts = [len(segment) for segment in references]
    flat = _bleu_texts(
        [line for segment in references for line in segment], options, tokenizer, tokenized
    )
    texts = []
    at = 0
    for count in counts:
        texts.append(tuple(flat[at : at + count]))
        at += count
    return BleuReferences(tuple(texts), options, tokenizer, tokenized)


def bleu_statistics_of(
    hypotheses: Sequence[str], references: BleuReferences, *, per_segment: bool = False
) -> tuple[list[int], list[list[int]] | None]:
    """:func:`bleu_statistics` against references prepared by :func:`bleu_references`
    (their options and tokenizer apply to the hypotheses too)."""
    texts, tokenizer = _bleu_hypotheses(hypotheses, references)
    total, each = counting.bleu_text_statistics(
        texts,
        references.texts,
        references.options.max_ngram_order,
        per_segment=per_segment,
        tokenizer=tokenizer,
    )
    return _flat_bleu(total), ([_flat_bleu(s) for s in each] if each is not None else None)


def bleu_rows_of(hypotheses: Sequence[str], references: BleuReferences) -> tuple[list[int], bytes]:
    """:func:`bleu_statistics_of` per segment, each segment's statistics (the same numbers)
    as one buffer of native int64 values, ``2 + 2 * max_ngram_order`` a segment
    (:func:`mtcompute.counting.bleu_text_rows`): no Python object per segment."""
    texts, tokenizer = _bleu_hypotheses(hypotheses, references)
    total, rows = counting.bleu_text_rows(
        texts, references.texts, references.options.max_ngram_order, tokenizer=tokenizer
    )
    return _flat_bleu(total), rows


def _bleu_hypotheses(
    hypotheses: Sequence[str], references: BleuReferences
) -> tuple[Sequence[str], Tokenizer | None]:
    """The hypotheses prepared as the references were, and the tokenizer left to apply."""
    if len(hypotheses) != len(references.texts):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references.texts)} reference lists "
            "(one list per segment expected)"
        )
    texts = _bleu_texts(hypotheses, references.options, references.tokenizer, references.tokenized)
    return texts, None if references.tokenized else references.tokenizer


def bleu_statistics(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    options: BleuOptions,
    *,
    per_segment: bool = False,
    tokenizer: Tokenizer | None = None,
) -> tuple[list[int], list[list[int]] | None]:
    """The summed statistics and, with ``per_segment``, each segment's, as sacreBLEU's
    ``BLEU`` extracts them: ``str.lower`` if asked, ``rstrip``, the tokenizer, ``split``
    (for many hypothesis sets against the same references: :func:`bleu_references` and
    :func:`bleu_statistics_of`, the same numbers). Iterables that are not lists or tuples
    are read in chunks, in bounded memory without ``per_segment``."""
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        chosen = tokenizer if tokenizer is not None else options.tokenizer()

        def count(
            hyps: Sequence[str], refs: Sequence[Sequence[str]]
        ) -> tuple[list[int], list[list[int]] | None]:
            return bleu_statistics(hyps, refs, options, per_segment=per_segment, tokenizer=chosen)

        return _in_chunks(count, hypotheses, references)
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    total, each = counting.bleu_text_statistics(
        hypotheses,
        references,
        options.max_ngram_order,
        per_segment=per_segment,
        tokenizer=tokenizer if tokenizer is not None else options.tokenizer(),
        lowercase=options.lowercase,
    )
    return _flat_bleu(total), ([_flat_bleu(s) for s in each] if each is not None else None)


def bleu_score(statistics: Sequence[int | float], options: BleuOptions) -> BleuResult:
    """sacreBLEU's ``BLEU._compute_score_from_stats`` of summed statistics."""
    n = options.max_ngram_order
    parts = sacre.compute_bleu(
        statistics[2 : 2 + n],
        statistics[2 + n :],
        int(statistics[0]),
        int(statistics[1]),
        options.smooth_method,
        options.smooth_value,
        options.effective_order,
        n,
    )
    return BleuResult(
        parts.score,
        parts.counts,
        parts.totals,
        parts.precisions,
        parts.bp,
        parts.sys_len,
        parts.ref_len,
    )


def corpus_bleu(
    hypotheses: Iterable[str], references: Iterable[Sequence[str]], options: BleuOptions
) -> BleuResult:
    """Corpus BLEU as sacreBLEU's ``BLEU(...).corpus_score`` gives it.

    >>> corpus_bleu(["The cat sat on the mat."], [["The cat sat on the mat."]], BleuOptions())
    ... # doctest: +ELLIPSIS
    BleuResult(score=100.0000...
    """
    total, _ = bleu_statistics(hypotheses, references, options)
    return bleu_score(total, options)


# --- chrF ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChrfOptions:
    """sacreBLEU's ``CHRF`` settings, with its names and defaults."""

    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    @property
    def order(self) -> int:
        """Character orders plus word orders."""
        return self.char_order + self.word_order


@dataclass(frozen=True, slots=True)
class ChrfResult(_Formatted):
    """What sacreBLEU's ``CHRFScore`` holds, and its strings."""

    score: float
    char_order: int
    word_order: int
    beta: int

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++``: beta, then one ``+`` per word order."""
        return f"chrF{self.beta}" + "+" * self.word_order


def chrf_signature_fields(options: ChrfOptions, nrefs: int | str) -> dict[str, object]:
    """sacreBLEU's ``CHRFSignature.info`` for these options, in its order."""
    return _common_fields(nrefs) | {
        "case": "lc" if options.lowercase else "mixed",
        "eff": "yes" if not options.eps_smoothing else "no",
        "nc": options.char_order,
        "nw": options.word_order,
        "space": "yes" if options.whitespace else "no",
    }


@dataclass(frozen=True, slots=True)
class ChrfReferences:
    """References prepared once for many hypothesis sets (sacreBLEU's reference cache,
    ``CHRF(references=...)``): per segment, each reference lowercased when the options ask.
    Made by :func:`chrf_references`."""

    texts: tuple[tuple[str, ...], ...]
    options: ChrfOptions


def chrf_references(references: Sequence[Sequence[str]], options: ChrfOptions) -> ChrfReferences:
    """``references`` (per segment, one or more strings) prepared as sacreBLEU's CHRF
    prepares references, for :func:`chrf_statistics_of`."""
    if options.lowercase:
        return ChrfReferences(
            tuple(tuple(text.lower() for text in segment) for segment in references), options
        )
    return ChrfReferences(tuple(tuple(segment) for segment in references), options)


def chrf_statistics_of(
    hypotheses: Sequence[str], references: ChrfReferences, *, per_segment: bool = False
) -> tuple[list[int], list[list[int]] | None]:
    """:func:`chrf_statistics` against references prepared by :func:`chrf_references`
    (their options apply to the hypotheses too)."""
    options = references.options
    return counting.sacrebleu_chrf_statistics(
        _chrf_hypotheses(hypotheses, references),
        references.texts,
        options.char_order,
        options.word_order,
        options.beta,
        whitespace=options.whitespace,
        eps_smoothing=options.eps_smoothing,
        per_segment=per_segment,
    )


def chrf_rows_of(hypotheses: Sequence[str], references: ChrfReferences) -> tuple[list[int], bytes]:
    """:func:`chrf_statistics_of` per segment, each segment's statistics (the same numbers) as
    one buffer of native int64 values, ``3 * (char_order + word_order)`` a segment
    (:func:`mtcompute.counting.sacrebleu_chrf_rows`): no list per segment."""
    options = references.options
    return counting.sacrebleu_chrf_rows(
        _chrf_hypotheses(hypotheses, references),
        references.texts,
        options.char_order,
        options.word_order,
        options.beta,
        whitespace=options.whitespace,
        eps_smoothing=options.eps_smoothing,
    )


def _chrf_hypotheses(hypotheses: Sequence[str], references: ChrfReferences) -> Sequence[str]:
    """The hypotheses prepared as the references were (lowercased when the options ask)."""
    if len(hypotheses) != len(references.texts):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references.texts)} reference lists "
            "(one list per segment expected)"
        )
    return [text.lower() for text in hypotheses] if references.options.lowercase else hypotheses


def chrf_statistics(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    options: ChrfOptions,
    *,
    per_segment: bool = False,
) -> tuple[list[int], list[list[int]] | None]:
    """The summed statistics and, with ``per_segment``, each segment's, as sacreBLEU's
    ``CHRF`` extracts them (each segment's from its best reference; for many hypothesis sets
    against the same references: :func:`chrf_references` and :func:`chrf_statistics_of`, the
    same numbers). Iterables that are not lists or tuples are read in chunks, in bounded
    memory without ``per_segment``."""
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):

        def count(
            hyps: Sequence[str], refs: Sequence[Sequence[str]]
        ) -> tuple[list[int], list[list[int]] | None]:
            return chrf_statistics(hyps, refs, options, per_segment=per_segment)

        return _in_chunks(count, hypotheses, references)
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    return counting.sacrebleu_chrf_statistics(
        hypotheses,
        references,
        options.char_order,
        options.word_order,
        options.beta,
        lowercase=options.lowercase,
        whitespace=options.whitespace,
        eps_smoothing=options.eps_smoothing,
        per_segment=per_segment,
    )


def chrf_score(statistics: Sequence[int], options: ChrfOptions) -> ChrfResult:
    """sacreBLEU's ``CHRF._compute_score_from_stats`` of summed statistics."""
    score = sacre.chrf_f_score(statistics, options.order, options.beta, options.eps_smoothing)
    return ChrfResult(score, options.char_order, options.word_order, options.beta)


def corpus_chrf(
    hypotheses: Iterable[str], references: Iterable[Sequence[str]], options: ChrfOptions
) -> ChrfResult:
    """Corpus chrF (chrF++ with ``word_order=2``) as sacreBLEU's ``CHRF(...).corpus_score``.

    >>> corpus_chrf(["aa"], [["ab"]], ChrfOptions()).format()
    'chrF2 = 25.00'
    """
    total, _ = chrf_statistics(hypotheses, references, options)
    return chrf_score(total, options)


# --- TER -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TerOptions:
    """sacreBLEU's ``TER`` settings, with its names and defaults."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def tokenizer(self) -> TercomTokenizer:
        """The tercom tokenizer of these settings."""
        return TercomTokenizer(
            normalized=self.normalized,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            case_sensitive=self.case_sensitive,
        )


@dataclass(frozen=True, slots=True)
class TerResult(_Formatted):
    """What sacreBLEU's ``TERScore`` holds, and its strings."""

    score: float
    num_edits: int
    ref_length: float

    name = "TER"


def ter_signature_fields(options: TerOptions, nrefs: int | str) -> dict[str, object]:
    """sacreBLEU's ``TERSignature.info`` for these options, in its order (short keys:
    :data:`TER_ABBREVIATIONS`)."""
    return _common_fields(nrefs) | {
        "case": "mixed" if options.case_sensitive else "lc",
        "tok": "tercom",
        "norm": options.normalized,
        "punct": not options.no_punct,
        "asian": options.asian_support,
    }


def _tercom_texts(
    lines: Sequence[str], options: TerOptions, tokenizer: TercomTokenizer, *, twice: bool
) -> list[str]:
    """sacreBLEU's TER preprocessing of each line (right-stripped, tokenized; twice for a
    reference), as a text whose ``split()`` is the line's words.

    Without ``normalized`` and ``no_punct`` the tokenizer only lowercases (unless
    ``case_sensitive``) and collapses whitespace, so the words are those of
    ``line.rstrip().lower()`` (or ``line.rstrip()``), once or twice alike: collapsing
    whitespace changes no word, and lowercasing a lowercased text changes nothing, because
    every code point of ``str.lower``'s output lowercases to itself and none is capital
    sigma, the only code point ``str.lower`` maps by its context (CPython's ``lower_ucs4``;
    both facts are checked over every code point by tests/test_ter_text.py).
    """
    if not (options.normalized or options.no_punct):
        if options.case_sensitive:
            return [line.rstrip() for line in lines]
        return [line.rstrip().lower() for line in lines]
    if twice:
        return [tokenizer(tokenizer(line.rstrip()).rstrip()) for line in lines]
    return [tokenizer(line.rstrip()) for line in lines]


def ter_texts(lines: Sequence[str], options: TerOptions, *, reference: bool) -> list[str]:
    """Each line as sacreBLEU's TER preprocesses it (right-stripped and tokenized, a
    reference twice), as a text whose ``split()`` is the words TER aligns.

    >>> ter_texts(["John's car.", "John's car."], TerOptions(normalized=True), reference=True)
    ["john 's car .", "john 's car ."]
    """
    return _tercom_texts(lines, options, options.tokenizer(), twice=reference)


@dataclass(frozen=True, slots=True)
class TerReferences:
    """References preprocessed once for many hypothesis sets (sacreBLEU's reference cache,
    ``TER(references=...)``): per segment, each reference right-stripped and tokenized
    twice, as a text whose ``split()`` is its words. Made by :func:`ter_references`."""

    texts: tuple[tuple[str, ...], ...]
    options: TerOptions


def ter_references(references: Sequence[Sequence[str]], options: TerOptions) -> TerReferences:
    """``references`` (per segment, one or more strings) preprocessed as sacreBLEU's TER
    preprocesses references, for :func:`ter_statistics_of`."""
    counts = [len(segment) for segment in references]
    flat = _tercom_texts(
        [line for segment in references for line in segment],
        options,
        options.tokenizer(),
        twice=True,
    )
    texts = []
    at = 0
    for count in counts:
        texts.append(tuple(flat[at : at + count]))
        at += count
    return TerReferences(tuple(texts), options)


def ter_statistics_of(
    hypotheses: Sequence[str], references: TerReferences, *, threads: int | None = None
) -> list[tuple[int, float]]:
    """:func:`ter_statistics` against references preprocessed by :func:`ter_references`
    (their options apply to the hypotheses too)."""
    if len(hypotheses) != len(references.texts):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references.texts)} reference lists "
            "(one list per segment expected)"
        )
    options = references.options
    texts = _tercom_texts(hypotheses, options, options.tokenizer(), twice=False)
    return text_statistics(texts, references.texts, threads=threads)


def ter_statistics(
    hypotheses: Iterable[str],
    references: Iterable[Sequence[str]],
    options: TerOptions,
    *,
    threads: int | None = None,
) -> list[tuple[int, float]]:
    """Per segment (edits, average reference length) as sacreBLEU's ``TER`` extracts them:
    each line right-stripped and tokenized (a reference twice, as sacreBLEU does), split on
    whitespace, then the fewest edits over the segment's references (the kernel, which
    splits and interns the words itself, through
    :func:`mtcompute.metrics.ter.statistics.text_statistics`). Iterables that are not lists
    or tuples are read in chunks (only the statistics kept: :func:`corpus_ter` keeps their
    sums)."""
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):

        def count(
            hyps: Sequence[str], refs: Sequence[Sequence[str]]
        ) -> tuple[list[int], list[tuple[int, float]] | None]:
            return [], ter_statistics(hyps, refs, options, threads=threads)

        return _in_chunks(count, hypotheses, references)[1] or []
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    if len(hypotheses) != len(references):
        raise ValueError(
            f"{len(hypotheses)} hypotheses but {len(references)} reference lists "
            "(one list per segment expected)"
        )
    if not (options.normalized or options.no_punct or options.case_sensitive):
        # the tokenizer only lowercases (see _tercom_texts): the kernel lowers as it splits
        lowered = lowered_statistics(
            cast("list[str]", hypotheses), cast("list[list[str]]", references), threads=threads
        )
        if lowered is not None:
            return lowered
    return ter_statistics_of(hypotheses, ter_references(references, options), threads=threads)


def ter_score(num_edits: int, ref_length: float) -> TerResult:
    """sacreBLEU's ``TER._compute_score_from_stats`` of summed statistics."""
    return TerResult(score_from_statistics(num_edits, ref_length), num_edits, ref_length)


def corpus_ter(
    hypotheses: Iterable[str], references: Iterable[Sequence[str]], options: TerOptions
) -> TerResult:
    """Corpus TER as sacreBLEU's ``TER(...).corpus_score`` gives it: total edits over the
    total of the average reference lengths (summed in segment order).

    >>> corpus_ter(["The cat sat on mat."], [["The cat sat on the mat."]], TerOptions())
    TerResult(score=16.666666666666664, num_edits=1, ref_length=6.0)
    """
    if streaming.is_stream(hypotheses) or streaming.is_stream(references):
        edits, length = 0, 0.0  # added one segment at a time in order, as sum_statistics does
        for start, hyps, refs in streaming.in_chunks(hypotheses, references):
            try:
                each = ter_statistics(hyps, refs, options)
            except (TypeError, ValueError) as error:
                raise streaming.shifted(error, start) from None
            for segment_edits, segment_length in each:
                edits += segment_edits
                length += segment_length
        return ter_score(edits, length)
    return ter_score(*sum_statistics(ter_statistics(hypotheses, references, options)))
