"""Property tests: the laws the three contracts state, checked on hypothesis-generated inputs.

References: the contracts in ``mtcompute/contracts/data`` and docs/decisions.md
(Papineni et al. 2002 §2.1 for the BLEU statistics, Popović 2015 §2 for chrF). The laws:

* BLEU statistics add up across segments, ``+`` is associative and commutative; totals are
  ``max(0, c - n + 1)``; ``0 <= m_n <= l_n``; matches equal an independent count (Counter
  ``&``/``|``); the reference length is one of the references' lengths, the closest to c,
  ties to the shorter; references' order and duplicates do not matter.
* chrF stays in [0, 100]; identical texts score exactly 100 when they hold a non-whitespace
  character (0 when they do not); whitespace does not matter; chrF1 is symmetric; the score
  string is the half-even rounding of the exact fraction; the per-order counts equal an
  independent count.
* bleu and brevity_penalty stay in [0, 1].
* execute: key order of the input does not change the envelope text; execute never raises on
  any JSON value and answers with exactly one of result/error, error codes from the four
  codes, results that satisfy the output schema and only for inputs that satisfy the input
  schema.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from functools import reduce
from importlib import resources
from operator import add
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import mtcompute
from mtcompute.contracts.validate import MAX_FAULTS
from mtcompute.metrics.bleu.statistics import sentence_statistics
from mtcompute.metrics.chrf.ngrams import (
    ChrfStatistics,
    chrf_fraction,
    chrf_ratio,
    format_ratio,
    segment_statistics,
)
from tests import strategies as sts

PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CODES = {"invalid_input", "limit_exceeded", "unsupported_input", "not_found"}
TOOLS = sorted(sts.VALID_INPUTS)
VERSION = "1.0.0"
SCORE_PATTERN = re.compile(r"^(100\.000000|[0-9]{1,2}\.[0-9]{6})$")


def _shipped_contracts() -> dict[str, dict[str, Any]]:
    """Every contract shipped in the package (the three above and any added since), by id."""
    data = resources.files("mtcompute.contracts") / "data"
    contracts = [
        json.loads(entry.read_text(encoding="utf-8"))
        for entry in data.iterdir()
        if entry.name.endswith(f"@{VERSION}.json")
    ]
    return {c["id"]: c for c in sorted(contracts, key=lambda c: c["id"])}


CONTRACTS = _shipped_contracts()
INPUT_SCHEMA = {t: Draft202012Validator(c["input_schema"]) for t, c in CONTRACTS.items()}
OUTPUT_SCHEMA = {t: Draft202012Validator(c["output_schema"]) for t, c in CONTRACTS.items()}


# --- BLEU statistics ------------------------------------------------------------------------


@PROPERTY
@given(st.lists(sts.bleu_segments(max_references=3), min_size=1, max_size=6), st.integers(1, 8))
def test_corpus_statistics_are_the_sums_of_segment_statistics(
    segments: list[tuple[list[str], list[list[str]]]], max_order: int
) -> None:
    """Summing segment statistics with + gives the field-by-field sums of the segments."""
    stats = [sentence_statistics(h, refs, max_order) for h, refs in segments]
    expected = (
        sum(s.candidate_length for s in stats),
        sum(s.reference_length for s in stats),
        tuple(sum(s.matches[i] for s in stats) for i in range(max_order)),
        tuple(sum(s.totals[i] for s in stats) for i in range(max_order)),
    )
    total = reduce(add, stats)
    assert expected == (total.candidate_length, total.reference_length, total.matches, total.totals)


@PROPERTY
@given(st.lists(sts.bleu_segments(max_references=2), min_size=3, max_size=3), st.integers(1, 8))
def test_statistics_addition_is_associative_and_commutative(
    segments: list[tuple[list[str], list[list[str]]]], max_order: int
) -> None:
    """(a + b) + c == a + (b + c) and a + b == b + a."""
    a, b, c = (sentence_statistics(h, refs, max_order) for h, refs in segments)
    assert ((a + b) + c, a + b) == (a + (b + c), b + a)


@PROPERTY
@given(sts.bleu_sentence_inputs())
def test_tool_statistics_equal_the_core_statistics(data: dict[str, Any]) -> None:
    """bleu-sentence-components reports exactly the core's sentence statistics."""
    max_order = int(data.get("max_order", 4))
    core = sentence_statistics(data["hypothesis"], data["references"], max_order)
    expected = {
        "candidate_length": core.candidate_length,
        "reference_length": core.reference_length,
        "max_order": max_order,
        "matches": list(core.matches),
        "totals": list(core.totals),
    }
    result = mtcompute.execute("bleu-sentence-components", VERSION, data)["result"]
    assert expected == {k: v for k, v in result.items() if k != "ngrams"}


@PROPERTY
@given(sts.bleu_cases())
def test_totals_are_c_minus_n_plus_1(case: sts.BleuCase) -> None:
    """c is the hypothesis length and totals[n-1] = max(0, c - n + 1)."""
    stats = sentence_statistics(*case)
    c = len(case.hypothesis)
    expected = (c, tuple(max(0, c - n + 1) for n in range(1, case.max_order + 1)))
    assert expected == (stats.candidate_length, stats.totals)


@PROPERTY
@given(sts.bleu_cases())
def test_matches_are_between_zero_and_totals(case: sts.BleuCase) -> None:
    """0 <= matches[n-1] <= totals[n-1] for every order."""
    stats = sentence_statistics(*case)
    assert all(0 <= m <= t for m, t in zip(stats.matches, stats.totals, strict=True))


def _ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


@PROPERTY
@given(sts.bleu_cases())
def test_matches_equal_an_independent_clipped_count(case: sts.BleuCase) -> None:
    """matches = |hyp n-grams & (ref_1 n-grams | ref_2 n-grams | ...)| (Counter min/max)."""
    hypothesis, references, max_order = case
    expected = tuple(
        sum(
            (
                _ngrams(hypothesis, n) & reduce(or_counts, (_ngrams(r, n) for r in references))
            ).values()
        )
        for n in range(1, max_order + 1)
    )
    assert expected == sentence_statistics(hypothesis, references, max_order).matches


def or_counts(a: Counter[tuple[str, ...]], b: Counter[tuple[str, ...]]) -> Counter[tuple[str, ...]]:
    """Counter union: the largest count of each n-gram in either."""
    return a | b


@PROPERTY
@given(sts.bleu_segments())
def test_reference_length_is_the_closest_with_ties_to_the_shorter(
    segment: tuple[list[str], list[list[str]]],
) -> None:
    """r is a reference's length, no other is closer to c, and on a tie r is the shorter."""
    hypothesis, references = segment
    c = len(hypothesis)
    lengths = sorted({len(r) for r in references})
    best = min(abs(length - c) for length in lengths)
    expected = min(length for length in lengths if abs(length - c) == best)
    assert expected == sentence_statistics(hypothesis, references, 4).reference_length


@PROPERTY
@given(sts.bleu_segments(max_references=4), st.randoms(use_true_random=False), st.integers(1, 8))
def test_reference_order_and_duplicates_do_not_matter(
    segment: tuple[list[str], list[list[str]]], rnd: Any, max_order: int
) -> None:
    """Shuffling the references or repeating one leaves the statistics unchanged."""
    hypothesis, references = segment
    shuffled = list(references)
    rnd.shuffle(shuffled)
    shuffled.append(rnd.choice(references))
    expected = sentence_statistics(hypothesis, references, max_order)
    assert expected == sentence_statistics(hypothesis, shuffled, max_order)


@PROPERTY
@given(sts.bleu_segments(max_references=3), st.integers(1, 8))
def test_hypothesis_among_its_references_matches_everything(
    segment: tuple[list[str], list[list[str]]], max_order: int
) -> None:
    """With the hypothesis itself as a reference, matches = totals and r = c."""
    hypothesis, references = segment
    stats = sentence_statistics(hypothesis, [*references, list(hypothesis)], max_order)
    expected = (stats.totals, stats.candidate_length)
    assert expected == (stats.matches, stats.reference_length)


@PROPERTY
@given(st.lists(sts.spaced_tokens(), min_size=1, max_size=12))
def test_tokens_with_whitespace_inside_are_single_tokens(tokens: list[str]) -> None:
    """A token with spaces inside counts once, and tokens as their own reference match fully."""
    data = {"hypothesis": tokens, "references": [tokens], "max_order": 8}
    result = mtcompute.execute("bleu-sentence-components", VERSION, data)["result"]
    c = len(tokens)
    expected = (c, c, [max(0, c - n + 1) for n in range(1, 9)])
    assert expected == (result["candidate_length"], result["reference_length"], result["matches"])


# --- BLEU smoothing -------------------------------------------------------------------------


@PROPERTY
@given(sts.bleu_smoothing_inputs())
def test_bleu_and_brevity_penalty_stay_in_the_unit_interval(data: dict[str, Any]) -> None:
    """bleu and brevity_penalty are in [0, 1]; orders_used in 0..N; N smoothed counts each."""
    result = mtcompute.execute("bleu-smoothing-compute", VERSION, data)["result"]
    n = len(data["matches"])
    expected = (True, True, True, n, n)
    actual = (
        0 <= result["bleu"] <= 1,
        0 <= result["brevity_penalty"] <= 1,
        0 <= result["orders_used"] <= n,
        len(result["smoothed_matches"]),
        len(result["smoothed_totals"]),
    )
    assert expected == actual


@PROPERTY
@given(sts.bleu_smoothing_inputs(), st.sampled_from(["no unigram match", "empty candidate"]))
def test_bleu_is_zero_without_unigram_matches_or_candidate(data: dict[str, Any], why: str) -> None:
    """bleu = 0 when m_1 = 0 (so every m_n = 0) or c = 0, whatever the smoothing."""
    if why == "no unigram match":
        data["matches"] = [0] * len(data["matches"])
    else:
        data["candidate_length"] = 0
    assert 0 == mtcompute.execute("bleu-smoothing-compute", VERSION, data)["result"]["bleu"]


# --- chrF -----------------------------------------------------------------------------------


@PROPERTY
@given(st.lists(sts.chrf_segments(), max_size=6), st.integers(1, 8))
def test_chrf_total_is_the_sum_of_segment_statistics(
    segments: list[tuple[str, str]], order: int
) -> None:
    """ChrfStatistics.total of segment statistics is their + from zero, in any order."""
    rows = [segment_statistics(h, r, order) for h, r in segments]
    expected = reduce(add, rows, ChrfStatistics.zero(order))
    assert (expected, expected) == (
        ChrfStatistics.total(rows, order),
        ChrfStatistics.total(rows[::-1], order),
    )


@PROPERTY
@given(sts.chrf_inputs())
def test_chrf_stays_between_0_and_100(data: dict[str, Any]) -> None:
    """The corpus fraction and every segment fraction lie in [0, 100]."""
    result = mtcompute.chrf(
        data["hypotheses"], data["references"], data.get("beta", 2), data.get("lowercase", False)
    )
    fractions = [result.fraction, *result.segment_fractions]
    assert [] == [f for f in fractions if not 0 <= f <= 100]


def _has_content(text: str) -> bool:
    return bool("".join(text.split()))


@PROPERTY
@given(st.lists(sts.texts(), min_size=1, max_size=5), st.integers(1, 16), st.booleans())
def test_identical_texts_score_exactly_100(texts: list[str], beta: int, lowercase: bool) -> None:
    """Identical texts give exactly 100 with a non-whitespace character, else 0; per segment too."""
    result = mtcompute.chrf(texts, texts, beta, lowercase)
    expected = (
        Fraction(100) if any(map(_has_content, texts)) else Fraction(0),
        tuple(Fraction(100) if _has_content(t) else Fraction(0) for t in texts),
    )
    assert expected == (result.fraction, result.segment_fractions)


def _half_even(fraction: Fraction) -> str:
    q, rem = divmod(fraction.numerator * 1_000_000, fraction.denominator)
    if 2 * rem > fraction.denominator or (2 * rem == fraction.denominator and q % 2):
        q += 1
    return f"{q // 1_000_000}.{q % 1_000_000:06d}"


@PROPERTY
@given(sts.chrf_inputs())
def test_score_strings_are_the_half_even_rounding_of_the_fractions(data: dict[str, Any]) -> None:
    """score and segment_scores match the pattern and round the exact values half to even."""
    result = mtcompute.execute("chrf-compute", VERSION, data)["result"]
    numerator, denominator = map(int, result["score_fraction"].split("/"))
    corpus = Fraction(numerator, denominator)
    segments = [
        mtcompute.chrf([h], [r], data.get("beta", 2), data.get("lowercase", False)).fraction
        for h, r in zip(data["hypotheses"], data["references"], strict=True)
    ]
    expected = (_half_even(corpus), [_half_even(f) for f in segments], True)
    scores = [result["score"], *result["segment_scores"]]
    actual = (result["score"], result["segment_scores"], all(map(SCORE_PATTERN.match, scores)))
    assert expected == actual


@pytest.mark.parametrize(
    ("fraction", "expected"),
    [
        (Fraction(1, 2_000_000), "0.000000"),
        (Fraction(3, 2_000_000), "0.000002"),
        (Fraction(2_999_999, 2_000_000), "1.500000"),
        (Fraction(100), "100.000000"),
    ],
)
def test_half_even_oracle_rounds_ties_to_even(fraction: Fraction, expected: str) -> None:
    """The rounding oracle itself: ties go to the even sixth decimal."""
    assert expected == _half_even(fraction)


@pytest.mark.parametrize(
    ("hypothesis", "reference", "beta", "expected"),
    [
        ("aaaa", "a" + "b" * 27, 3, (Fraction(125, 128), "0.976562")),
        ("a", "a" + "b" * 1022, 1, (Fraction(25, 128), "0.195312")),
    ],
)
def test_exact_ties_round_to_even(
    hypothesis: str, reference: str, beta: int, expected: tuple[Fraction, str]
) -> None:
    """Scores exactly halfway at the seventh decimal round half to even, not half up."""
    result = mtcompute.chrf([hypothesis], [reference], beta)
    assert expected == (result.fraction, result.score)


@PROPERTY
@given(st.data(), sts.chrf_inputs())
def test_whitespace_does_not_change_chrf(data: st.DataObject, chrf_input: dict[str, Any]) -> None:
    """Inserting runs of the 29 whitespace code points anywhere leaves every fraction as is."""

    def spread(text: str) -> str:
        cuts = data.draw(st.lists(st.integers(0, len(text)), max_size=4))
        runs = [data.draw(st.text(alphabet=sts.WHITESPACE, min_size=1, max_size=2)) for _ in cuts]
        for cut, run in sorted(zip(cuts, runs, strict=True), reverse=True):
            text = text[:cut] + run + text[cut:]
        return text

    hyps, refs = chrf_input["hypotheses"], chrf_input["references"]
    expected = mtcompute.chrf(hyps, refs)
    actual = mtcompute.chrf([spread(h) for h in hyps], [spread(r) for r in refs])
    assert (expected.fraction, expected.segment_fractions) == (
        actual.fraction,
        actual.segment_fractions,
    )


@PROPERTY
@given(sts.chrf_inputs())
def test_chrf1_is_symmetric(data: dict[str, Any]) -> None:
    """With beta = 1, swapping hypotheses and references leaves every fraction unchanged."""
    forward = mtcompute.chrf(data["hypotheses"], data["references"], beta=1)
    backward = mtcompute.chrf(data["references"], data["hypotheses"], beta=1)
    assert (forward.fraction, forward.segment_fractions) == (
        backward.fraction,
        backward.segment_fractions,
    )


@PROPERTY
@given(sts.chrf_inputs())
def test_lowercase_option_equals_lowercased_texts(data: dict[str, Any]) -> None:
    """lowercase=True scores exactly like the str.lower() of both texts."""
    hyps, refs = data["hypotheses"], data["references"]
    expected = mtcompute.chrf([h.lower() for h in hyps], [r.lower() for r in refs], beta=3)
    actual = mtcompute.chrf(hyps, refs, beta=3, lowercase=True)
    assert (expected.fraction, expected.segment_fractions) == (
        actual.fraction,
        actual.segment_fractions,
    )


@PROPERTY
@given(sts.chrf_inputs())
def test_segment_scores_are_the_segments_scored_alone(data: dict[str, Any]) -> None:
    """segment_fractions[i] is chrF of segment i as a one-segment corpus."""
    beta = data.get("beta", 2)
    result = mtcompute.chrf(data["hypotheses"], data["references"], beta)
    expected = tuple(
        mtcompute.chrf([h], [r], beta).fraction
        for h, r in zip(data["hypotheses"], data["references"], strict=True)
    )
    assert expected == result.segment_fractions


def _char_counts(text: str, n: int) -> Counter[str]:
    chars = "".join(text.split())
    return Counter(chars[i : i + n] for i in range(len(chars) - n + 1))


@PROPERTY
@given(sts.chrf_segments(), st.booleans())
def test_chrf_statistics_equal_an_independent_count(
    segment: tuple[str, str], lowercase: bool
) -> None:
    """Per-order chrF counts equal a Counter count after str.split() whitespace removal."""
    hyp, ref = segment
    if lowercase:
        hyp, ref = hyp.lower(), ref.lower()
    orders = range(1, 7)
    expected = (
        tuple(sum(_char_counts(hyp, n).values()) for n in orders),
        tuple(sum(_char_counts(ref, n).values()) for n in orders),
        tuple(sum((_char_counts(hyp, n) & _char_counts(ref, n)).values()) for n in orders),
    )
    stats = segment_statistics(*segment, lowercase=lowercase)
    assert expected == (stats.hypothesis, stats.reference, stats.matches)


def test_contract_whitespace_is_python_str_split_whitespace() -> None:
    """The contract's 29 whitespace code points are exactly what str.split() splits on."""
    expected = sorted(sts.WHITESPACE)
    actual = [chr(c) for c in range(0x110000) if len(("a" + chr(c) + "b").split()) == 2]
    assert expected == actual


# --- execute: envelopes ---------------------------------------------------------------------


@st.composite
def _inputs_with_known_keys(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool_id = draw(st.sampled_from(TOOLS))
    inputs = st.one_of(
        sts.perturbed_inputs(tool_id, unknown_keys=False, max_faults=4),
        sts.faulty_inputs(tool_id),
    )
    return tool_id, draw(inputs)


@PROPERTY
@given(_inputs_with_known_keys(), st.randoms(use_true_random=False))
def test_key_order_does_not_change_the_envelope(case: tuple[str, dict[str, Any]], rnd: Any) -> None:
    """Shuffling the input's keys (even with several faults) leaves the envelope text as is."""
    tool_id, data = case
    keys = list(data)
    rnd.shuffle(keys)
    shuffled = {k: data[k] for k in keys}
    expected = mtcompute.dumps(mtcompute.execute(tool_id, VERSION, data))
    assert expected == mtcompute.dumps(mtcompute.execute(tool_id, VERSION, shuffled))


def _check_error(error: dict[str, Any]) -> list[str]:
    """Every way one error breaks its promises; several faults are listed 2 to MAX_FAULTS
    at a time, the error itself first, each fault a plain error."""
    if "faults" in error:
        faults = error["faults"]
        head = {k: v for k, v in error.items() if k != "faults"}
        if not (isinstance(faults, list) and 2 <= len(faults) <= MAX_FAULTS):
            return [f"faults {faults!r:.200}"]
        if faults[0] != head:
            return ["the first fault is not the error itself"]
        return [p for fault in faults for p in _check_error(fault)]
    problems = []
    if set(error) != {"code", "message", "path"}:
        problems.append(f"error keys {sorted(error)}")
    if error.get("code") not in CODES:
        problems.append(f"code {error.get('code')!r}")
    if not (isinstance(error.get("message"), str) and error["message"]):
        problems.append("empty message")
    path = error.get("path")
    if not (isinstance(path, str) and (path == "" or path.startswith("/"))):
        problems.append(f"path {path!r}")
    if error.get("code") == "not_found":
        problems.append("not_found for a known tool")
    return problems


def _check_envelope(tool_id: str, value: object, envelope: dict[str, object]) -> list[str]:
    """Every way the envelope breaks its promises (empty when it keeps them)."""
    problems = []
    if set(envelope) not in ({"result"}, {"error"}):
        return [f"keys {sorted(envelope)}"]
    text = mtcompute.dumps(envelope)
    if json.loads(text) != envelope:
        problems.append("dumps/loads round trip changes the envelope")
    if "error" in envelope:
        error = envelope["error"]
        assert isinstance(error, dict)
        problems += _check_error(error)
    else:
        problems += [
            f"output: {e.message}" for e in OUTPUT_SCHEMA[tool_id].iter_errors(envelope["result"])
        ]
        problems += [f"input: {e.message}" for e in INPUT_SCHEMA[tool_id].iter_errors(value)]
    return problems


@PROPERTY
@given(st.sampled_from(TOOLS), sts.json_values())
def test_execute_answers_any_json_value_with_an_envelope(tool_id: str, value: object) -> None:
    """Any JSON value gets exactly one of result/error, a known error code, a JSON Pointer."""
    envelope = mtcompute.execute(tool_id, VERSION, value)
    assert [] == _check_envelope(tool_id, value, envelope)


@PROPERTY
@given(st.sampled_from(sorted(CONTRACTS)), sts.json_values())
def test_every_shipped_tool_answers_any_json_value_with_an_envelope(
    tool_id: str, value: object
) -> None:
    """The same promises for every tool the package ships (not only the three above)."""
    envelope = mtcompute.execute(tool_id, VERSION, value)
    assert [] == _check_envelope(tool_id, value, envelope)


@PROPERTY
@given(st.sampled_from(TOOLS).flatmap(lambda t: st.tuples(st.just(t), sts.perturbed_inputs(t))))
def test_execute_answers_near_valid_inputs_with_an_envelope(case: tuple[str, Any]) -> None:
    """Valid inputs with fields broken, removed or added get an envelope keeping its promises."""
    tool_id, value = case
    envelope = mtcompute.execute(tool_id, VERSION, value)
    assert [] == _check_envelope(tool_id, value, envelope)


@PROPERTY
@given(st.sampled_from(TOOLS).flatmap(lambda t: st.tuples(st.just(t), sts.VALID_INPUTS[t])))
def test_valid_inputs_get_a_result(case: tuple[str, Any]) -> None:
    """Every input the strategies call valid is answered with a result (no error)."""
    tool_id, value = case
    assert ["result"] == list(mtcompute.execute(tool_id, VERSION, value))


@PROPERTY
@given(
    st.sampled_from(TOOLS).flatmap(
        lambda t: st.tuples(st.just(t), sts.json_values() | sts.perturbed_inputs(t, max_faults=3))
    )
)
def test_schema_invalid_inputs_get_an_error(case: tuple[str, Any]) -> None:
    """An input that breaks the input schema never gets a result."""
    tool_id, value = case
    if INPUT_SCHEMA[tool_id].is_valid(value):
        return
    assert ["error"] == list(mtcompute.execute(tool_id, VERSION, value))


@PROPERTY
@given(st.text(max_size=30), st.text(max_size=10), sts.json_values(max_leaves=5))
def test_unknown_tools_and_versions_are_not_found(
    tool_id: str, version: str, value: object
) -> None:
    """Any id or version outside the catalog is not_found, whatever the input."""
    if (tool_id, version) in {(t, VERSION) for t in TOOLS}:
        return
    assert "not_found" == mtcompute.execute(tool_id, version, value)["error"]["code"]


def _python_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # A named function: hypothesis inspects its source to check that it recurses.
    return st.one_of(
        st.tuples(children, children),
        st.lists(children, max_size=3),
        st.dictionaries(st.text(max_size=5), children, max_size=3),
    )


_python_values = st.recursive(
    st.one_of(
        st.floats(),
        st.binary(max_size=4),
        st.complex_numbers(max_magnitude=10),
        st.just(object()),
        sts.json_values(max_leaves=3),
    ),
    _python_containers,
    max_leaves=8,
)


@pytest.mark.parametrize("where", ["whole", "field"])
@PROPERTY
@given(st.sampled_from(TOOLS), st.sampled_from(list(sts.TOOL_FIELDS.values())), _python_values)
def test_execute_never_raises_on_python_values(
    where: str, tool_id: str, fields: tuple[str, ...], value: object
) -> None:
    """Non-JSON Python values (NaN, bytes, tuples, objects) get an envelope, never an exception."""
    raw = value if where == "whole" else dict.fromkeys(fields, value)
    envelope = mtcompute.execute(tool_id, VERSION, raw)
    code = envelope["error"]["code"] if "error" in envelope else "result"
    assert code in {*CODES, "result"}


def _chrf_by_fractions(stats: ChrfStatistics, beta: int) -> Fraction:
    """Popović 2015 eq. 1 with sacreBLEU's effective orders, in Fraction arithmetic: the
    oracle for the core's integer arithmetic."""
    effective = [
        (m, h, r)
        for m, h, r in zip(stats.matches, stats.hypothesis, stats.reference, strict=True)
        if h > 0 and r > 0
    ]
    if not effective:
        return Fraction(0)
    precision = sum((Fraction(m, h) for m, h, _ in effective), Fraction(0)) / len(effective)
    recall = sum((Fraction(m, r) for m, _, r in effective), Fraction(0)) / len(effective)
    if precision == 0 and recall == 0:
        return Fraction(0)
    beta2 = beta * beta
    return 100 * (1 + beta2) * precision * recall / (beta2 * precision + recall)


@st.composite
def _chrf_statistics(draw: st.DrawFn) -> ChrfStatistics:
    orders = draw(st.integers(1, 8))
    big = st.integers(0, 10 ** draw(st.sampled_from([1, 3, 12, 40])))
    hyp = tuple(draw(big) for _ in range(orders))
    ref = tuple(draw(big) for _ in range(orders))
    matches = tuple(draw(st.integers(0, min(h, r))) for h, r in zip(hyp, ref, strict=True))
    return ChrfStatistics(hyp, ref, matches)


@PROPERTY
@given(_chrf_statistics(), st.integers(1, 16))
def test_integer_chrf_equals_the_fraction_formula(stats: ChrfStatistics, beta: int) -> None:
    """chrf_ratio's reduced numerator/denominator, its float and its six-decimal text are the
    Fraction formula's, its float() and its half-even rounding."""
    expected = _chrf_by_fractions(stats, beta)
    numerator, denominator = chrf_ratio(stats, beta)
    assert (expected.numerator, expected.denominator) == (numerator, denominator)
    assert float(expected) == numerator / denominator
    assert _half_even(expected) == format_ratio(numerator, denominator)
    assert expected == chrf_fraction(stats, beta)


@PROPERTY
@given(st.integers(0, 10**30), st.integers(1, 10**30))
def test_six_decimal_text_is_half_even_for_any_fraction(numerator: int, denominator: int) -> None:
    """format_ratio agrees with the Fraction rounding oracle on unreduced inputs too."""
    assert _half_even(Fraction(numerator, denominator)) == format_ratio(numerator, denominator)
