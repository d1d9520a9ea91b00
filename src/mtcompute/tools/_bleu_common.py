"""Validation and output pieces shared by the BLEU tools.

The BLEU tools are one pipeline with the sufficient statistics as the seam (Papineni et al.
2002 §2.1 for one segment, §2.1.1 and §2.2.2 for a corpus: sum the statistics, then score;
Chen & Cherry 2014 §2.2 for the smoothing):

* bleu-sentence-components and bleu-ngrams-count count (one segment, many segments);
* bleu-smoothing-compute scores statistics;
* bleu-sentence-compute and bleu-corpus-compute are counting followed by scoring, so they give
  exactly what calling the two steps in sequence gives.

This module holds what their validators share, so that one rule has one message everywhere:
token lists and references, the corpus layout, the total limits, the scoring options
(``smoothing``, ``epsilon``, ``effective_order``, ``decimals``), and the clipping-table rows
as bleu-sentence-components writes them. The counting itself is
:func:`mtcompute.core.bleu.sentence_statistics` and
:func:`mtcompute.core.bleu.clipping_table`; the scoring is
:func:`mtcompute.core.bleu.smooth_and_score`.
"""

from __future__ import annotations

from mtcompute.core._record import Record
from mtcompute.core.bleu import (
    SMOOTHINGS,
    UNSUPPORTED_SMOOTHINGS,
    BleuStatistics,
    sentence_statistics,
)
from mtcompute.errors import InvalidInput, LimitExceeded, UnsupportedInput
from mtcompute.tools._validate import (
    describe,
    first_lone_surrogate,
    require_array,
    require_bool,
    require_integer,
    require_number,
    require_string,
    utf8_length,
)

# Imported only by the type checker: at run time these would cost `mtcompute score` start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mtcompute.core.bleu import NgramEntry, SmoothedBleu, Smoothing

__all__ = [
    "DEFAULT_EPSILON",
    "MAX_REFERENCES",
    "MAX_TOKEN_BYTES",
    "SMOOTHINGS",
    "STATISTICS_ONLY_REASON",
    "UNSUPPORTED_SMOOTHINGS",
    "Corpus",
    "ScoringOptions",
    "check_epsilon",
    "check_totals",
    "corpus_statistics",
    "ngram_rows",
    "parse_corpus",
    "parse_references",
    "parse_scoring_options",
    "parse_smoothing",
    "score",
    "tokens_at",
]

MAX_TOKEN_BYTES = 128
MAX_REFERENCES = 8
DEFAULT_EPSILON = 0.1
# Why method4-7 are refused where only sufficient statistics are scored (bleu-smoothing-compute
# and the library's corpus_bleu).
STATISTICS_ONLY_REASON = (
    "it needs the source or corpus context that sufficient statistics do not carry"
)


# --- tokens and references ------------------------------------------------------------------


def _clean_tokens(items: Sequence[object]) -> tuple[list[str], int] | None:
    """The tokens and their UTF-8 bytes when every item passes every token check, else
    ``None`` (then the item-by-item loop finds the first fault and its message). Checks the
    whole list at once: the same answers, without a Python loop per token."""
    if not all(isinstance(item, str) for item in items):
        return None
    tokens: list[str] = list(items)  # type: ignore[arg-type]  # all str, checked above
    if "" in tokens:
        return None
    joined = "".join(tokens)
    if joined.isascii():
        sizes = list(map(len, tokens))
    elif first_lone_surrogate(joined) < 0:
        sizes = [len(token.encode("utf-8")) for token in tokens]
    else:
        return None
    if sizes and max(sizes) > MAX_TOKEN_BYTES:
        return None
    return tokens, sum(sizes)


def tokens_at(value: object, path: str, what: str) -> tuple[list[str], int]:
    """A token list (each a non-empty string, no lone surrogate, at most 128 UTF-8 bytes),
    and its total UTF-8 bytes."""
    items = require_array(value, path, what)
    fast = _clean_tokens(items)
    if fast is not None:
        return fast
    tokens: list[str] = []
    total_bytes = 0
    for i, item in enumerate(items):
        where = f"{path}/{i}"
        token = require_string(item, where, "a token (a non-empty string)")
        if not token:
            raise InvalidInput(
                f"Expected a non-empty token at {where}, got the empty string.", where
            )
        at = first_lone_surrogate(token)
        if at >= 0:
            raise InvalidInput(
                f"Expected a token without lone surrogates at {where}, "
                f"got U+{ord(token[at]):04X} at index {at}.",
                where,
            )
        size = utf8_length(token)
        if size > MAX_TOKEN_BYTES:
            raise LimitExceeded(
                f"Expected a token of at most {MAX_TOKEN_BYTES} UTF-8 bytes at {where} "
                f"(limit max token bytes), got {size} bytes.",
                where,
            )
        tokens.append(token)
        total_bytes += size
    return tokens, total_bytes


def parse_references(value: object, path: str) -> tuple[list[list[str]], int]:
    """1 to 8 token lists (more than 8 is ``limit_exceeded``), and their total bytes."""
    items = require_array(value, path, "an array of 1 to 8 token lists")
    if len(items) > MAX_REFERENCES:
        raise LimitExceeded(
            f"Expected at most {MAX_REFERENCES} references at {path} (limit max references), "
            f"got {len(items)}.",
            path,
        )
    if not items:
        raise InvalidInput(f"Expected at least 1 reference at {path}, got none.", path)
    references: list[list[str]] = []
    total_bytes = 0
    for j, item in enumerate(items):
        tokens, size = tokens_at(item, f"{path}/{j}", "a reference token list (an array)")
        references.append(tokens)
        total_bytes += size
    return references, total_bytes


def check_totals(
    token_count: int, token_bytes: int, max_tokens: int, max_bytes: int, sides: str
) -> None:
    """max total tokens, then max total token bytes (``sides`` names what is counted)."""
    if token_count > max_tokens:
        raise LimitExceeded(
            f"Expected at most {max_tokens} tokens in {sides} together "
            f"(limit max total tokens), got {token_count}."
        )
    if token_bytes > max_bytes:
        raise LimitExceeded(
            f"Expected at most {max_bytes} UTF-8 bytes of tokens in all "
            f"(limit max total token bytes), got {token_bytes}."
        )


# --- the corpus layout: hypotheses[i] and references[i] are segment i ------------------------


class Corpus(Record):
    """Validated segments: hypothesis i and its references, with the token totals."""

    __slots__ = ("hypotheses", "references", "token_count", "token_bytes")
    hypotheses: list[list[str]]
    references: list[list[list[str]]]
    token_count: int
    token_bytes: int

    def __init__(
        self,
        hypotheses: list[list[str]],
        references: list[list[list[str]]],
        token_count: int,
        token_bytes: int,
    ) -> None:
        object.__setattr__(self, "hypotheses", hypotheses)
        object.__setattr__(self, "references", references)
        object.__setattr__(self, "token_count", token_count)
        object.__setattr__(self, "token_bytes", token_bytes)


def _segment_array(value: object, path: str, what: str, max_segments: int) -> Sequence[object]:
    items = require_array(value, path, f"an array of 1 to {max_segments} {what}")
    if len(items) > max_segments:
        raise LimitExceeded(
            f"Expected at most {max_segments} segments at {path} (limit max segments), "
            f"got {len(items)}.",
            path,
        )
    if not items:
        raise InvalidInput(f"Expected at least 1 segment at {path}, got none.", path)
    return items


def parse_corpus(obj: Mapping[str, object], max_segments: int) -> Corpus:
    """hypotheses, then references (each: array, more than ``max_segments`` items, fewer than
    1 item, then each segment in order), then equal segment counts."""
    hypotheses: list[list[str]] = []
    token_count = token_bytes = 0
    for i, item in enumerate(
        _segment_array(obj["hypotheses"], "/hypotheses", "token lists", max_segments)
    ):
        tokens, size = tokens_at(item, f"/hypotheses/{i}", "a token list (an array)")
        hypotheses.append(tokens)
        token_count += len(tokens)
        token_bytes += size
    references: list[list[list[str]]] = []
    for i, item in enumerate(
        _segment_array(obj["references"], "/references", "reference lists", max_segments)
    ):
        refs, size = parse_references(item, f"/references/{i}")
        references.append(refs)
        token_count += sum(map(len, refs))
        token_bytes += size
    if len(references) != len(hypotheses):
        raise InvalidInput(
            f"Expected references to have as many segments as hypotheses ({len(hypotheses)}) "
            f"at /references, got {len(references)}.",
            "/references",
        )
    return Corpus(hypotheses, references, token_count, token_bytes)


def corpus_statistics(
    corpus: Corpus, max_order: int
) -> tuple[list[BleuStatistics], BleuStatistics]:
    """Each segment's statistics, in input order, as bleu-sentence-components counts them,
    and their exact sum (Papineni 2002 §2.1.1, §2.2.2)."""
    segments = [
        sentence_statistics(hypothesis, references, max_order)
        for hypothesis, references in zip(corpus.hypotheses, corpus.references, strict=True)
    ]
    total = segments[0]  # parse_corpus admits at least one segment
    for stats in segments[1:]:
        total = total + stats
    return segments, total


# --- scoring options (bleu-smoothing-compute's rules) ---------------------------------------


class ScoringOptions(Record):
    """smoothing, epsilon (``None`` when omitted), effective_order and decimals, validated."""

    __slots__ = ("smoothing", "epsilon", "effective_order", "decimals")
    smoothing: Smoothing
    epsilon: int | float | None
    effective_order: bool
    decimals: int | None

    def __init__(
        self,
        smoothing: Smoothing,
        epsilon: int | float | None,
        effective_order: bool,
        decimals: int | None,
    ) -> None:
        object.__setattr__(self, "smoothing", smoothing)
        object.__setattr__(self, "epsilon", epsilon)
        object.__setattr__(self, "effective_order", effective_order)
        object.__setattr__(self, "decimals", decimals)


def parse_smoothing(value: object, tool: str | None, reason: str) -> Smoothing:
    """One of none, method1-3; method4-7 are ``unsupported_input`` with ``reason`` (naming
    ``tool`` when given)."""
    if value in UNSUPPORTED_SMOOTHINGS:
        by = f" by {tool}" if tool else ""
        raise UnsupportedInput(
            f"Chen and Cherry {value} is not supported{by} at /smoothing: "
            f"{reason}; use none, method1, method2 or method3.",
            "/smoothing",
        )
    for smoothing in SMOOTHINGS:
        if value == smoothing and isinstance(value, str):
            return smoothing
    raise InvalidInput(
        f"Expected one of none, method1, method2, method3 at /smoothing, got {describe(value)}.",
        "/smoothing",
    )


def parse_scoring_options(
    obj: Mapping[str, object], tool: str, reason: str, default_smoothing: Smoothing = "none"
) -> ScoringOptions:
    """smoothing, epsilon (0-1), effective_order (boolean), decimals (0-15), in that order.

    The cross-field rule (epsilon only with method1) is :func:`check_epsilon`, which the
    tools run last.
    """
    smoothing = (
        parse_smoothing(obj["smoothing"], tool, reason) if "smoothing" in obj else default_smoothing
    )
    epsilon = require_number(obj["epsilon"], "/epsilon", 0, 1) if "epsilon" in obj else None
    effective_order = (
        require_bool(obj["effective_order"], "/effective_order")
        if "effective_order" in obj
        else False
    )
    decimals = require_integer(obj["decimals"], "/decimals", 0, 15) if "decimals" in obj else None
    return ScoringOptions(smoothing, epsilon, effective_order, decimals)


def check_epsilon(options: ScoringOptions) -> None:
    """epsilon is accepted only with method1."""
    if options.epsilon is not None and options.smoothing != "method1":
        raise InvalidInput(
            f"Expected no epsilon with smoothing {options.smoothing} at /epsilon "
            "(epsilon applies to method1 only), got one.",
            "/epsilon",
        )


def score(stats: BleuStatistics, options: ScoringOptions) -> SmoothedBleu:
    """bleu-smoothing-compute on (valid) statistics with the given options."""
    epsilon = DEFAULT_EPSILON if options.epsilon is None else options.epsilon
    return stats.score(options.smoothing, epsilon, options.effective_order, options.decimals)


# --- the clipping table as bleu-sentence-components writes it --------------------------------


def ngram_rows(entries: Sequence[NgramEntry]) -> list[dict[str, object]]:
    """The ``ngrams`` rows: order, ngram, count, max_reference_count, clipped_count."""
    return [
        {
            "order": e.order,
            "ngram": list(e.ngram),
            "count": e.count,
            "max_reference_count": e.max_reference_count,
            "clipped_count": e.clipped_count,
        }
        for e in entries
    ]
