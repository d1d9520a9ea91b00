"""Type stub of the optional C extension built from src/mtcompute/_kernel/ (mtcompute.native).

It holds the full documentation of every kernel function; their C docstrings give only the
signature and one sentence.
"""

from collections.abc import Sequence

MAX_ORDER: int
MAX_BETA: int

Problem = tuple[str, tuple[str | int, ...], int]

def chrf_counts(
    hypotheses: Sequence[str], references: Sequence[str], char_order: int, per_segment: bool, /
) -> tuple[bytes | None, tuple[int, ...]]:
    """chrF statistics of aligned segments: (buffer or None, totals).  The buffer holds, per
    segment, 3*char_order native int64 counts: hypothesis n-grams, reference n-grams and
    clipped matches for n = 1..char_order; totals are the per-order sums (3*char_order
    ints).  Texts are str (lowercase them first if wanted); whitespace is removed here."""

def chrf_segment(
    hypothesis: str, reference: str, char_order: int, /
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """chrF statistics of one segment: (hypothesis counts, reference counts, matches), each a
    tuple of char_order ints."""

def chrf_scores(counts: bytes, char_order: int, beta: int, /) -> list[float]:
    """Sentence chrF (0..100) of each segment of a chrf_counts buffer, as the double nearest
    to the exact chrf_fraction; NaN where the exact integers do not fit 128 bits (finish
    those in Python)."""

def chrf_pairwise(
    hypotheses: Sequence[str], references: Sequence[str], char_order: int, beta: int, /
) -> tuple[
    list[list[float]],
    list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]],
]:
    """Sentence chrF of every hypothesis against every reference: (rows, pending), rows a list
    of lists of floats (the double nearest to the exact chrf_fraction), pending a list of
    (i, j, hyp counts, ref counts, matches) for pairs whose exact integers do not fit 128
    bits, left as NaN in rows for Python to finish."""

def bleu_counts(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    max_order: int,
    per_segment: bool,
    validate: bool,
    /,
) -> tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, Problem]:
    """BLEU statistics of many segments: (buffer or None, totals, None) or (None, None,
    problem).  hypotheses: a list of token lists; references: per segment a list of one or
    more token lists.  The buffer holds per segment 2+2*max_order native int64: c, r,
    matches, totals; totals are their sums.  problem = (code, path, position) for the first
    fault in reading order (all hypotheses, then all references): code is not_array,
    no_references, not_str, str_subclass, too_long, and with validate also empty or
    surrogate (position = index in the token)."""

def bleu_counts_text(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    max_order: int,
    per_segment: bool,
    tokenizer: str = "none",
    /,
) -> tuple[bytes | None, tuple[int, ...], None] | tuple[None, None, Problem]:
    """bleu_counts of texts: hypotheses a list of str, references per segment a list of one or
    more str.  tokenizer 'none': the tokens of a text are exactly text.split()'s; '13a':
    exactly tokenize_13a(text.rstrip()).split()'s (what sacreBLEU's BLEU counts with 13a;
    lowercase in Python first).  Returns (buffer or None, totals, None), or (None, None,
    problem) with code not_array, no_references, not_str, str_subclass or too_long."""

def tokenize_13a(text: str, /) -> str:
    """sacreBLEU 2.6.0's Tokenizer13a of text, exactly: <skipped> removed, '-' + newline
    removed, newlines as spaces, &quot; &amp; &lt; &gt; unescaped (when '&' occurs), then
    the four regular expressions and ' '.join(line.split()).  No rstrip (sacreBLEU's BLEU
    rstrips before the tokenizer; bleu_counts_text with '13a' does both)."""

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
) -> tuple[bytes | None, tuple[int, ...]]:
    """sacreBLEU 2.6.0's chrF/chrF++ segment statistics: (buffer or None, totals).  hypotheses:
    a list of str; references: per segment a list of one or more str (lowercase them first
    if wanted).  Per segment 3*(char_order+word_order) native int64, [n_hyp, n_ref, n_match]
    per order (character orders, then word orders), of the first reference with the
    strictly greatest CHRF._compute_f_score; totals are their sums."""

def bleu_sentence(
    hypothesis: Sequence[str], references: Sequence[Sequence[str]], max_order: int, /
) -> tuple[int, int, tuple[int, ...], tuple[int, ...]] | None:
    """BLEU statistics of one segment, (c, r, matches, totals), or None when the input is
    not lists of exact str with at least one reference (the pure path handles those)."""

def first_lone_surrogate(texts: Sequence[str], /) -> tuple[int, int] | None:
    """(index of the first text holding a code point U+D800..U+DFFF, its position), or None."""

def plain_texts(hypotheses: object, references: object, /) -> bool:
    """Whether hypotheses is a non-empty list of exact str and references a list of as many
    lists of one or more exact str each, and no text holds a lone surrogate: the input the batch
    functions' checks all pass, in one pass (False: the checks run, one by one, to find and
    report the fault)."""

def bleu_counts_lines(
    hypotheses: bytes,
    references: tuple[bytes, ...],
    count: int,
    max_order: int,
    per_segment: bool,
    tokenizer: str,
    /,
) -> tuple[bytes | None, tuple[int, ...]] | None:
    r"""bleu_counts_text of undecoded lines: hypotheses the bytes of count lines (each ended by
    \n, the last one may not be), references a tuple of one or more such bytes, one a
    reference of every segment; the lines are what split_lines(data, 0, count, True) would
    decode.  Returns (buffer or None, totals), or None when an input is not exactly count
    lines of strict UTF-8 or a text is too long for the kernel (decode the lines and take
    bleu_counts_text).  The GIL is released while the lines are checked, decoded, tokenized
    and counted."""

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
) -> tuple[bytes | None, tuple[int, ...]] | None:
    """sacrebleu_chrf_counts of undecoded lines, as bleu_counts_lines takes them: (buffer or
    None, totals), or None when an input is not exactly count lines of strict UTF-8 or a
    line is too long for the kernel (decode the lines and take sacrebleu_chrf_counts).  The
    GIL is released while the lines are checked, decoded and counted."""

def skip_lines(data: bytes, start: int, count: int, final: bool, /) -> tuple[int, int]:
    r"""The lines mtcompute.streaming.split_lines(data, start, count, final) takes, without
    checking or decoding them: (stop, found), stop the offset after the last line taken and
    found their number (only lines ended by \n, and with final also the bytes after the
    last \n).
    The GIL is released while the newlines are looked for."""

def ter_edits(
    hypotheses: Sequence[Sequence[int]], references: Sequence[Sequence[Sequence[int]]], /
) -> list[tuple[tuple[int, int], ...]]:
    """sacreBLEU 2.6.0's translation_edit_rate of word ids (metrics.ter.edits): for each
    segment i a tuple with, for each reference of references[i], the pair (edits, reference
    length) of hypotheses[i] against it.  hypotheses is a list or tuple of lists or tuples of
    int (word ids, compared for equality only); references a list or tuple, as long, of
    lists or tuples of one or more such id lists.  TypeError or ValueError naming the first
    bad argument; OverflowError for an id outside the 64-bit range.  The GIL is released
    while computing."""

def ter_statistics_text(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], lower: bool = False, /
) -> list[tuple[int, float]]:
    """sacreBLEU 2.6.0's TER segment statistics of tokenized texts: for each segment i the pair
    (edits, average reference length), the fewest ter_edits edits of hypotheses[i] over the
    references references[i] (words: str.split()'s, the same word when their code points are
    equal) and the int sum of the reference lengths over their count (a float).  hypotheses
    is a list or tuple of str; references a list or tuple, as long, of lists or tuples of one
    or more str.  With lower, each code point under U+0100 is taken as str.lower gives it
    (the words of text.lower() for a text of such code points only; wider texts must come
    lowered: see wide_texts); ValueError if this Python's str.lower does not allow it.
    TypeError or ValueError naming the first bad argument.  The GIL is released while
    splitting, interning and computing."""

def wide_texts(
    hypotheses: list[str], references: list[list[str]], /
) -> tuple[list[int], list[tuple[int, int]]]:
    """Where the texts with a code point of U+0100 or more are (those ter_statistics_text's
    lower does not lower): (indices i of hypotheses, pairs (i, j) of references[i][j]).
    hypotheses is a list of str, references a list of lists of str (as plain_texts
    accepts); TypeError otherwise."""

def js_dumps(value: object, /) -> bytes | None:
    """mtcompute.core.jsjson.dumps(value) as UTF-8 bytes, for a value of exact JSON types (dict
    with str keys, list, tuple, str without surrogates, int within 2^53, float, bool, None);
    None for any other value (the pure writer decides it)."""

def chrf_ratios(
    counts: bytes, char_order: int, beta: int, /
) -> tuple[tuple[int, int] | None, list[tuple[int, int] | None]]:
    """mtcompute.metrics.chrf.ngrams.chrf_ratio of the counts summed over the segments of a
    chrf_counts buffer, and of each segment's: (total, [segment, ...]), each a reduced
    (numerator, denominator) pair, or None where the exact integers do not fit 128 bits (or a
    sum 64 bits): Python finishes those."""

def resample_draws(state: bytes, n: int, count: int, /) -> bytes:
    """numpy's ``default_rng(seed).choice(n, count, replace=True)`` as ``count`` native int64
    (1 <= n <= 2**32): PCG64 from ``state`` (four native uint64: the state's high and low
    words, the increment's; mtcompute.sacrebleu._paired.pcg64_bytes) and Lemire's bounded
    draws on 32-bit halves of its outputs, low half first (numpy's
    ``random_bounded_uint64_fill`` without masking)."""

def bootstrap_scores(
    state: bytes,
    samples: int,
    segments: int,
    series: list[tuple[tuple[int, int, int, int, float, int, int, int], bytes]],
    /,
) -> list[tuple[bytes, bool]] | None:
    """sacreBLEU's paired bootstrap scores: ``samples`` resamples of ``segments`` indices
    drawn as resample_draws draws them (one stream for all series), each series' statistics
    (native int64 rows) summed over each resample as float32 and scored as sacreBLEU's
    ``_compute_score_from_stats`` scores float32 sums under numpy 2.  A series' spec is
    ``(kind, order, smooth, effective_order, smooth_value, beta, eps_smoothing, width)``:
    kind 0 BLEU (order max_ngram_order; smooth 0 none, 1 floor, 2 add-k, 3 exp), kind 1 chrF
    (order char_order + word_order).  Per series: the scores as native doubles and whether
    every one is a numpy float32 (the array sacreBLEU makes is then float32).  None when a
    float32 sum could round (a negative value, or segments * max > 2**24 in a column) or a
    value passes 65535 (the rows are kept as uint16)."""

def bootstrap_interval(scores: bytes, is32: bool, /) -> tuple[float, float]:
    """sacreBLEU's ``estimate_ci`` of scores (native doubles; float32 values when ``is32``,
    then computed in float32): numpy's pairwise mean and half the distance between the sorted
    scores at n // 40 and n - n // 40 - 1."""

def bootstrap_p(base: bytes, own: bytes, is32: bool, difference: float, /) -> float:
    """The paired bootstrap p-value: ``(1 + #{|own - base| - mean > difference}) / (n + 1)``,
    in float32 when ``is32`` (the difference rounded to float32), numpy's pairwise mean."""
