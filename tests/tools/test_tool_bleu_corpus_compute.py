"""bleu-corpus-compute@1.0.0: one test per semantics line, one per error code per field, the
composition (bleu-ngrams-count then bleu-smoothing-compute), sacreBLEU 2.6.0 on every real WMT
pair, properties.

The WMT corpora and sacreBLEU set-up come from :mod:`tests.harness`, shared with the other BLEU
tool tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

import mtcompute
from mtcompute.core.jsmath import js_exp, js_log
from mtcompute.tools.bleu_corpus_compute import bleu_corpus
from tests.harness import (
    ToolHarness,
    WmtCorpus,
    close,
    result_of,
    sacre_bleu,
    sacre_score,
    wmt_corpora,
    wmt_pairs,
)
from tests.strategies import bleu_segments

TOOL = ("bleu-corpus-compute", "1.0.0")
SEED_HYP = ["am", "I", "am", "a", "character", "sequence"]
SEED_REF = ["I", "am", "a", "symbol", "string", "sequence", "a", "a"]
CAT_HYP = ["the", "cat", "sat", "on", "the", "mat"]
CAT_REFS = [
    ["the", "cat", "is", "on", "the", "mat"],
    ["there", "is", "a", "cat", "on", "the", "mat"],
]
BASE: dict[str, Any] = {"hypotheses": [SEED_HYP, CAT_HYP], "references": [[SEED_REF], CAT_REFS]}
SCORE_KEYS = ("bleu", "brevity_penalty", "orders_used", "smoothed_matches", "smoothed_totals")
STAT_KEYS = ("candidate_length", "reference_length", "matches", "totals")
SMOOTHINGS = ("none", "method1", "method2", "method3")
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
MAX_TOTAL_TOKENS = 500_000
MAX_TOTAL_TOKEN_BYTES = 4_194_304
MAX_SEGMENTS = 4096


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error
assert_codes = HARNESS.assert_codes


def options_of(data: dict[str, Any]) -> dict[str, Any]:
    """The scoring options present in ``data`` (smoothing, epsilon, effective_order, decimals)."""
    keys = ("smoothing", "epsilon", "effective_order", "decimals")
    return {k: data[k] for k in keys if k in data}


def smoothed(stats: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """bleu-smoothing-compute on the statistics ``stats`` with ``options``."""
    data = {k: stats[k] for k in STAT_KEYS}
    return result_of("bleu-smoothing-compute", {**data, "smoothing": "none", **options})


# --- real WMT data ----------------------------------------------------------------------------


def chunks(corpus: WmtCorpus) -> Iterator[WmtCorpus]:
    """Consecutive pieces within the tool's limits: at most 4096 segments, 500,000 tokens and
    4,194,304 token bytes (every WMT system fits in one piece; the split is a safeguard)."""
    start, tokens, size = 0, 0, 0
    for i, (h, refs) in enumerate(zip(corpus.hypotheses, corpus.references, strict=True)):
        seg_tokens = len(h) + sum(map(len, refs))
        seg_bytes = sum(len(t.encode()) for t in [*h, *(t for r in refs for t in r)])
        if (
            i - start == MAX_SEGMENTS
            or tokens + seg_tokens > MAX_TOTAL_TOKENS
            or size + seg_bytes > MAX_TOTAL_TOKEN_BYTES
        ):
            yield WmtCorpus(
                f"{corpus.name}[{start}:{i}]",
                corpus.hypotheses[start:i],
                corpus.references[start:i],
            )
            start, tokens, size = i, 0, 0
        tokens += seg_tokens
        size += seg_bytes
    yield WmtCorpus(
        f"{corpus.name}[{start}:]", corpus.hypotheses[start:], corpus.references[start:]
    )


def sacre_rescore(plain: Any, smoothing: str, **options: Any) -> Any:
    """sacreBLEU's score for other options from the statistics of a smoothing-none
    corpus_score: its own ``BLEU.compute_bleu``, the step corpus_score ends with."""
    bleu = sacre_bleu(smoothing, **options)
    return BLEU.compute_bleu(
        list(plain.counts),
        list(plain.totals),
        plain.sys_len,
        plain.ref_len,
        smooth_method=bleu.smooth_method,
        smooth_value=bleu.smooth_value,
        effective_order=bleu.effective_order,
        max_ngram_order=bleu.max_ngram_order,
    )


def sacre_mismatches(name: str, score: Any, result: dict[str, Any], smoothing: str) -> list[str]:
    """How a bleu-corpus-compute result differs from a sacreBLEU score of the same corpus."""
    # With add-k (method2) sacreBLEU reports the smoothed counts as its counts.
    counts_key, totals_key = (
        ("smoothed_matches", "smoothed_totals")
        if smoothing == "method2" and result["matches"][0] > 0
        else ("matches", "totals")
    )
    expected = (score.sys_len, score.ref_len, list(score.counts), list(score.totals))
    actual = (
        result["candidate_length"],
        result["reference_length"],
        result[counts_key],
        result[totals_key],
    )
    bad = []
    if expected != actual:
        bad.append(f"{name} {smoothing}: statistics {expected} != {actual}")
    if not close(score.score / 100, result["bleu"]) or not close(
        score.bp, result["brevity_penalty"]
    ):
        bad.append(
            f"{name} {smoothing}: bleu {score.score / 100} vs {result['bleu']}, "
            f"bp {score.bp} vs {result['brevity_penalty']}"
        )
    return bad


def corpus_input(corpus: WmtCorpus, **options: Any) -> dict[str, Any]:
    """The bleu-corpus-compute input for a corpus."""
    return {"hypotheses": corpus.hypotheses, "references": corpus.references, **options}


# --- hypothesis strategies -------------------------------------------------------------------


@st.composite
def scoring_options(draw: st.DrawFn) -> dict[str, Any]:
    """Valid scoring options: smoothing (maybe omitted), epsilon only with method1,
    effective_order, decimals, max_order."""
    data: dict[str, Any] = {}
    smoothing = draw(st.sampled_from([*SMOOTHINGS, None]))
    if smoothing is not None:
        data["smoothing"] = smoothing
    if smoothing == "method1" and draw(st.booleans()):
        data["epsilon"] = draw(st.sampled_from([0, 1, 0.1, 0.5]) | st.floats(0, 1))
    if draw(st.booleans()):
        data["effective_order"] = draw(st.booleans())
    if draw(st.booleans()):
        data["decimals"] = draw(st.integers(0, 15))
    if draw(st.booleans()):
        data["max_order"] = draw(st.integers(1, 8))
    return data


@st.composite
def corpus_inputs(draw: st.DrawFn, max_segments: int = 6) -> dict[str, Any]:
    """A valid bleu-corpus-compute input."""
    segments = draw(st.lists(bleu_segments(max_references=3), min_size=1, max_size=max_segments))
    return {
        "hypotheses": [h for h, _ in segments],
        "references": [refs for _, refs in segments],
        **draw(scoring_options()),
    }


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_item_i_of_references_belongs_to_segment_i() -> None:
    """references[i] are segment i's references; counts must agree; max_order defaults to 4."""
    swapped = run(references=[CAT_REFS, [SEED_REF]])
    assert (
        (
            ([9, 5, 2, 0], 14, 4),
            ([1, 0, 0, 0], 14, 4),  # only "a" of the seed hypothesis is in a cat reference
            ("invalid_input", "/references"),
        )
        == (
            (run()["matches"], run()["reference_length"], len(run()["totals"])),
            (swapped["matches"], swapped["reference_length"], len(swapped["totals"])),
            error(input_with(references=[[SEED_REF]]))[:2],
        )
    )


@HARNESS.semantics_line(1)
def test_statistics_are_the_exact_sums_of_the_segments() -> None:
    """matches, totals and both lengths are the sums of bleu-sentence-components' per segment."""
    components = [
        result_of("bleu-sentence-components", {"hypothesis": h, "references": refs})
        for h, refs in zip(BASE["hypotheses"], BASE["references"], strict=True)
    ]
    expected = (
        sum(c["candidate_length"] for c in components),
        sum(c["reference_length"] for c in components),
        [sum(c["matches"][n] for c in components) for n in range(4)],
        [sum(c["totals"][n] for c in components) for n in range(4)],
    )
    result = run()
    assert expected == tuple(result[k] for k in STAT_KEYS)
    # Exact integers: a long corpus sums far past what a float-per-segment sum would blur.
    big = run(hypotheses=[["a"] * 4000] * 100, references=[[["a"] * 900]] * 100, max_order=1)
    assert (400_000, 90_000, [90_000], [400_000]) == tuple(big[k] for k in STAT_KEYS)


@PROPERTY
@given(corpus_inputs())
@HARNESS.semantics_line(2)
def test_equals_ngrams_count_then_smoothing_compute(data: dict[str, Any]) -> None:
    """The result is bleu-ngrams-count's sums then bleu-smoothing-compute, field for field."""
    assert composed(data) == mtcompute.dumps(result_of(TOOL[0], data))


def composed(data: dict[str, Any]) -> str:
    """bleu-ngrams-count then bleu-smoothing-compute on its sums, as this tool's result text."""
    counts_input = {k: data[k] for k in ("hypotheses", "references", "max_order") if k in data}
    counts = result_of("bleu-ngrams-count", counts_input)
    score = smoothed(counts, options_of(data))
    merged = {
        **{k: score[k] for k in SCORE_KEYS[:3]},
        "segment_count": counts["segment_count"],
        **{k: counts[k] for k in STAT_KEYS},
        **{k: score[k] for k in SCORE_KEYS[3:]},
    }
    return mtcompute.dumps(merged)


def test_equals_the_composition_on_real_wmt_segments() -> None:
    """The composition holds on real WMT segments of every pair, each smoothing in turn."""
    expected, actual = [], []
    for k, pair in enumerate(wmt_pairs()):
        corpus = wmt_corpora(pair)[0]
        data = {
            "hypotheses": corpus.hypotheses[:300],
            "references": corpus.references[:300],
            "smoothing": SMOOTHINGS[k % 4],
            "effective_order": k % 3 == 0,
            "max_order": 1 + k % 8,
        }
        expected.append(composed(data))
        actual.append(mtcompute.dumps(result_of(TOOL[0], data)))
    assert expected == actual


@HARNESS.semantics_line(3)
def test_smoothing_applies_to_the_sums() -> None:
    """none (the default), method1 (epsilon, 0.1 by default), method2 and method3 on the sums."""
    expected = {
        None: [9, 5, 2, 0],
        "none": [9, 5, 2, 0],
        "method1": [9, 5, 2, 0.1],
        "method2": [9, 6, 3, 1],
        "method3": [9, 5, 2, 0.5],
    }
    actual = {s: run(smoothing=s if s else ...)["smoothed_matches"] for s in expected}
    assert expected == actual
    assert ([9, 5, 2, 0.25], [12, 11, 9, 7]) == (
        run(smoothing="method1", epsilon=0.25)["smoothed_matches"],
        run(smoothing="method2")["smoothed_totals"],
    )


@HARNESS.semantics_line(4)
def test_brevity_penalty_of_the_summed_lengths() -> None:
    """BP = 0 when c = 0, 1 when c > r, else exp(1 - r/c), on the corpus sums."""
    cases = [
        ([[], []], [[["a"]], [["b"]]]),  # c = 0
        ([["a", "b"], ["c"]], [[["a"]], [["c"]]]),  # c = 3 > r = 2
        ([["a"], ["b"]], [[[]], [[]]]),  # r = 0 < c
        (BASE["hypotheses"], BASE["references"]),  # c = 12 < r = 14
    ]
    expected = [0, 1, 1, js_exp(1 - 14 / 12)]
    actual = [run(hypotheses=h, references=r)["brevity_penalty"] for h, r in cases]
    assert expected == actual


@HARNESS.semantics_line(5)
def test_orders_used_and_effective_order() -> None:
    """orders_used = max_order, or the leading orders whose smoothed total is > 0."""
    short = {"hypotheses": [["a", "b"], ["c"]], "references": [[["a", "b"]], [["c"]]]}
    assert [4, 2, 4, 1] == HARNESS.orders_used(short, max_order=1)


@HARNESS.semantics_line(6)
def test_bleu_zero_rules() -> None:
    """bleu = 0 with c = 0, m_1 = 0, no order used, or a used order with a zero count."""
    cases = [
        {"hypotheses": [[], []], "references": [[["a"]], [["b"]]], "smoothing": "method3"},
        {"hypotheses": [["x"], ["y"]], "references": [[["a"]], [["b"]]], "smoothing": "method1"},
        {"hypotheses": [["a"]], "references": [[["a"]]], "max_order": 2},  # l_2 = 0
        {},  # m_4 = 0 without smoothing
    ]
    assert [0, 0, 0, 0] == [run(**c)["bleu"] for c in cases]
    assert (
        1
        == run(hypotheses=[["a"]], references=[[["a"]]], max_order=2, effective_order=True)["bleu"]
    )


@HARNESS.semantics_line(7)
def test_decimals_round_with_tofixed() -> None:
    """decimals rounds bleu and BP like toFixed; counts stay exact."""
    full = run(smoothing="method3")
    rounded = run(smoothing="method3", decimals=10)
    assert (0.2516605225, 0.8464817249, full["smoothed_matches"]) == (
        rounded["bleu"],
        rounded["brevity_penalty"],
        rounded["smoothed_matches"],
    )
    assert (float(f"{full['bleu']:.3f}"), 1) == (
        run(smoothing="method3", decimals=3)["bleu"],
        run(hypotheses=[["a"]], references=[[["a"]]], max_order=1, decimals=0)["bleu"],
    )


@HARNESS.semantics_line(8)
def test_float_steps_follow_javascript() -> None:
    """bleu = BP * exp(sum of ln(m/l) in order / N) with JavaScript's log and exp."""
    result = run(smoothing="method3")
    s = 0.0
    for m, t in [(9, 12), (5, 10), (2, 8), (0.5, 6)]:
        s += js_log(m / t)
    assert js_exp(1 - 14 / 12) * js_exp(s / 4) == result["bleu"]
    assert result == run(smoothing="method3", max_order=4.0)


@pytest.mark.parametrize("pair", wmt_pairs())
@HARNESS.semantics_line(9)
def test_equals_sacrebleu_corpus_score_on_wmt(pair: str) -> None:
    """On every system of the pair: sacreBLEU's statistics exactly, its score/100 closely."""
    systems = wmt_corpora(pair)
    if os.environ.get("MTCOMPUTE_WMT_SYSTEMS") == "first":
        systems = systems[:1]
    bad = []
    for k, corpus in enumerate(systems):
        for piece in chunks(corpus):
            # Each system through both with one smoothing, in turn.
            smoothing = SMOOTHINGS[k % 4]
            score = sacre_score(piece, smoothing)
            result = result_of(TOOL[0], corpus_input(piece, smoothing=smoothing))
            bad += sacre_mismatches(piece.name, score, result, smoothing)
            if k:
                continue
            # The first system (smoothing none) also with every other smoothing and option,
            # sacreBLEU rescoring its own statistics as its corpus_score does.
            for smoothing, options in [
                ("method1", {}),
                ("method2", {}),
                ("method3", {}),
                ("method1", {"epsilon": 0.25}),
                ("method3", {"effective_order": True}),
                ("none", {"max_order": 6}),
            ]:
                if "max_order" in options:
                    again = sacre_score(piece, smoothing, **options)
                else:
                    again = sacre_rescore(score, smoothing, **options)
                result = result_of(TOOL[0], corpus_input(piece, smoothing=smoothing, **options))
                bad += sacre_mismatches(f"{piece.name} {options}", again, result, smoothing)
    assert [] == bad


def test_nltk100_tokenized_pair_reproduces_multi_bleu() -> None:
    """The tokenized newstest2015 pair gives the published multi-bleu.perl line exactly."""
    corpus = next(c for c in wmt_corpora("newstest2015-nltk100/en-ru") if ".tok." in c.name)
    result = result_of(TOOL[0], corpus_input(corpus))
    precisions = [
        f"{100 * m / t:.1f}" for m, t in zip(result["matches"], result["totals"], strict=True)
    ]
    assert ("23.17", ["53.8", "29.6", "17.6", "10.3"], "1.000", "1.074", 1989, 1852) == (
        f"{100 * result['bleu']:.2f}",
        precisions,
        f"{result['brevity_penalty']:.3f}",
        f"{result['candidate_length'] / result['reference_length']:.3f}",
        result["candidate_length"],
        result["reference_length"],
    )


@HARNESS.semantics_line(10)
def test_limits_and_error_codes() -> None:
    """Each rule of the limits line gets its code (segments, references, tokens, bytes, ...)."""
    euro = "\u20ac"
    assert_codes(
        [
            (
                {"hypotheses": [[]] * 4097, "references": [[[]]] * 4097},
                ("limit_exceeded", "/hypotheses"),
            ),
            (input_with(references=[[SEED_REF], [["a"]] * 9]), ("limit_exceeded", "/references/1")),
            (input_with(hypotheses=[[euro * 43], CAT_HYP]), ("limit_exceeded", "/hypotheses/0/0")),
            (
                {"hypotheses": [["a"] * 250_000] * 2, "references": [[["b"]]] * 2},
                ("limit_exceeded", ""),
            ),
            (
                {"hypotheses": [["h" * 128] * 16384] * 2, "references": [[["\u00e9"]]] * 2},
                ("limit_exceeded", ""),
            ),
            (input_with(hypotheses=[]), ("invalid_input", "/hypotheses")),
            (input_with(references=[[], CAT_REFS]), ("invalid_input", "/references/0")),
            (input_with(hypotheses=[SEED_HYP]), ("invalid_input", "/references")),
            (input_with(max_order=0), ("invalid_input", "/max_order")),
            (input_with(smoothing="method4"), ("unsupported_input", "/smoothing")),
            (input_with(epsilon=0.1), ("invalid_input", "/epsilon")),
            (input_with(hypotheses=[SEED_HYP, ["\ud800"]]), ("invalid_input", "/hypotheses/1/0")),
            (input_with(references=[[[""]], CAT_REFS]), ("invalid_input", "/references/0/0/0")),
        ]
    )
    # At the limits exactly: 4096 segments of 8 references; 500,000 tokens; 4,194,304 bytes.
    at_limits = [
        run(hypotheses=[[]] * 4096, references=[[["a"]] * 8] * 4096, max_order=1),
        run(hypotheses=[["a"] * 250_000] * 2, references=[[[]], [[]]], max_order=1),
        run(hypotheses=[["h" * 128] * 16384], references=[[["r" * 128] * 16384]], max_order=1),
    ]
    assert [(4096, 0, 4096), (2, 500_000, 0), (1, 16384, 16384)] == [
        (r["segment_count"], r["candidate_length"], r["reference_length"]) for r in at_limits
    ]


@HARNESS.semantics_line(11)
def test_validation_order_first_failing_check_decides() -> None:
    """Two faults at once: the earlier check in the contract's order wins (last line)."""
    cases = [
        ([1], ("invalid_input", "")),
        ({**BASE, "zz": 1, "max_order": 0}, ("invalid_input", "/zz")),
        ({"references": 1, "zz2": 0, "zz1": 0}, ("invalid_input", "/zz2")),
        ({"references": 5}, ("invalid_input", "/hypotheses")),
        (input_with(hypotheses="a b", references=[]), ("invalid_input", "/hypotheses")),
        (input_with(hypotheses=[[]] * 4097, references=5), ("limit_exceeded", "/hypotheses")),
        (input_with(hypotheses=[], references=5), ("invalid_input", "/hypotheses")),
        (input_with(hypotheses=[["a", ""], 5]), ("invalid_input", "/hypotheses/0/1")),
        (input_with(hypotheses=[["x" * 129], [""]]), ("limit_exceeded", "/hypotheses/0/0")),
        (input_with(hypotheses=[[""]], references=[]), ("invalid_input", "/hypotheses/0/0")),
        (input_with(references=[[[]]] * 4097, max_order=0), ("limit_exceeded", "/references")),
        (input_with(references=[[SEED_REF], [["a"]] * 9, []]), ("limit_exceeded", "/references/1")),
        (input_with(references=[[SEED_REF], []], max_order=0), ("invalid_input", "/references/1")),
        (input_with(references=[[SEED_REF]] * 3, max_order=0), ("invalid_input", "/references")),
        (input_with(max_order=9, smoothing="method4"), ("invalid_input", "/max_order")),
        (input_with(smoothing="method4", epsilon=2), ("unsupported_input", "/smoothing")),
        (input_with(smoothing="x", epsilon=2), ("invalid_input", "/smoothing")),
        (input_with(epsilon=2, effective_order=1), ("invalid_input", "/epsilon")),
        (input_with(effective_order=1, decimals=-1), ("invalid_input", "/effective_order")),
        (
            {"hypotheses": [["a"] * 250_001] * 2, "references": [[[]]] * 2, "decimals": 16},
            ("invalid_input", "/decimals"),
        ),
        (
            {"hypotheses": [["a"] * 250_001] * 2, "references": [[[]]] * 2, "epsilon": 0.1},
            ("limit_exceeded", ""),
        ),
    ]
    assert_codes(cases)
    # total tokens before total bytes
    assert error({"hypotheses": [["h" * 128] * 40_000] * 13, "references": [[[]]] * 13})[
        2
    ].startswith("Expected at most 500000 tokens")


# --- sacreBLEU beyond WMT: random corpora -----------------------------------------------------


@PROPERTY
@given(corpus_inputs())
def test_equals_sacrebleu_on_generated_corpora(data: dict[str, Any]) -> None:
    """Generated corpora (empty references replaced) agree with sacreBLEU as WMT does."""
    references = [[r for r in refs if r] or [["filler"]] for refs in data["references"]]
    count = max(map(len, references))  # sacreBLEU streams: pad with repeats (no effect)
    references = [refs + [refs[0]] * (count - len(refs)) for refs in references]
    corpus = WmtCorpus("generated", data["hypotheses"], references)
    options = {k: data[k] for k in ("epsilon", "effective_order", "max_order") if k in data}
    full = {k: v for k, v in data.items() if k != "decimals"} | {"references": references}
    smoothing = data.get("smoothing", "none")
    score = sacre_score(corpus, smoothing, **options)
    assert [] == sacre_mismatches("generated", score, result_of(TOOL[0], full), smoothing)


# --- properties -------------------------------------------------------------------------------


@PROPERTY
@given(corpus_inputs())
def test_bleu_and_brevity_penalty_stay_in_the_unit_interval(data: dict[str, Any]) -> None:
    """0 <= bleu <= 1 and 0 <= BP <= 1; 0 <= matches <= totals; segment_count counts."""
    result = result_of(TOOL[0], data)
    assert (True, True, True, len(data["hypotheses"])) == (
        0 <= result["bleu"] <= 1,
        0 <= result["brevity_penalty"] <= 1,
        all(0 <= m <= t for m, t in zip(result["matches"], result["totals"], strict=True)),
        result["segment_count"],
    )


@PROPERTY
@given(corpus_inputs(), st.randoms(use_true_random=False))
def test_segment_order_does_not_matter(data: dict[str, Any], rnd: Any) -> None:
    """Shuffling the segments (with their references) leaves the result unchanged."""
    pairs = list(zip(data["hypotheses"], data["references"], strict=True))
    rnd.shuffle(pairs)
    shuffled = {**data, "hypotheses": [h for h, _ in pairs], "references": [r for _, r in pairs]}
    assert result_of(TOOL[0], data) == result_of(TOOL[0], shuffled)


@PROPERTY
@given(corpus_inputs(), st.integers(1, 5))
def test_statistics_of_a_split_corpus_add_up(data: dict[str, Any], cut: int) -> None:
    """The statistics of the whole are the sums of those of any two parts."""
    cut = min(cut, len(data["hypotheses"]))
    whole = result_of(TOOL[0], data)
    parts = [
        result_of(
            TOOL[0],
            {**data, "hypotheses": data["hypotheses"][s], "references": data["references"][s]},
        )
        for s in (slice(0, cut), slice(cut, None))
        if data["hypotheses"][s]
    ]
    expected = [
        sum(p["candidate_length"] for p in parts),
        sum(p["reference_length"] for p in parts),
        [sum(p["matches"][n] for p in parts) for n in range(len(whole["matches"]))],
        [sum(p["totals"][n] for p in parts) for n in range(len(whole["totals"]))],
    ]
    assert expected == [whole[k] for k in STAT_KEYS]


def test_largest_valid_input_size() -> None:
    """The largest valid input, written as JSON.stringify writes it, is 26,784,747 bytes."""
    # 500,000 tokens of U+0001 characters (6 JSON bytes each: \u0001) holding the 4,194,304
    # token bytes, all in one hypothesis; every other list empty; every option at its longest.
    k, extra = divmod(MAX_TOTAL_TOKEN_BYTES, MAX_TOTAL_TOKENS)
    tokens = ["\x01" * (k + 1)] * extra + ["\x01" * k] * (MAX_TOTAL_TOKENS - extra)
    data = {
        "hypotheses": [tokens] + [[]] * (MAX_SEGMENTS - 1),
        "references": [[[]] * 8] * MAX_SEGMENTS,
        "max_order": 1,
        "smoothing": "method1",
        "epsilon": 1.0000000000000002e-6,
        "effective_order": False,
        "decimals": 15,
    }
    assert (26_784_747, 0) == (
        len(mtcompute.dumps(data).encode("utf-8")),
        result_of(TOOL[0], data)["bleu"],
    )


# --- one test per error code per input field -----------------------------------------------

ERRORS = [
    *HARNESS.common("input", "null"),
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(hypothesis=[]),
        "/hypothesis",
        'Unknown key "hypothesis" in the input; expected only hypotheses, references, max_order, '
        "smoothing, epsilon, effective_order, decimals.",
    ),
    HARNESS.missing("hypotheses"),
    (
        "hypotheses",
        "invalid_input",
        "not an array",
        input_with(hypotheses="the cat"),
        "/hypotheses",
        'Expected an array of 1 to 4096 token lists at /hypotheses, got the string "the cat".',
    ),
    *HARNESS.common("hypotheses", "empty"),
    (
        "hypotheses",
        "limit_exceeded",
        "4097 segments",
        input_with(hypotheses=[[]] * 4097),
        "/hypotheses",
        "Expected at most 4096 segments at /hypotheses (limit max segments), got 4097.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "segment not an array",
        input_with(hypotheses=[SEED_HYP, "the cat"]),
        "/hypotheses/1",
        'Expected a token list (an array) at /hypotheses/1, got the string "the cat".',
    ),
    (
        "hypotheses",
        "invalid_input",
        "token not a string",
        input_with(hypotheses=[SEED_HYP, ["the", 3]]),
        "/hypotheses/1/1",
        "Expected a token (a non-empty string) at /hypotheses/1/1, got 3.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "empty token",
        input_with(hypotheses=[[""], CAT_HYP]),
        "/hypotheses/0/0",
        "Expected a non-empty token at /hypotheses/0/0, got the empty string.",
    ),
    (
        "hypotheses",
        "invalid_input",
        "lone surrogate",
        input_with(hypotheses=[SEED_HYP, ["c\ud83dt"]]),
        "/hypotheses/1/0",
        "Expected a token without lone surrogates at /hypotheses/1/0, got U+D83D at index 1.",
    ),
    (
        "hypotheses",
        "limit_exceeded",
        "129 bytes in 43 characters",
        input_with(hypotheses=[SEED_HYP, ["\u20ac" * 43]]),
        "/hypotheses/1/0",
        "Expected a token of at most 128 UTF-8 bytes at /hypotheses/1/0 (limit max token bytes), "
        "got 129 bytes.",
    ),
    HARNESS.missing("references"),
    (
        "references",
        "invalid_input",
        "not an array",
        input_with(references={"0": [SEED_REF]}),
        "/references",
        "Expected an array of 1 to 4096 reference lists at /references, got an object.",
    ),
    (
        "references",
        "invalid_input",
        "empty",
        input_with(references=[]),
        "/references",
        "Expected at least 1 segment at /references, got none.",
    ),
    (
        "references",
        "limit_exceeded",
        "4097 segments",
        input_with(references=[[[]]] * 4097),
        "/references",
        "Expected at most 4096 segments at /references (limit max segments), got 4097.",
    ),
    (
        "references",
        "invalid_input",
        "fewer segments than hypotheses",
        input_with(references=[[SEED_REF]]),
        "/references",
        "Expected references to have as many segments as hypotheses (2) at /references, got 1.",
    ),
    (
        "references",
        "invalid_input",
        "segment not an array",
        input_with(references=[[SEED_REF], "the cat"]),
        "/references/1",
        'Expected an array of 1 to 8 token lists at /references/1, got the string "the cat".',
    ),
    (
        "references",
        "invalid_input",
        "segment without references",
        input_with(references=[[SEED_REF], []]),
        "/references/1",
        "Expected at least 1 reference at /references/1, got none.",
    ),
    (
        "references",
        "limit_exceeded",
        "9 references",
        input_with(references=[[SEED_REF], [CAT_HYP] * 9]),
        "/references/1",
        "Expected at most 8 references at /references/1 (limit max references), got 9.",
    ),
    (
        "references",
        "invalid_input",
        "reference not an array",
        input_with(references=[[SEED_REF], [CAT_HYP, "the cat"]]),
        "/references/1/1",
        'Expected a reference token list (an array) at /references/1/1, got the string "the cat".',
    ),
    (
        "references",
        "invalid_input",
        "token not a string",
        input_with(references=[[SEED_REF], [["the", None]]]),
        "/references/1/0/1",
        "Expected a token (a non-empty string) at /references/1/0/1, got null.",
    ),
    (
        "references",
        "limit_exceeded",
        "token over 128 bytes",
        input_with(references=[[SEED_REF], [["y" * 200]]]),
        "/references/1/0/0",
        "Expected a token of at most 128 UTF-8 bytes at /references/1/0/0 "
        "(limit max token bytes), got 200 bytes.",
    ),
    *HARNESS.common("max_order", "9", "2.5"),
    *HARNESS.common("smoothing", "unknown method"),
    (
        "smoothing",
        "unsupported_input",
        "method5",
        input_with(smoothing="method5"),
        "/smoothing",
        "Chen and Cherry method5 is not supported by bleu-corpus-compute@1.0.0 at /smoothing: "
        "this version scores the corpus-summed statistics with bleu-smoothing-compute's methods, "
        "and methods 4 to 7 are not among them; use none, method1, method2 or method3.",
    ),
    (
        "epsilon",
        "invalid_input",
        "negative",
        input_with(smoothing="method1", epsilon=-0.5),
        "/epsilon",
        "Expected a number from 0 to 1 at /epsilon, got -0.5.",
    ),
    *HARNESS.common("epsilon", "with smoothing omitted"),
    (
        "effective_order",
        "invalid_input",
        "number",
        input_with(effective_order=1),
        "/effective_order",
        "Expected true or false at /effective_order, got 1.",
    ),
    (
        "decimals",
        "invalid_input",
        "-1",
        input_with(decimals=-1),
        "/decimals",
        "Expected an integer of at least 0 at /decimals, got -1.",
    ),
    *HARNESS.common("total tokens", "500001"),
    (
        "total token bytes",
        "limit_exceeded",
        "4194305",
        {"hypotheses": [["h" * 128] * 16384] * 2, "references": [[["s"]], [[]]]},
        "",
        "Expected at most 4194304 UTF-8 bytes of tokens in all (limit max total token bytes), "
        "got 4194305.",
    ),
]


TYPED_FAULTS = {
    "invalid_input": input_with(references=[[SEED_REF]]),
    "limit_exceeded": input_with(references=[[SEED_REF], [CAT_HYP] * 9]),
    "unsupported_input": input_with(smoothing="method6"),
}
HARNESS.declare(
    ERRORS, typed_faults=TYPED_FAULTS, unchanged=input_with(smoothing="method2", max_order=4.0)
)


def test_typed_function_returns_frozen_result() -> None:
    """The typed function gives the example's numbers in a frozen object."""
    result = bleu_corpus(BASE["hypotheses"], BASE["references"], "method3", decimals=10)
    assert (0.2516605225, 0.8464817249, 4, 2, 12, 14, (9, 5, 2, 0), (9, 5, 2, 0.5)) == (
        result.bleu,
        result.brevity_penalty,
        result.orders_used,
        result.segment_count,
        result.candidate_length,
        result.reference_length,
        result.matches,
        result.smoothed_matches,
    )
    HARNESS.assert_frozen(result, "bleu")
