"""Type stub of the optional C extension built from src/mtcompute/_kernel/ (mtcompute.native)."""

from collections.abc import Sequence

MAX_ORDER: int
MAX_BETA: int

Problem = tuple[str, tuple[str | int, ...], int]

def chrf_counts(
    hypotheses: Sequence[str], references: Sequence[str], char_order: int, per_segment: bool, /
) -> tuple[bytes | None, tuple[int, ...]]: ...
def chrf_segment(
    hypothesis: str, reference: str, char_order: int, /
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]: ...
def chrf_scores(counts: bytes, char_order: int, beta: int, /) -> list[float]: ...
def chrf_pairwise(
    hypotheses: Sequence[str], references: Sequence[str], char_order: int, beta: int, /
) -> tuple[
    list[list[float]],
    list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]],
]: ...
def bleu_counts(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
    per_segment: bool,
    validate: bool,
    /,
) -> tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, Problem]: ...
def bleu_counts_text(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int,
    per_segment: bool,
    tokenizer: str = "none",
    /,
) -> tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, Problem]: ...
def tokenize_13a(text: str, /) -> str: ...
def sacrebleu_chrf_counts(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    char_order: int,
    word_order: int,
    beta: int,
    whitespace: bool,
    eps_smoothing: bool,
    per_segment: bool,
    /,
) -> tuple[bytes | None, tuple[int, ...]]: ...
def bleu_sentence(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int, /
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]] | None: ...
def first_lone_surrogate(texts: Sequence[str], /) -> tuple[int, int] | None: ...
def plain_texts(hypotheses: object, references: object, /) -> bool: ...
def bleu_counts_lines(
    hypotheses: bytes,
    references: tuple[bytes, ...],
    count: int,
    max_order: int,
    per_segment: bool,
    tokenizer: str,
    /,
) -> tuple[bytes | None, tuple[int, ...]] | None: ...
def sacrebleu_chrf_lines(
    hypotheses: bytes,
    references: tuple[bytes, ...],
    count: int,
    char_order: int,
    word_order: int,
    beta: int,
    whitespace: bool,
    eps_smoothing: bool,
    per_segment: bool,
    /,
) -> tuple[bytes | None, tuple[int, ...]] | None: ...
def skip_lines(data: bytes, start: int, count: int, final: bool, /) -> tuple[int, int]: ...
def ter_edits(
    hypotheses: Sequence[Sequence[int]], references: Sequence[Sequence[Sequence[int]]], /
) -> list[tuple[tuple[int, int], ...]]: ...
def ter_statistics_text(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], lower: bool = False, /
) -> list[tuple[int, float]]: ...
def wide_texts(
    hypotheses: list[str], references: list[list[str]], /
) -> tuple[list[int], list[tuple[int, int]]]: ...
def js_dumps(value: object, /) -> bytes | None: ...
def chrf_ratios(
    counts: bytes, char_order: int, beta: int, /
) -> tuple[tuple[int, int] | None, list[tuple[int, int] | None]]: ...
