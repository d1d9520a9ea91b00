"""Differential tests against sacreBLEU 2.6.0: real WMT outputs and generated inputs.

Reference: sacreBLEU 2.6.0 (``sacrebleu.metrics.BLEU`` with ``tokenize="none"`` and
``sacrebleu.metrics.CHRF`` with char_order 6, word_order 0), on every language-pair directory
of the WMT data in use (``tests.conftest.WMT``: the full data, or the in-repo sample of the first
200 lines of every file when the full data is absent; the tests fail, not skip, when a pair is
missing), and on hypothesis-generated inputs from ``tests/strategies.py``. There are 15 pair
directories (the 14 WMT21-24 pairs and newstest2015-nltk100/en-ru, whose ``.tok`` system file is
scored against the ``.tok`` reference); "the first reference" is ref A, or ref B for
generaltest2022/en-cs, which has no ref A in the data.

How the two sides line up (read from sacreBLEU 2.6.0's source):

* Tokens. ``BLEU(tokenize="none")`` applies ``line.rstrip()`` and the identity tokenizer, then
  ``extract_all_word_ngrams`` splits with ``str.split()`` (any run of Unicode whitespace, not
  single spaces). Our side uses ``line.split()`` too, so both count the same tokens.
* BLEU statistics: ``_extract_corpus_statistics`` gives per segment
  ``[c, r, m_1..m_N, l_1..l_N]``; the corpus ``BLEUScore`` carries ``sys_len``, ``ref_len``,
  ``counts`` and ``totals``. Both must equal ours exactly. sacreBLEU's ``corpus_score`` is
  ``_aggregate_and_compute(_extract_corpus_statistics(...))`` and its score step is the static
  ``BLEU.compute_bleu``; the tests call those directly on the statistics of every system (so a
  corpus is read once), and check once that the public ``corpus_score``/``sentence_bleu`` give
  the same numbers.
* Smoothing names: none = ``none``; method1 = ``floor`` (epsilon = ``smooth_value``, default
  0.1); method2 = ``add-k`` (sacreBLEU adds ``smooth_value``, default 1, to m_n and l_n for
  n > 1, before its zero-total check, exactly the contract's method2); method3 = ``exp``
  (sacreBLEU doubles its divisor at each zero-match order from n = 1 inside its loop, so the
  k-th zero-match order gets 1/2^k, as the contract). sacreBLEU works in percent and takes
  ``sum(log p_n) / N`` of percentages, so scores are compared as ``100 * bleu`` with a relative
  tolerance of 1e-12 (the float steps differ; the libm/fdlibm last bits too).
* Differences excluded from the comparison, each asserted where it shows:
  - brevity penalty at c = 0 and r = 0: sacreBLEU says 1 (``sys_len < ref_len`` is false),
    the contract says 0 (docs/decisions.md). For consistent statistics (c = 0 means every
    l_n = 0, so m_1 = 0) both scores are 0; only for contract-valid but inconsistent
    statistics (c = 0, r = 0 with l_n > 0) does sacreBLEU's score differ too.
  - sacreBLEU's "no match" early return uses ``not any(correct)``, the contract m_1 = 0: the
    same for valid statistics (m_1 = 0 implies every m_n = 0).
  - sacreBLEU breaks out of its loop at the first zero total and leaves the later precisions
    at 0, which its ``my_log`` turns into -9999999999, so the score underflows to 0.0 exactly
    where the contract returns 0 (a used order with a zero total). With effective order both
    use the leading orders with a non-zero (smoothed) total. Not a difference in any score.
  - ``exp`` smoothing: sacreBLEU counts k only inside its loop (up to the first zero total);
    the contract counts over every order. The smoothed counts of orders after a zero total
    differ, but those orders are never used by either, so the scores agree.
* chrF: per segment sacreBLEU reports ``[h_n, r_n, m_n]`` per order but sets h_n to 0 when
  the segment's reference has no n-gram of order n (docs/decisions.md, chrf-compute). A single
  segment's score cannot change (such an order is not effective either way), but corpus sums
  can. The tests therefore (1) check our per-segment statistics with that zeroing applied
  equal sacreBLEU's exactly, (2) compare sacreBLEU's corpus score with our exact score of the
  zeroed sums (1e-9 on the 0..100 scale), (3) check our unzeroed corpus score is identical
  wherever no segment is affected, and (4) assert the docs/decisions.md example that shows the
  difference. sacreBLEU removes whitespace with ``''.join(line.split())`` and lowercases with
  ``str.lower``, which is what the contract specifies.

Runtime budget (about 3 minutes on 2 cores): BLEU statistics and corpus BLEU for every system
file of every pair against the first reference, and for the first and last system against all
references; sentence BLEU for every segment of the first system (with effective order, as
sentence BLEU is used; generated statistics cover it off); chrF on every segment of the
first system (case-sensitive) and on the first 500 segments of the last system (lowercased).
The per-system statistics are computed once and cached for the module.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, reduce
from operator import add
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU, CHRF

import mtcompute
from mtcompute.metrics.bleu.statistics import BleuStatistics, sentence_statistics
from mtcompute.metrics.chrf.ngrams import ChrfStatistics, chrf_fraction, segment_statistics
from tests import strategies as sts
from tests.conftest import WMT
from tests.oracle import assert_sacrebleu, sacrebleu_lines

PAIRS = (
    "florestest2021/hi-bn",
    "generaltest2022/cs-uk",
    "generaltest2022/de-en",
    "generaltest2022/en-cs",
    "generaltest2022/en-de",
    "generaltest2022/en-ja",
    "generaltest2022/en-ru",
    "generaltest2022/en-zh",
    "generaltest2022/zh-en",
    "generaltest2023/en-he",
    "generaltest2023/he-en",
    "newstest2015-nltk100/en-ru",
    "newstest2021/en-de",
    "wmttest2024/en-hi",
    "wmttest2024/ja-zh",
)
SMOOTHINGS = (  # (ours, epsilon, sacreBLEU's name, sacreBLEU's smooth_value)
    ("none", None, "none", None),
    ("method1", None, "floor", None),
    ("method1", 0.01, "floor", 0.01),
    ("method2", None, "add-k", None),
    ("method3", None, "exp", None),
)
REL = 1e-12  # BLEU on the 0..100 scale: relative tolerance against sacreBLEU's float order
ABS = 1e-300  # below this both sides are in the subnormal range of exp
CHRF_TOL = 1e-9  # chrF on the 0..100 scale: exact fraction against sacreBLEU's floats
GENERATED = settings(deadline=None, max_examples=150)


# --- the data -------------------------------------------------------------------------------


def _wmt() -> Path:
    if not WMT.is_dir():
        pytest.fail(f"The WMT data folder {WMT} is missing: these differential tests read it.")
    return WMT


@dataclass(frozen=True)
class Corpus:
    """One system file of a pair with the references in the same (tokenized or not) form."""

    pair: str
    system: str
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]  # one stream per reference id, in id order


def _file_id(path: Path, prefix: str) -> str:
    return path.name[len(prefix) : -len(".txt")]


@cache
def corpora(pair: str) -> tuple[Corpus, ...]:
    """Every system file of the pair, each with its references (the ``.tok`` files of
    newstest2015-nltk100 pair with the ``.tok`` reference)."""
    folder = _wmt() / pair
    if not folder.is_dir():
        pytest.fail(f"Pair directory {folder} is missing from the WMT data.")
    refs = {_file_id(p, "ref."): sacrebleu_lines(p) for p in folder.glob("ref.*.txt")}
    out = []
    for path in sorted(folder.glob("sys.*.txt")):
        system = _file_id(path, "sys.")
        tokenized = system.endswith(".tok")
        streams = tuple(refs[k] for k in sorted(refs) if k.endswith(".tok") == tokenized)
        out.append(Corpus(pair, system, sacrebleu_lines(path), streams))
    return tuple(out)


def test_every_pair_directory_is_covered() -> None:
    """The parametrized pairs are the data's pair directories, each aligned line by line."""
    found = sorted(f"{p.parent.parent.name}/{p.parent.name}" for p in _wmt().glob("*/*/ref.*.txt"))
    lengths = {
        pair: sorted({len(s) for c in corpora(pair) for s in (c.hypotheses, *c.references)})
        for pair in PAIRS
    }
    assert (sorted(PAIRS), {p: [len(corpora(p)[0].hypotheses)] for p in PAIRS}) == (
        sorted(set(found)),
        lengths,
    )


# --- BLEU statistics ------------------------------------------------------------------------


def test_sacrebleu_none_tokenizer_splits_on_any_whitespace() -> None:
    """sacreBLEU's tokenize none counts str.split() tokens (tabs, NBSP, U+3000 split too)."""
    hyp, ref = "a\u00a0b  c\td\u3000e ", "a b c d e"
    theirs = BLEU(tokenize="none", force=True)._extract_corpus_statistics([hyp], [[ref]])
    assert [[5, 5, 5, 4, 3, 2, 5, 4, 3, 2]] == [list(s) for s in theirs]


def _flat(stats: BleuStatistics) -> list[int]:
    return [stats.candidate_length, stats.reference_length, *stats.matches, *stats.totals]


def _reference_sets(corpus: Corpus) -> list[tuple[str, tuple[tuple[str, ...], ...]]]:
    """The first reference for every system; all references (where the pair has several)
    for the first and the last system by name (the runtime budget)."""
    sets = [("first reference", corpus.references[:1])]
    systems = corpora(corpus.pair)
    if len(corpus.references) > 1 and corpus in (systems[0], systems[-1]):
        sets.append(("all references", corpus.references))
    return sets


@cache
def our_bleu_statistics(
    hypotheses: tuple[str, ...], references: tuple[tuple[str, ...], ...], max_order: int = 4
) -> tuple[BleuStatistics, ...]:
    """Our statistics of every segment (whitespace-split tokens)."""
    return tuple(
        sentence_statistics(h.split(), [r.split() for r in refs], max_order)
        for h, refs in zip(hypotheses, zip(*references, strict=True), strict=True)
    )


@cache
def _sacrebleu_bleu(references: tuple[tuple[str, ...], ...]) -> BLEU:
    # sacreBLEU's own reference cache: the references are read once per pair.
    return BLEU(tokenize="none", force=True, references=[list(r) for r in references])


@cache
def sacrebleu_bleu_statistics(
    hypotheses: tuple[str, ...], references: tuple[tuple[str, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """sacreBLEU's statistics of every segment: [c, r, m_1..m_4, l_1..l_4]."""
    stats = _sacrebleu_bleu(references)._extract_corpus_statistics(list(hypotheses), None)
    return tuple(tuple(int(x) for x in s) for s in stats)


@pytest.mark.parametrize("pair", PAIRS)
def test_bleu_statistics_equal_sacrebleu(pair: str) -> None:
    """Per-segment and corpus c, r, matches and totals equal sacreBLEU's for every system."""
    questions = [
        (f"{corpus.system} / {label}", corpus.hypotheses, refs)
        for corpus in corpora(pair)
        for label, refs in _reference_sets(corpus)
    ]
    actual = {}
    for key, hypotheses, refs in questions:
        ours = our_bleu_statistics(hypotheses, refs)
        total = reduce(add, ours)
        actual[key] = (
            [_flat(s) for s in ours],
            (
                total.candidate_length,
                total.reference_length,
                list(total.matches),
                list(total.totals),
            ),
        )

    def sacrebleus() -> dict[str, Any]:
        expected = {}
        for key, hypotheses, refs in questions:
            theirs = sacrebleu_bleu_statistics(hypotheses, refs)
            score = BLEU(tokenize="none", force=True)._aggregate_and_compute(
                [list(s) for s in theirs]
            )
            expected[key] = (
                [list(s) for s in theirs],
                (score.sys_len, score.ref_len, list(score.counts), list(score.totals)),
            )
        return expected

    assert_sacrebleu(
        actual,
        "BLEU(tokenize=none) statistics",
        [key for key, _, _ in questions],
        [(hypotheses, refs) for _, hypotheses, refs in questions],
        sacrebleus,
    )


def _sacrebleu_score(
    stats: Sequence[int], method: str, value: float | None, effective: bool, max_order: int = 4
) -> Any:
    return BLEU.compute_bleu(
        list(stats[2 : 2 + max_order]),
        list(stats[2 + max_order :]),
        int(stats[0]),
        int(stats[1]),
        smooth_method=method,
        smooth_value=value,
        effective_order=effective,
        max_ngram_order=max_order,
    )


def _our_bleu(
    stats: Sequence[int], smoothing: Any, epsilon: float | None, effective: bool, max_order: int = 4
) -> mtcompute.BleuSmoothingResult:
    return mtcompute.bleu_from_statistics(
        list(stats[2 : 2 + max_order]),
        list(stats[2 + max_order :]),
        int(stats[0]),
        int(stats[1]),
        smoothing,
        epsilon=epsilon,
        effective_order=effective,
    )


def _close(ours: float, theirs: float, rel: float = REL) -> bool:
    return math.isclose(ours, theirs, rel_tol=rel, abs_tol=ABS)


def _bleu_disagreements(
    stats: Sequence[int], max_order: int = 4, effective_orders: tuple[bool, ...] = (False, True)
) -> list[str]:
    """Every smoothing/effective-order case where our BLEU (x100) or brevity penalty differs
    from sacreBLEU's beyond float tolerance, outside the documented c = 0, r = 0 case."""
    c, r = stats[0], stats[1]
    out = []
    for ours_name, epsilon, method, value in SMOOTHINGS:
        for effective in effective_orders:
            ours = _our_bleu(stats, ours_name, epsilon, effective, max_order)
            theirs = _sacrebleu_score(stats, method, value, effective, max_order)
            if c == 0 and r == 0:
                # Documented: sacreBLEU's brevity penalty is 1 here, the contract's is 0.
                ok = (ours.brevity_penalty, theirs.bp) == (0.0, 1.0) and ours.bleu == 0
                ok = ok and (theirs.score == 0 or stats[2] > 0)
            else:
                ok = _close(100 * ours.bleu, theirs.score) and _close(
                    ours.brevity_penalty, theirs.bp, 1e-15
                )
            if not ok:
                out.append(
                    f"{list(stats)} {ours_name}/{method} eff={effective}: "
                    f"ours {100 * ours.bleu!r} bp {ours.brevity_penalty!r}, "
                    f"sacreBLEU {theirs.score!r} bp {theirs.bp!r}"
                )
    return out


@pytest.mark.parametrize("pair", PAIRS)
def test_corpus_bleu_equals_sacrebleu(pair: str) -> None:
    """Corpus BLEU, every smoothing, with and without effective order, equals sacreBLEU's."""
    problems = []
    for corpus in corpora(pair):
        for label, refs in _reference_sets(corpus):
            total = _flat(reduce(add, our_bleu_statistics(corpus.hypotheses, refs)))
            problems += [f"{corpus.system} / {label}: {p}" for p in _bleu_disagreements(total)]
    assert [] == problems


@pytest.mark.parametrize("pair", PAIRS)
def test_corpus_bleu_equals_sacrebleu_corpus_score(pair: str) -> None:
    """sacreBLEU's public corpus_score (exp, all references) equals ours on the first system."""
    corpus = corpora(pair)[0]
    theirs = _sacrebleu_bleu(corpus.references).corpus_score(list(corpus.hypotheses), None)
    total = reduce(add, our_bleu_statistics(corpus.hypotheses, corpus.references))
    ours = mtcompute.bleu_from_statistics(
        total.matches, total.totals, total.candidate_length, total.reference_length, "method3"
    )
    assert _close(100 * ours.bleu, theirs.score), (100 * ours.bleu, theirs.score)


@pytest.mark.parametrize("pair", PAIRS)
def test_sentence_bleu_equals_sacrebleu(pair: str) -> None:
    """Sentence BLEU of every segment, every smoothing, effective order, equals sacreBLEU's."""
    corpus = corpora(pair)[0]
    theirs = sacrebleu_bleu_statistics(corpus.hypotheses, corpus.references[:1])
    problems = [p for stats in sorted(set(theirs)) for p in _bleu_disagreements(stats, 4, (True,))]
    assert [] == problems


@pytest.mark.parametrize("pair", PAIRS)
def test_sentence_bleu_equals_sacrebleu_sentence_bleu(pair: str) -> None:
    """sacrebleu.sentence_bleu (exp, effective order) equals ours on the first 25 segments."""
    corpus = corpora(pair)[0]
    ref = corpus.references[0]
    segments = list(
        zip(corpus.hypotheses, ref, our_bleu_statistics(corpus.hypotheses, (ref,)), strict=True)
    )
    problems = []
    for i, (hyp, reference, stats) in enumerate(segments[:25]):
        theirs = sacrebleu.sentence_bleu(
            hyp, [reference], tokenize="none", use_effective_order=True
        )
        ours = mtcompute.bleu_from_statistics(
            stats.matches,
            stats.totals,
            stats.candidate_length,
            stats.reference_length,
            "method3",
            effective_order=True,
        )
        if not _close(100 * ours.bleu, theirs.score):
            problems.append(f"segment {i}: ours {100 * ours.bleu!r}, sacreBLEU {theirs.score!r}")
    assert [] == problems


# --- chrF -----------------------------------------------------------------------------------


def sacrebleu_view(stats: ChrfStatistics) -> ChrfStatistics:
    """Our segment statistics as sacreBLEU reports them: the hypothesis count of an order set
    to 0 when the segment's reference has no n-gram of that order (docs/decisions.md)."""
    return ChrfStatistics(
        tuple(h if r > 0 else 0 for h, r in zip(stats.hypothesis, stats.reference, strict=True)),
        stats.reference,
        stats.matches,
    )


def _chrf_flat(stats: ChrfStatistics) -> list[int]:
    return [
        x
        for triple in zip(stats.hypothesis, stats.reference, stats.matches, strict=True)
        for x in triple
    ]


@cache
def our_chrf_statistics(
    hypotheses: tuple[str, ...], reference: tuple[str, ...], lowercase: bool
) -> tuple[ChrfStatistics, ...]:
    """Our chrF statistics of every segment."""
    return tuple(
        segment_statistics(h, r, 6, lowercase) for h, r in zip(hypotheses, reference, strict=True)
    )


LOWERCASE_SEGMENTS = 500


@cache
def _chrf_system(pair: str, lowercase: bool) -> Corpus:
    """Case-sensitive: the first system by name, every segment. Lowercased: the last system,
    its first 500 segments (the runtime budget). Two systems per pair are covered (en-hi:
    Aya23 with its empty line, and ONLINE-empty)."""
    systems = corpora(pair)
    if not lowercase:
        return systems[0]
    last = systems[-1]
    return Corpus(
        pair,
        last.system,
        last.hypotheses[:LOWERCASE_SEGMENTS],
        tuple(r[:LOWERCASE_SEGMENTS] for r in last.references),
    )


@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lowercase"])
@pytest.mark.parametrize("pair", PAIRS)
def test_chrf_equals_sacrebleu(pair: str, lowercase: bool) -> None:
    """chrF2/chrF3 statistics, corpus and segment scores equal sacreBLEU's (with its zeroing)."""
    corpus = _chrf_system(pair, lowercase)
    ref = corpus.references[0]
    ours = our_chrf_statistics(corpus.hypotheses, ref, lowercase)
    flat = [_chrf_flat(sacrebleu_view(s)) for s in ours]
    assert_sacrebleu(
        flat,
        "CHRF._extract_corpus_statistics",
        {"lowercase": lowercase, "references": 1},
        (corpus.hypotheses, ref),
        lambda: [
            list(s)
            for s in CHRF(lowercase=lowercase)._extract_corpus_statistics(
                list(corpus.hypotheses), [list(ref)]
            )
        ],
    )
    theirs = flat  # equal to sacreBLEU's statistics, as just asserted

    zeroed = reduce(add, map(sacrebleu_view, ours))
    literal = reduce(add, ours)  # the contract's corpus sums
    affected = sum(s != sacrebleu_view(s) for s in ours)
    problems = []
    for beta in (2, 3):
        metric = CHRF(beta=beta, lowercase=lowercase)
        corpus_score = metric._aggregate_and_compute(theirs).score
        ours_corpus = float(chrf_fraction(zeroed, beta))
        if abs(ours_corpus - corpus_score) > CHRF_TOL:
            problems.append(f"beta {beta} corpus: ours {ours_corpus}, sacreBLEU {corpus_score}")
        # The contract's own corpus score agrees with sacreBLEU exactly when no segment is
        # affected by the zeroing, and differs (visibly) when one is.
        contract_score = float(chrf_fraction(literal, beta))
        if (abs(contract_score - corpus_score) <= CHRF_TOL) != (affected == 0):
            problems.append(
                f"beta {beta}: {affected} affected segments, contract {contract_score}, "
                f"sacreBLEU {corpus_score}"
            )
        for i, (seg, seg_theirs) in enumerate(zip(ours, theirs, strict=True)):
            score = metric._compute_score_from_stats(seg_theirs).score
            ours_segment = float(chrf_fraction(seg, beta))
            if abs(ours_segment - score) > CHRF_TOL:
                problems.append(f"beta {beta} segment {i}: ours {ours_segment}, sacreBLEU {score}")
    assert [] == problems


def _chunk(hypotheses: Sequence[str], references: Sequence[str]) -> int:
    """How many leading segments fit in one chrf-compute call (256 segments, 65536 bytes)."""
    size = 0
    for i, (h, r) in enumerate(zip(hypotheses, references, strict=True)):
        size += len(h.encode()) + len(r.encode())
        if size > 65536 or i == 256:
            return i
    return len(hypotheses)


@pytest.mark.parametrize("pair", PAIRS)
def test_chrf_tool_on_real_segments_equals_sacrebleu(pair: str) -> None:
    """mtcompute.chrf on the largest chunk within the limits agrees with sacreBLEU."""
    corpus = corpora(pair)[0]
    n = _chunk(corpus.hypotheses, corpus.references[0])
    hyps, refs = list(corpus.hypotheses[:n]), list(corpus.references[0][:n])
    result = mtcompute.chrf(hyps, refs)
    metric = CHRF()
    theirs = metric._extract_corpus_statistics(hyps, [refs])
    zeroed = chrf_fraction(
        reduce(
            add, (sacrebleu_view(segment_statistics(h, r)) for h, r in zip(hyps, refs, strict=True))
        ),
        2,
    )
    corpus_score = metric.corpus_score(hyps, [refs]).score
    problems = [] if n > 0 else ["no segment fits"]
    if abs(float(zeroed) - corpus_score) > CHRF_TOL:
        problems.append(f"corpus: ours (zeroed) {float(zeroed)}, sacreBLEU {corpus_score}")
    for i, (ours, stats) in enumerate(zip(result.segment_fractions, theirs, strict=True)):
        score = metric._compute_score_from_stats(stats).score
        if abs(float(ours) - score) > CHRF_TOL:
            problems.append(f"segment {i}: ours {float(ours)}, sacreBLEU {score}")
    assert [] == problems


def test_contract_notes_example_differs_from_sacrebleu_as_documented() -> None:
    """The docs/decisions.md example: 97.084367 here, 98.714953 in sacreBLEU, = ours zeroed."""
    hyps, refs = ["abcdefgh", "xyzw"], ["abcdefgh", "xy"]
    theirs = CHRF().corpus_score(hyps, [refs]).score
    zeroed = reduce(
        add, (sacrebleu_view(segment_statistics(h, r)) for h, r in zip(hyps, refs, strict=True))
    )
    assert ("97.084367", "98.714953", True) == (
        mtcompute.chrf(hyps, refs).score,
        f"{theirs:.6f}",
        abs(float(chrf_fraction(zeroed, 2)) - theirs) <= CHRF_TOL,
    )


# --- generated inputs -----------------------------------------------------------------------


@GENERATED
@given(sts.bleu_cases())
def test_generated_bleu_statistics_equal_sacrebleu(case: sts.BleuCase) -> None:
    """Statistics of generated token lists equal sacreBLEU's for max orders 1 to 8."""
    hypothesis, references, max_order = case
    theirs = BLEU(
        tokenize="none", force=True, max_ngram_order=max_order
    )._extract_corpus_statistics([" ".join(hypothesis)], [[" ".join(r)] for r in references])
    assert [list(s) for s in theirs] == [
        _flat(sentence_statistics(hypothesis, references, max_order))
    ]


@GENERATED
@given(sts.bleu_statistics())
def test_generated_bleu_scores_equal_sacrebleu(stats: dict[str, Any]) -> None:
    """BLEU from generated statistics, every smoothing and effective order, equals sacreBLEU's."""
    flat = [
        stats["candidate_length"],
        stats["reference_length"],
        *stats["matches"],
        *stats["totals"],
    ]
    assert [] == _bleu_disagreements(flat, len(stats["matches"]))


def test_brevity_penalty_difference_at_empty_candidate_and_reference() -> None:
    """At c = 0, r = 0 the brevity penalty is 0 here, 1 in sacreBLEU; both BLEU are 0."""
    ours = mtcompute.bleu_from_statistics([0, 0, 0, 0], [0, 0, 0, 0], 0, 0)
    theirs = BLEU.compute_bleu([0, 0, 0, 0], [0, 0, 0, 0], 0, 0, smooth_method="none")
    assert ((0.0, 0.0), (1.0, 0.0)) == (
        (ours.brevity_penalty, ours.bleu),
        (theirs.bp, theirs.score),
    )


@GENERATED
@given(sts.chrf_segments(), st.integers(1, 16), st.booleans())
def test_generated_sentence_chrf_equals_sacrebleu(
    segment: tuple[str, str], beta: int, lowercase: bool
) -> None:
    """chrF of one generated segment equals sacreBLEU's sentence_score (1e-9)."""
    hypothesis, reference = segment
    theirs = CHRF(beta=beta, lowercase=lowercase).sentence_score(hypothesis, [reference]).score
    ours = mtcompute.chrf([hypothesis], [reference], beta, lowercase).fraction
    assert abs(float(ours) - theirs) <= CHRF_TOL, (float(ours), theirs)


@GENERATED
@given(sts.chrf_segments(), st.integers(1, 16))
def test_generated_sentence_chrf_equals_sacrebleu_sentence_chrf(
    segment: tuple[str, str], beta: int
) -> None:
    """chrF of one generated segment equals the public sacrebleu.sentence_chrf (1e-9)."""
    hypothesis, reference = segment
    theirs = sacrebleu.sentence_chrf(hypothesis, [reference], beta=beta).score
    ours = mtcompute.chrf([hypothesis], [reference], beta).fraction
    assert abs(float(ours) - theirs) <= CHRF_TOL, (float(ours), theirs)


@GENERATED
@given(sts.chrf_inputs())
def test_generated_corpus_chrf_equals_sacrebleu(data: dict[str, Any]) -> None:
    """Corpus chrF of generated segments equals sacreBLEU's, zeroing applied where it matters."""
    hyps, refs = data["hypotheses"], data["references"]
    beta, lowercase = data.get("beta", 2), data.get("lowercase", False)
    theirs = CHRF(beta=beta, lowercase=lowercase).corpus_score(hyps, [refs]).score
    ours = [segment_statistics(h, r, 6, lowercase) for h, r in zip(hyps, refs, strict=True)]
    zeroed = chrf_fraction(reduce(add, map(sacrebleu_view, ours)), beta)
    contract = mtcompute.chrf(hyps, refs, beta, lowercase).fraction  # the tool's own answer
    unaffected = all(s == sacrebleu_view(s) for s in ours)
    expected = (True, True)
    assert expected == (
        abs(float(zeroed) - theirs) <= CHRF_TOL,
        abs(float(contract) - theirs) <= CHRF_TOL or not unaffected,
    ), (float(zeroed), float(contract), theirs)
