"""BLEU under sacreBLEU 2.6.0's rules, from raw text: its ``BLEU`` settings, preprocessing
(``str.lower`` when asked, each line right-stripped and tokenized, then split), statistics
(exact integers, :mod:`mtcompute.metrics.bleu.counts`), the float steps of
``BLEU.compute_bleu`` on their sums (Papineni et al. 2002 §2.1-2.3 with the smoothing
methods of Chen & Cherry 2014 §2 that sacreBLEU names ``floor`` (method 1), ``add-k``
(method 2) and ``exp`` (method 3, mteval-v13a's)), the result and its signature fields.

Statistics are sacreBLEU's flat lists, ``[sys_len, ref_len, correct_1..N, total_1..N]``;
``references[i]`` holds the one or more reference strings of segment ``i``. Nothing here
validates: the callers check their arguments (field types, or sacreBLEU's own checks in the
facade) before calling.
"""

from __future__ import annotations

__all__ = [
    "BLEU_SMOOTHING",
    "SMOOTH_DEFAULTS",
    "BleuOptions",
    "BleuParts",
    "BleuReferences",
    "BleuResult",
    "bleu_fields",
    "bleu_of_options",
    "bleu_references",
    "bleu_rows_of",
    "bleu_score",
    "bleu_setup",
    "bleu_signature_fields",
    "bleu_statistics",
    "bleu_statistics_of",
    "compute_bleu",
    "corpus_bleu",
    "my_log",
]

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar, cast

from mtcompute import streaming
from mtcompute.metrics._base import Formatted, common_fields, format_signature, summed_in_chunks
from mtcompute.metrics.bleu.counts import bleu_text_rows, bleu_text_statistics, kernel_tokenizes
from mtcompute.metrics.bleu.statistics import BLEU_SMOOTHING, SMOOTH_DEFAULTS, BleuStatistics
from mtcompute.tokenizers import Tokenizer, get_tokenizer

# --- sacreBLEU's float steps ------------------------------------------------------------------


def my_log(x: float) -> float:
    """sacreBLEU's ``utils.my_log``: ``math.log``, with log 0 floored at -9999999999."""
    if x == 0.0:
        return -9999999999
    return math.log(x)


@dataclass(frozen=True, slots=True)
class BleuParts:
    """What sacreBLEU's ``BLEUScore`` holds. ``counts`` and ``totals`` are as it keeps them:
    after ``add-k`` added the smoothing value to the orders 2 and up that it reached."""

    score: float
    counts: tuple[int | float, ...]
    totals: tuple[int | float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int


def compute_bleu(
    correct: Sequence[int | float],
    total: Sequence[int | float],
    sys_len: int,
    ref_len: int,
    smooth_method: str = "none",
    smooth_value: float | None = None,
    effective_order: bool = False,
    max_ngram_order: int = 4,
) -> BleuParts:
    """BLEU from its sufficient statistics, as ``BLEU.compute_bleu`` computes it.

    >>> round(compute_bleu([3, 1, 0, 0], [4, 3, 2, 1], 4, 5, "exp").score, 6)
    27.534766
    """
    return _compute_bleu(
        BleuParts,
        correct,
        total,
        sys_len,
        ref_len,
        smooth_method,
        smooth_value,
        effective_order,
        max_ngram_order,
    )


P = TypeVar("P", bound=BleuParts)


def _compute_bleu(
    result: type[P],
    correct: Sequence[int | float],
    total: Sequence[int | float],
    sys_len: int,
    ref_len: int,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_ngram_order: int,
) -> P:
    """:func:`compute_bleu`, its result a ``result`` (:class:`BleuParts` or a record that
    extends it without new fields)."""
    if smooth_method not in SMOOTH_DEFAULTS:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}")
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    k = 0 if smooth_value is None else smooth_value  # None only for none and exp, unused
    correct = list(correct)  # sacreBLEU changes its (sliced) lists in place; not ours
    total = list(total)

    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0

    precisions = [0.0] * max_ngram_order

    if not any(correct):  # sacreBLEU's early stop (its issue #141)
        return result(0.0, tuple(correct), tuple(total), tuple(precisions), bp, sys_len, ref_len)

    smooth_mteval = 1.0
    eff_order = max_ngram_order
    for n in range(1, len(precisions) + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += k
            total[n - 1] += k
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * k / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]

    score = bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)
    return result(score, tuple(correct), tuple(total), tuple(precisions), bp, sys_len, ref_len)


def bleu_fields(parts: BleuParts) -> dict[str, Any]:
    """The :class:`BleuParts` fields of ``parts`` by name, for a record that extends it
    (:class:`mtcompute.CorpusBleu`)."""
    return {field.name: getattr(parts, field.name) for field in fields(BleuParts)}


# --- raw text ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BleuOptions:
    """sacreBLEU's ``BLEU`` settings, with its names and defaults (``tokenize`` resolved);
    ``spm_model``: the SentencePiece model file of spm, flores101 or flores200 (mtcompute's;
    ``None``: sacreBLEU's cached one)."""

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_ngram_order: int = 4
    effective_order: bool = False
    spm_model: str | None = None

    def tokenizer(self) -> Tokenizer:
        """A new tokenizer of this name (:func:`mtcompute.tokenizers.get_tokenizer`)."""
        return get_tokenizer(self.tokenize, spm_model=self.spm_model)

    def corpus_keywords(self) -> dict[str, Any]:
        """These settings as the corpus API's keywords
        (:func:`mtcompute.metrics.bleu.corpus.corpus_bleu`)."""
        return {
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
            "smooth_method": self.smooth_method,
            "smooth_value": self.smooth_value,
            "max_order": self.max_ngram_order,
            "effective_order": self.effective_order,
        } | ({} if self.spm_model is None else {"spm_model": self.spm_model})


@dataclass(frozen=True, slots=True)
class BleuResult(BleuParts, Formatted):
    """What sacreBLEU's ``BLEUScore`` holds (:class:`BleuParts`' fields), and its strings."""

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
    default = SMOOTH_DEFAULTS[smooth]
    if default is not None:
        value = default if options.smooth_value is None else options.smooth_value
        smooth += f"[{value:.2f}]"
    return common_fields(nrefs) | {
        "case": "lc" if options.lowercase else "mixed",
        "eff": "yes" if options.effective_order else "no",
        "tok": tokenizer_signature,
        "smooth": smooth,
    }


def bleu_setup(
    raw: Mapping[str, Any], refs: int | str
) -> tuple[BleuOptions, Tokenizer, dict[str, object]]:
    """BLEU's options from a tool's checked options object (sacreBLEU's names), its
    tokenizer (a fault named at ``/bleu/tokenize``) and sacreBLEU's signature fields
    (``refs``: the signature's nrefs): sacrebleu-score's and paired-significance's."""
    options = BleuOptions(**raw)
    tokenizer = get_tokenizer(options.tokenize, "/bleu/tokenize")
    return options, tokenizer, bleu_signature_fields(options, refs, tokenizer.signature)


def _flat_bleu(stats: BleuStatistics) -> list[int]:
    return [stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals]


@dataclass(frozen=True, slots=True)
class BleuReferences:
    """References prepared once for many hypothesis sets (sacreBLEU's reference cache,
    ``BLEU(references=...)``): per segment, each reference lowercased when the options ask,
    and tokenized (``tokenizer(text.rstrip())``) when ``tokenized``: for a tokenizer that the
    kernel does not apply itself (intl, zh, char, the MeCab ones, or any without the
    kernel), which would otherwise tokenize the references again for each system. Made by
    :func:`bleu_references`; ``texts`` are lists, so that each system's counting checks
    them in one kernel call (:func:`mtcompute.counting.plain_texts`), and never changed."""

    texts: list[list[str]]
    options: BleuOptions
    tokenizer: Tokenizer
    tokenized: bool


def _bleu_texts(
    lines: Sequence[str], options: BleuOptions, tokenizer: Tokenizer, tokenized: bool
) -> list[str]:
    """sacreBLEU's BLEU preprocessing up to where the kernel takes over: ``str.lower`` when
    asked, then ``tokenizer(text.rstrip())`` when ``tokenized``."""
    texts = [line.lower() for line in lines] if options.lowercase else list(lines)
    if not tokenized:
        return texts
    return tokenizer.many([text.rstrip() for text in texts])


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
    tokenized = not kernel_tokenizes(tokenizer)
    counts = [len(segment) for segment in references]
    flat = _bleu_texts(
        [line for segment in references for line in segment], options, tokenizer, tokenized
    )
    texts = []
    at = 0
    for count in counts:
        texts.append(flat[at : at + count])
        at += count
    return BleuReferences(texts, options, tokenizer, tokenized)


def bleu_statistics_of(
    hypotheses: Sequence[str], references: BleuReferences, *, per_segment: bool = False
) -> tuple[list[int], list[list[int]] | None]:
    """:func:`bleu_statistics` against references prepared by :func:`bleu_references`
    (their options and tokenizer apply to the hypotheses too)."""
    texts, tokenizer = _bleu_hypotheses(hypotheses, references)
    total, each = bleu_text_statistics(
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
    (:func:`mtcompute.bleu_text_rows`): no Python object per segment."""
    texts, tokenizer = _bleu_hypotheses(hypotheses, references)
    total, rows = bleu_text_rows(
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

        return summed_in_chunks(count, hypotheses, references)
    hypotheses = cast("Sequence[str]", hypotheses)  # a list or a tuple from here on
    references = cast("Sequence[Sequence[str]]", references)
    total, each = bleu_text_statistics(
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
    return _compute_bleu(
        BleuResult,
        statistics[2 : 2 + n],
        statistics[2 + n :],
        int(statistics[0]),
        int(statistics[1]),
        options.smooth_method,
        options.smooth_value,
        options.effective_order,
        n,
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


def bleu_of_options(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    raw: Mapping[str, Any],
    refs: int | str,
) -> tuple[BleuResult, str]:
    """Corpus BLEU with a tool's checked options object (:func:`bleu_setup`; ``refs``: the
    signature's nrefs), and sacreBLEU's signature string: sacrebleu-score's BLEU."""
    options, tokenizer, fields = bleu_setup(raw, refs)
    total, _ = bleu_statistics(hypotheses, references, options, tokenizer=tokenizer)
    return bleu_score(total, options), format_signature(fields)
