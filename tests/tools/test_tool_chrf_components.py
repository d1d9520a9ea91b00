"""chrf-components@1.0.0: one test per semantics line, one per error code per field, the
compositions (chrf-compute is char_order 6 with word_order 0, chrf-plus-plus-compute word_order
2), sacreBLEU 2.6.0 ``CHRF(char_order, word_order, beta, lowercase, eps_smoothing)`` on every
WMT pair with ``sacrebleu_compatible`` true and both averagings, properties."""

from __future__ import annotations

import copy
import itertools
import unicodedata
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF
from sacrebleu.utils import sum_of_lists

import mtcompute
from mtcompute.contracts import contract
from mtcompute.metrics.chrf.ngrams import EPSILON, format_score
from mtcompute.metrics.chrf.words import CHRF_WHITESPACE, split_words
from mtcompute.tools.chrf_components import ChrfComponents, ChrfOrder, chrf_components
from tests import strategies as sts
from tests.harness import (
    ToolHarness,
    contract_whitespace,
    result_of,
    tool_chunks,
    wmt_pairs,
    wmt_system,
)
from tests.tools.test_tool_chrf_compute import BASE
from tests.tools.test_tool_chrf_compute import ERRORS as CHRF_ERRORS
from tests.tools.test_tool_chrf_compute import VALIDATION_PAIRS as CHRF_VALIDATION_PAIRS
from tests.tools.test_tool_chrf_plus_plus_compute import TOL, WORD_CASES

TOOL = ("chrf-components", "1.0.0")
PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60)
KEYS = "hypotheses, references, beta, lowercase, char_order, word_order, averaging, "
KEYS += "sacrebleu_compatible"
COUNT_KEYS = ("hypothesis_ngrams", "reference_ngrams", "matches")


HARNESS = ToolHarness(TOOL, BASE)
run, input_with, error = HARNESS.run, HARNESS.input_with, HARNESS.error


def counts(result: dict[str, Any]) -> list[tuple[int, int, int]]:
    """(hypothesis_ngrams, reference_ngrams, matches) of every order."""
    return [tuple(o[k] for k in COUNT_KEYS) for o in result["orders"]]


def field(result: dict[str, Any], key: str) -> list[Any]:
    """One key of every order."""
    return [o[key] for o in result["orders"]]


def text(value: Fraction | None) -> str | None:
    """A fraction as the contract writes it."""
    return None if value is None else f"{value.numerator}/{value.denominator}"


def f_beta(p: Fraction, r: Fraction, beta: int = 2) -> Fraction:
    """(1 + beta^2) P R / (beta^2 P + R)."""
    return (1 + beta**2) * p * r / (beta**2 * p + r)


def one(hypothesis: str, reference: str, **options: Any) -> dict[str, Any]:
    """The result for one segment."""
    return run(hypotheses=[hypothesis], references=[reference], **options)


# --- one test per semantics line ------------------------------------------------------------


@HARNESS.semantics_line(0)
def test_orders_listed_and_character_ngrams() -> None:
    """Character orders 1..char_order, then word orders; chars without whitespace (line 1)."""
    assert [
        [("char", 1)],
        [("char", 1), ("char", 2), ("char", 3), ("word", 1)],
        [*(("char", n) for n in range(1, 11)), *(("word", n) for n in range(1, 5))],
        [*(("char", n) for n in range(1, 7)), ("word", 1), ("word", 2)],
        [("char", n) for n in range(1, 7)],
    ] == [
        [(o["kind"], o["n"]) for o in run(char_order=c, word_order=w)["orders"]]
        for c, w in ((1, 0), (3, 1), (10, 4), (6, 2), (6, 0))
    ]
    assert 6 == len(run(char_order=...)["orders"])
    spaces = sorted(contract_whitespace(contract(*TOOL)["semantics"][0]))
    assert (29, set(CHRF_WHITESPACE)) == (len(spaces), set(spaces))
    # Every whitespace code point, on either side and in runs, is removed from the characters.
    assert [[(2, 2, 2), (1, 1, 1)]] * 29 == [
        counts(one(f"{ws}a{ws}{ws}b{ws}", "ab", char_order=2)) for ws in spaces
    ]
    # U+200B and U+FEFF are characters; NFC "caf\u00e9" (4) against NFD "cafe\u0301" (5).
    nfc = unicodedata.normalize("NFC", "caf\u00e9")
    nfd = unicodedata.normalize("NFD", "caf\u00e9")
    assert [
        [(3, 2, 2), (2, 1, 0), (1, 0, 0)],
        [(2, 3, 2), (1, 2, 0), (0, 1, 0)],
        [(4, 5, 3), (3, 4, 2), (2, 3, 1), (1, 2, 0), (0, 1, 0)],
    ] == [
        counts(one("a\u200bb", "ab", char_order=3)),
        counts(one("ab", "a\ufeffb", char_order=3)),
        counts(one(nfc, nfd, char_order=5)),
    ]


@HARNESS.semantics_line(1)
def test_word_rule_and_word_orders() -> None:
    """Words split off one ASCII punctuation character; word n-grams up to 4 (line 2)."""
    # The word unigram count of each of chrf-plus-plus-compute's word cases is its word count.
    assert [len(words) for _, words in WORD_CASES] == [
        one(t, "x", char_order=1, word_order=1)["orders"][1]["hypothesis_ngrams"]
        for t, _ in WORD_CASES
    ]
    # "(Hi) there, you (hi)" -> "(Hi" ")" "there" "," "you" "(hi" ")": 7 words, against
    # "(hi) there , you" -> "(hi" ")" "there" "," "you" (5). Unigrams: 5 match either way (the
    # second "(hi" matches when the first does not). Bigrams: "(hi )", ") there", "there ,",
    # ", you": 4. Trigrams: lowercased "(hi ) there" also matches, 3, else 2; 4-grams 2, else 1.
    result = one(
        "(Hi) there, you (hi)", "(hi) there , you", char_order=1, word_order=4, lowercase=True
    )
    cased = one("(Hi) there, you (hi)", "(hi) there , you", char_order=1, word_order=4)
    assert [
        [(7, 5, 5), (6, 4, 4), (5, 3, 3), (4, 2, 2)],
        [(7, 5, 5), (6, 4, 4), (5, 3, 2), (4, 2, 1)],
    ] == [counts(result)[1:], counts(cased)[1:]]
    assert ["(Hi", ")", "there", ",", "you", "(hi", ")"] == split_words("(Hi) there, you (hi)")


NOTES = {"hypotheses": ["abcdefgh", "xyzw"], "references": ["abcdefgh", "xy"]}


@HARNESS.semantics_line(2)
def test_counts_summed_literally_or_as_sacrebleu_and_effective() -> None:
    """Counts summed over segments, literally or with sacreBLEU's zeroing; effective (line 3)."""
    literal = run(**NOTES, word_order=2)
    compatible = run(**NOTES, word_order=2, sacrebleu_compatible=True)
    # Segment 2, "xyzw" against "xy", has hypothesis n-grams 4, 3, 2, 1 and reference 2, 1;
    # its character 3- and 4-grams (2 and 1) are dropped with sacrebleu_compatible.
    assert [
        [
            (12, 10, 10),
            (10, 8, 8),
            (8, 6, 6),
            (6, 5, 5),
            (4, 4, 4),
            (3, 3, 3),
            (2, 2, 1),
            (0, 0, 0),
        ],
        [
            (12, 10, 10),
            (10, 8, 8),
            (6, 6, 6),
            (5, 5, 5),
            (4, 4, 4),
            (3, 3, 3),
            (2, 2, 1),
            (0, 0, 0),
        ],
        [True] * 7 + [False],
        [True] * 7 + [False],
    ] == [
        counts(literal),
        counts(compatible),
        field(literal, "effective"),
        field(compatible, "effective"),
    ]
    # A segment alone: the score under effective_order does not change (the dropped orders are
    # not effective either way); under per_order_f the order goes from F = 0 (P = 0, R = eps)
    # to F = eps (P = R = eps).
    effective = [one("xyzw", "xy", sacrebleu_compatible=c)["score_fraction"] for c in (False, True)]
    per_order = [
        Fraction(
            one("xyzw", "xy", averaging="per_order_f", sacrebleu_compatible=c)["score_fraction"]
        )
        for c in (False, True)
    ]
    assert (True, 100 * 2 * EPSILON / 6) == (
        effective[0] == effective[1],
        per_order[1] - per_order[0],
    )
    assert [[True, True, False], [False, False, False]] == [
        field(one("ab", "abc", char_order=3), "effective"),
        field(one("", "abc", char_order=3), "effective"),
    ]


def as_texts(p: list[Any], r: list[Any], f: list[Any], *means: Fraction) -> tuple[Any, ...]:
    """Per-order P, R, F and then the means (mean P, mean R, score) as fraction texts."""
    return ([text(x) for x in p], [text(x) for x in r], [text(x) for x in f], *map(text, means))


def averaged(result: dict[str, Any]) -> tuple[Any, ...]:
    """A result's per-order precision, recall and F, then its precision, recall and
    score_fraction."""
    per_order = (field(result, "precision"), field(result, "recall"), field(result, "f"))
    return (*per_order, result["precision"], result["recall"], result["score_fraction"])


@HARNESS.semantics_line(3)
def test_effective_order_averaging() -> None:
    """effective_order: P, R, F of effective orders, nulls elsewhere, means and score (line 4)."""
    # "abab" against "aba", char_order 5, word_order 2: characters 3/4, 2/3, 1/2 precise and
    # complete recall for orders 1-3; order 4 has no reference n-gram, order 5 none at all; one
    # word each, effective and unmatched (P = R = 0, f = 0); no word bigrams.
    result = one("abab", "aba", char_order=5, word_order=2)
    p = [Fraction(3, 4), Fraction(2, 3), Fraction(1, 2), None, None, Fraction(0), None]
    r = [Fraction(1), Fraction(1), Fraction(1), None, None, Fraction(0), None]
    f = [
        f_beta(a, b) if a else (None if a is None else Fraction(0))
        for a, b in zip(p, r, strict=True)
    ]
    mean_p = (Fraction(3, 4) + Fraction(2, 3) + Fraction(1, 2)) / 4
    mean_r = Fraction(3, 4)
    score = 100 * f_beta(mean_p, mean_r)
    assert (*as_texts(p, r, f, mean_p, mean_r, score), format_score(score)) == (
        *averaged(result),
        result["score"],
    )
    # No effective order: precision and recall null, score 0; both means 0: score 0.
    empty = one("", "abc")
    unmatched = one("ab", "cd", word_order=1)
    assert [(None, None, "0/1", [None] * 6), ("0/1", "0/1", "0/1", ["0/1"] * 3)] == [
        (empty["precision"], empty["recall"], empty["score_fraction"], field(empty, "f")),
        (
            unmatched["precision"],
            unmatched["recall"],
            unmatched["score_fraction"],
            field(unmatched, "f")[:2] + field(unmatched, "f")[-1:],
        ),
    ]


@HARNESS.semantics_line(4)
def test_per_order_f_averaging() -> None:
    """per_order_f: eps for an empty side or zero denominator, mean F over all orders (line 5)."""
    # The third contract example, by hand: "Hi!" against "Hi there!", character 1-4 and word
    # 1-2 orders. Order 3 has P = R = 0 (F = eps), order 4 no hypothesis n-gram (P = eps, R = 0,
    # F = 0), word bigrams P = R = 0 (F = eps).
    p = [Fraction(1), Fraction(1, 2), Fraction(0), EPSILON, Fraction(1), Fraction(0)]
    r = [Fraction(3, 8), Fraction(1, 7), Fraction(0), Fraction(0), Fraction(2, 3), Fraction(0)]
    f = [f_beta(a, b) if a or b else EPSILON for a, b in zip(p, r, strict=True)]
    result = one("Hi!", "Hi there!", char_order=4, word_order=2, averaging="per_order_f")
    score = 100 * sum(f) / 6
    assert (*as_texts(p, r, f, sum(p) / 6, sum(r) / 6, score), "1/10000000000000000") == (
        *averaged(result),
        text(EPSILON),
    )
    assert [Fraction(3, 7), Fraction(1, 6), EPSILON, Fraction(0), Fraction(5, 7), EPSILON] == f
    # Orders missing from both texts lower the score: identical "abc" is 50 + 50 eps, not 100;
    # two empty texts give 100 eps (every order P = R = F = eps).
    assert [("50.000000", 50 + 50 * EPSILON), ("0.000000", 100 * EPSILON)] == [
        (r["score"], Fraction(r["score_fraction"]))
        for r in (
            one("abc", "abc", averaging="per_order_f"),
            one("", "", averaging="per_order_f"),
        )
    ]


@HARNESS.semantics_line(5)
def test_corpus_segment_scores_and_compositions() -> None:
    """Corpus from summed counts, segments alone; chrf-compute and chrf-plus-plus-compute are
    char_order 6 with word_order 0 and 2 (line 6)."""
    data = {
        "hypotheses": ["The cat sat.", "xyzw", "", "Dogs (bark)!"],
        "references": ["The cat sat on the mat.", "xy", "abc", "dogs bark"],
        "beta": 3,
        "lowercase": True,
    }
    alone = [
        run(hypotheses=[h], references=[r], beta=3, lowercase=True, word_order=2)["score"]
        for h, r in zip(data["hypotheses"], data["references"], strict=True)
    ]
    summed = [
        tuple(sum(x) for x in zip(*column, strict=True))
        for column in zip(
            *(
                counts(run(hypotheses=[h], references=[r], lowercase=True, word_order=2))
                for h, r in zip(data["hypotheses"], data["references"], strict=True)
            ),
            strict=True,
        )
    ]
    result = result_of(TOOL[0], {**data, "word_order": 2})
    assert (alone, summed) == (result["segment_scores"], counts(result))
    assert composed(data) == [
        {k: r[k] for k in ("score", "score_fraction", "segment_scores")}
        for r in (result_of(TOOL[0], {**data, "word_order": 0}), result)
    ]
    for k, pair in enumerate(wmt_pairs()):
        _, hyps, refs = wmt_system(pair, k + 2)
        chunk = next(tool_chunks(hyps[:64], refs[:64]))
        wmt = {"hypotheses": list(hyps[: chunk.stop]), "references": list(refs[: chunk.stop])}
        assert composed(wmt) == [
            {key: r[key] for key in ("score", "score_fraction", "segment_scores")}
            for r in (
                result_of(TOOL[0], {**wmt, "word_order": 0}),
                result_of(TOOL[0], {**wmt, "word_order": 2}),
            )
        ]


def composed(data: dict[str, Any]) -> list[dict[str, Any]]:
    """score, score_fraction, segment_scores of chrf-compute and chrf-plus-plus-compute."""
    return [
        {k: r[k] for k in ("score", "score_fraction", "segment_scores")}
        for r in (result_of("chrf-compute", data), result_of("chrf-plus-plus-compute", data))
    ]


@HARNESS.semantics_line(6)
def test_defaults_and_lowercase() -> None:
    """char_order 6, word_order 0, beta 2, effective_order, not sacreBLEU's, case-sensitive;
    lowercase maps both texts before characters and words are taken (line 7)."""
    result = run()
    assert (6, 0, 2, False, "effective_order", False, 1, 6) == (
        result["char_order"],
        result["word_order"],
        result["beta"],
        result["lowercase"],
        result["averaging"],
        result["sacrebleu_compatible"],
        result["segment_count"],
        len(result["orders"]),
    )
    explicit = run(
        char_order=6, word_order=0, beta=2, lowercase=False, averaging="effective_order",
        sacrebleu_compatible=False,
    )  # fmt: skip
    assert result == explicit
    assert list(contract(*TOOL)["output_schema"]["properties"]) == list(result)
    sigma = "\u039f\u0394\u039f\u03a3."  # lowercases to "οδος." (final sigma)
    assert [
        "100/1",
        "100/1",
        "100/1",
    ] == [
        one("The Cat.", "the cat .", lowercase=True, word_order=2)["score_fraction"],
        one(sigma, "\u03bf\u03b4\u03bf\u03c2 .", lowercase=True, word_order=2)["score_fraction"],
        one("\u0130", "i\u0307", lowercase=True, word_order=1)["score_fraction"],
    ]
    # Case-sensitive, "The Cat." against "the cat .": of the words only "." matches.
    assert (3, 3, 1) == counts(one("The Cat.", "the cat .", word_order=1))[-1]
    # integral floats are integers, echoed as such
    floats = run(char_order=3.0, word_order=1.0, beta=3.0)
    assert (3, 1, 3, int, '"char_order":3,"word_order":1,"beta":3,') == (
        floats["char_order"],
        floats["word_order"],
        floats["beta"],
        type(floats["char_order"]),
        mtcompute.dumps(floats)[1:40],
    )


# --- sacreBLEU 2.6.0 CHRF on every WMT pair ---------------------------------------------------

# (char_order, word_order, beta, lowercase): chrF++ in every pair, and one more, rotating.
CONFIGS = [
    (6, 0, 2, False),
    (6, 2, 3, True),
    (4, 1, 1, False),
    (10, 4, 2, False),
    (1, 3, 2, True),
    (8, 2, 16, False),
    (3, 0, 3, True),
    (2, 2, 1, False),
    (5, 4, 2, True),
    (7, 1, 4, False),
]


@pytest.mark.parametrize("pair", wmt_pairs())
@HARNESS.semantics_line(7)
def test_equals_sacrebleu_on_wmt(pair: str) -> None:
    """With sacrebleu_compatible true, both averagings equal sacreBLEU 2.6.0 CHRF(char_order,
    word_order, beta, lowercase, eps_smoothing) corpus and sentence scores to six decimals
    (1e-9 exact against its floats), with its summed counts exactly, on the first two
    tool-sized chunks of a system of every pair (line 8)."""
    k = wmt_pairs().index(pair)
    name, hyps, refs = wmt_system(pair, k + 1)
    problems, compared = [], 0
    for chunk in itertools.islice(tool_chunks(hyps, refs), 2):
        h, r = list(hyps[chunk.start : chunk.stop]), list(refs[chunk.start : chunk.stop])
        for char_order, word_order, beta, lowercase in ((6, 2, 2, False), CONFIGS[k % 10]):
            extractor = CHRF(char_order, word_order, beta, lowercase)
            stats = extractor._extract_corpus_statistics(h, [r])
            total = sum_of_lists(stats)
            for averaging in ("effective_order", "per_order_f"):
                metric = CHRF(
                    char_order,
                    word_order,
                    beta,
                    lowercase,
                    eps_smoothing=averaging != "effective_order",
                )
                ours = chrf_components(
                    h, r, beta, lowercase, char_order, word_order, averaging, True
                )
                where = f"{name} {chunk} {char_order},{word_order},{beta},{lowercase} {averaging}"
                theirs = [metric._aggregate_and_compute(stats).score]
                theirs += [metric._compute_score_from_stats(s).score for s in stats]
                exact = [ours.fraction, *ours.segment_fractions]
                texts = [ours.score, *ours.segment_scores]
                flat = [
                    x
                    for o in ours.orders
                    for x in (o.hypothesis_ngrams, o.reference_ngrams, o.matches)
                ]
                if flat != list(total):
                    problems.append(f"{where}: counts {flat} vs {list(total)}")
                for i, (a, b, s) in enumerate(zip(exact, theirs, texts, strict=True)):
                    compared += 1
                    if abs(float(a) - b) > TOL or s != f"{b:.6f}":
                        problems.append(f"{where} {'corpus' if i == 0 else i - 1}: {s} {b}")
    assert ([], True) == (problems[:5], compared >= 400)


def test_sacrebleu_public_api_and_its_zeroing() -> None:
    """sacreBLEU's public corpus_score and sentence_score equal the tool with
    sacrebleu_compatible true; without it the docs/decisions.md example differs."""
    hyps = ["The cat sat.", "xyzw", "abcdefgh", "Hi!"]
    refs = ["The cat sat on the mat.", "xy", "abcdefgh", "Hi there!"]
    problems = []
    for averaging in ("effective_order", "per_order_f"):
        metric = CHRF(word_order=2, eps_smoothing=averaging == "per_order_f")
        ours = chrf_components(
            hyps, refs, word_order=2, averaging=averaging, sacrebleu_compatible=True
        )
        theirs = [metric.corpus_score(hyps, [refs]).score]
        theirs += [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
        for a, b in zip([ours.fraction, *ours.segment_fractions], theirs, strict=True):
            if abs(float(a) - b) > TOL:
                problems.append(f"{averaging}: {float(a)} vs {b}")
    notes = CHRF().corpus_score(NOTES["hypotheses"], [NOTES["references"]]).score
    assert ([], "98.714953", "97.084367", f"{notes:.6f}") == (
        problems,
        run(**NOTES, sacrebleu_compatible=True)["score"],
        run(**NOTES)["score"],
        "98.714953",
    )


@st.composite
def components_inputs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid chrf-components input with every option drawn."""
    data = draw(sts.chrf_inputs())
    data["char_order"] = draw(st.integers(1, 10))
    data["word_order"] = draw(st.integers(0, 4))
    data["averaging"] = draw(st.sampled_from(["effective_order", "per_order_f"]))
    data["sacrebleu_compatible"] = draw(st.booleans())
    return data


@PROPERTY
@given(components_inputs())
def test_generated_inputs_equal_sacrebleu(data: dict[str, Any]) -> None:
    """Generated inputs with sacrebleu_compatible true: sacreBLEU's corpus and sentence
    scores, within 1e-9."""
    data["sacrebleu_compatible"] = True
    ours = chrf_components(**data)
    metric = CHRF(
        data["char_order"],
        data["word_order"],
        data.get("beta", 2),
        data.get("lowercase", False),
        eps_smoothing=data["averaging"] == "per_order_f",
    )
    stats = metric._extract_corpus_statistics(data["hypotheses"], [data["references"]])
    theirs = [metric._aggregate_and_compute(stats).score]
    theirs += [metric._compute_score_from_stats(s).score for s in stats]
    exact = [ours.fraction, *ours.segment_fractions]
    assert [True] * len(theirs) == [
        abs(float(a) - b) <= TOL for a, b in zip(exact, theirs, strict=True)
    ], (exact, theirs)


@HARNESS.semantics_line(8)
def test_fractions_and_rounding() -> None:
    """Fractions are reduced "n/d" (0/1, 1/1 at the ends); score rounds half-even (line 9)."""
    # "aaaa" against "aa": order 1 precision 2/4 -> "1/2", recall "1/1"; order 4 no match.
    result = one("aaaa", "aa", char_order=2)
    assert (["1/2", "1/3"], ["1/1", "1/1"]) == (field(result, "precision"), field(result, "recall"))
    # chrF1 with one effective order is 200 m / (h + r): 200 / 1024 = 0.1953125, a tie, down;
    # 600 / 1024 = 0.5859375 up.
    assert [("0.195312", "25/128"), ("0.585938", "75/128")] == [
        (r["score"], r["score_fraction"])
        for r in (
            one("a", "a" + "b" * 1022, beta=1, char_order=1),
            run(
                hypotheses=["a"] * 3,
                references=["a" + "b" * 339, "a" + "b" * 339, "a" + "b" * 340],
                beta=1,
                char_order=1,
            ),
        )
    ]
    same = one("abc de", "abc de", word_order=2)  # 5 characters: order 6 is not effective
    assert ("100.000000", "100/1", "1/1", ["1/1"] * 5 + [None, "1/1", "1/1"]) == (
        same["score"],
        same["score_fraction"],
        same["precision"],
        field(same, "f"),
    )


@HARNESS.semantics_line(9)
def test_validation_order_and_inputs_not_mutated() -> None:
    """chrf-compute's order, then char_order, word_order, averaging, sacrebleu_compatible
    (line 10); inputs stay as given."""
    assert [(p[2], p[3], p[4]) for p in VALIDATION_PAIRS] == [error(p[1]) for p in VALIDATION_PAIRS]
    raw = {
        "hypotheses": ["The CAT\u00a0sat.", "\u039f\u0394\u039f\u03a3"],
        "references": ["the cat sat .", "\u03bf\u03b4\u03bf\u03c2"],
        "beta": 3.0,
        "lowercase": True,
        "char_order": 2.0,
        "word_order": 2,
        "averaging": "per_order_f",
        "sacrebleu_compatible": True,
    }
    before = copy.deepcopy(raw)
    assert ("100.000000", before) == (mtcompute.execute(*TOOL, raw)["result"]["score"], raw)


# --- the validation order: inputs that break two rules at once ------------------------------

_UNKNOWN_MESSAGE = f'Unknown key "zz" in the input; expected only {KEYS}.'
VALIDATION_PAIRS = [
    (case, raw, code, path, _UNKNOWN_MESSAGE if path == "/zz" else message)
    for case, raw, code, path, message in CHRF_VALIDATION_PAIRS
] + [
    (
        "bad lowercase + bad char_order",
        input_with(lowercase="yes", char_order=0),
        "invalid_input",
        "/lowercase",
        'Expected true or false at /lowercase, got the string "yes".',
    ),
    (
        "lone surrogate + bad char_order",
        input_with(hypotheses=["\ud800"], char_order=11),
        "invalid_input",
        "/hypotheses/0",
        "Expected text without lone surrogates at /hypotheses/0, got U+D800 at index 0.",
    ),
    (
        "bad char_order + bad word_order",
        input_with(char_order=11, word_order=-1),
        "invalid_input",
        "/char_order",
        "Expected an integer of at most 10 at /char_order, got 11.",
    ),
    (
        "bad word_order + bad averaging",
        input_with(word_order=5, averaging="eps"),
        "invalid_input",
        "/word_order",
        "Expected an integer of at most 4 at /word_order, got 5.",
    ),
    (
        "bad averaging + bad sacrebleu_compatible",
        input_with(averaging=None, sacrebleu_compatible="true"),
        "invalid_input",
        "/averaging",
        "Expected one of effective_order, per_order_f at /averaging, got null.",
    ),
    (
        "over 65536 bytes + bad char_order",
        input_with(hypotheses=["a" * 65_536], references=["b"], char_order=0),
        "limit_exceeded",
        "",
        "Expected at most 65536 UTF-8 bytes of text in all (limit max text bytes), got 65537.",
    ),
    (
        "unknown key + bad averaging",
        {**BASE, "averaging": 1, "eps_smoothing": True},
        "invalid_input",
        "/eps_smoothing",
        f'Unknown key "eps_smoothing" in the input; expected only {KEYS}.',
    ),
]


test_validation_order_pair = HARNESS.validation_pair_test(VALIDATION_PAIRS)


# --- one test per error code per input field -----------------------------------------------

ERRORS = [e for e in CHRF_ERRORS if e[2] != "unknown key"] + [
    (
        "input",
        "invalid_input",
        "unknown key",
        input_with(whitespace=True),
        "/whitespace",
        f'Unknown key "whitespace" in the input; expected only {KEYS}.',
    ),
    (
        "char_order",
        "invalid_input",
        "0",
        input_with(char_order=0),
        "/char_order",
        "Expected an integer of at least 1 at /char_order, got 0.",
    ),
    (
        "char_order",
        "invalid_input",
        "11",
        input_with(char_order=11),
        "/char_order",
        "Expected an integer of at most 10 at /char_order, got 11.",
    ),
    (
        "char_order",
        "invalid_input",
        "2.5",
        input_with(char_order=2.5),
        "/char_order",
        "Expected an integer at /char_order, got 2.5.",
    ),
    (
        "char_order",
        "invalid_input",
        "string",
        input_with(char_order="6"),
        "/char_order",
        'Expected an integer at /char_order, got the string "6".',
    ),
    (
        "word_order",
        "invalid_input",
        "-1",
        input_with(word_order=-1),
        "/word_order",
        "Expected an integer of at least 0 at /word_order, got -1.",
    ),
    (
        "word_order",
        "invalid_input",
        "5",
        input_with(word_order=5),
        "/word_order",
        "Expected an integer of at most 4 at /word_order, got 5.",
    ),
    (
        "word_order",
        "invalid_input",
        "true",
        input_with(word_order=True),
        "/word_order",
        "Expected an integer at /word_order, got true.",
    ),
    (
        "averaging",
        "invalid_input",
        "sacreBLEU's name",
        input_with(averaging="eps_smoothing"),
        "/averaging",
        "Expected one of effective_order, per_order_f at /averaging, got the string "
        '"eps_smoothing".',
    ),
    (
        "averaging",
        "invalid_input",
        "case",
        input_with(averaging="Effective_Order"),
        "/averaging",
        "Expected one of effective_order, per_order_f at /averaging, got the string "
        '"Effective_Order".',
    ),
    (
        "averaging",
        "invalid_input",
        "array",
        input_with(averaging=["per_order_f"]),
        "/averaging",
        "Expected one of effective_order, per_order_f at /averaging, got an array of 1 item.",
    ),
    (
        "sacrebleu_compatible",
        "invalid_input",
        "string",
        input_with(sacrebleu_compatible="true"),
        "/sacrebleu_compatible",
        'Expected true or false at /sacrebleu_compatible, got the string "true".',
    ),
    (
        "sacrebleu_compatible",
        "invalid_input",
        "0",
        input_with(sacrebleu_compatible=0),
        "/sacrebleu_compatible",
        "Expected true or false at /sacrebleu_compatible, got 0.",
    ),
]


def test_limits_are_chrf_computes_and_inclusive() -> None:
    """Limits and the text fields' schemas are chrf-compute's; 256 segments of the largest
    orders and 65,536 bytes are accepted."""
    ours, seed = contract(*TOOL), contract("chrf-compute", "1.0.0")
    assert seed["limits"] == ours["limits"]
    assert [(256, 14), (1, 6)] == [
        (r["segment_count"], len(r["orders"]))
        for r in (
            run(
                hypotheses=["ab cd."] * 256,
                references=["abc"] * 256,
                char_order=10,
                word_order=4,
                averaging="per_order_f",
            ),
            run(hypotheses=["a" * 32_768], references=["\u00e9" * 16_384]),
        )
    ]


TYPED_FAULTS = {
    "invalid_input": input_with(word_order=7),
    "limit_exceeded": input_with(hypotheses=["ab"] * 257, references=["abc"] * 257),
}
HARNESS.declare(ERRORS, typed_faults=TYPED_FAULTS)


def test_typed_function_returns_frozen_result() -> None:
    """chrf_components gives the first example's numbers in frozen objects."""
    output, result = HARNESS.typed_example(chrf_components)
    assert (
        Fraction(2309500, 38891),
        Fraction(1),
        Fraction(4619, 8568),
        ("char", 1, 10, 18, 10, True, Fraction(1), Fraction(5, 9), Fraction(25, 41)),
        output,
    ) == (
        result.fraction,
        result.precision,
        result.recall,
        (
            result.orders[0].kind,
            result.orders[0].n,
            result.orders[0].hypothesis_ngrams,
            result.orders[0].reference_ngrams,
            result.orders[0].matches,
            result.orders[0].effective,
            result.orders[0].precision,
            result.orders[0].recall,
            result.orders[0].f,
        ),
        result.to_dict(),
    )
    assert (True, True) == (
        isinstance(result, ChrfComponents),
        isinstance(result.orders[0], ChrfOrder),
    )
    HARNESS.assert_frozen(result, "ratio")


# --- properties -------------------------------------------------------------------------------


@PROPERTY
@given(components_inputs())
def test_values_stay_in_range_and_averages_are_means(data: dict[str, Any]) -> None:
    """Scores in [0, 100]; P, R, F in [0, 1]; the top-level precision and recall are the means
    of the orders' non-null values; per_order_f's score is 100 times the mean F."""
    result = result_of(TOOL[0], data)
    orders = result["orders"]
    values = [
        Fraction(o[k]) for o in orders for k in ("precision", "recall", "f") if o[k] is not None
    ]
    scores = [Fraction(result["score_fraction"])]
    scores += [Fraction(s) for s in result["segment_scores"]]
    means = []
    for key in ("precision", "recall"):
        present = [Fraction(o[key]) for o in orders if o[key] is not None]
        means.append(text(sum(present, Fraction(0)) / len(present)) if present else None)
    per_order_f = data["averaging"] == "per_order_f"
    assert (True, True, means, True) == (
        all(0 <= v <= 1 for v in values),
        all(0 <= s <= 100 for s in scores),
        [result["precision"], result["recall"]],
        not per_order_f
        or Fraction(result["score_fraction"])
        == 100 * sum(Fraction(o["f"]) for o in orders) / len(orders),
    )


@PROPERTY
@given(components_inputs())
def test_counts_add_up_over_segments(data: dict[str, Any]) -> None:
    """Each order's counts are the sums of every segment's counts alone; matches at most both
    counts; effective exactly when both counts are positive."""
    result = result_of(TOOL[0], data)
    alone = [
        counts(result_of(TOOL[0], {**data, "hypotheses": [h], "references": [r]}))
        for h, r in zip(data["hypotheses"], data["references"], strict=True)
    ]
    summed = [
        tuple(sum(x) for x in zip(*column, strict=True)) for column in zip(*alone, strict=True)
    ]
    assert (summed, field(result, "effective"), True) == (
        counts(result),
        [h > 0 and r > 0 for h, r, _ in counts(result)],
        all(m <= min(h, r) for h, r, m in counts(result)),
    )


@PROPERTY
@given(st.lists(sts.texts(), min_size=1, max_size=4), components_inputs())
def test_identical_texts_score_100(texts: list[str], options: dict[str, Any]) -> None:
    """Identical texts score 100 under effective_order (0 if all whitespace); under
    per_order_f exactly when every order has an n-gram, else less."""
    data = {**options, "hypotheses": texts, "references": texts}
    result = result_of(TOOL[0], data)
    lowercase = data.get("lowercase", False)
    expected = []
    for t in texts:
        chars = len("".join(t.lower().split() if lowercase else t.split()))
        words = len(split_words(t.lower() if lowercase else t))
        full = chars >= data["char_order"] and words >= data["word_order"]
        if data["averaging"] == "effective_order":
            expected.append(chars > 0)
        else:
            expected.append(full)
    assert expected == [s == "100.000000" for s in result["segment_scores"]]


@PROPERTY
@given(sts.chrf_inputs())
def test_compositions_on_generated_inputs(data: dict[str, Any]) -> None:
    """char_order 6 with word_order 0 is chrf-compute, with word_order 2 chrf-plus-plus-compute."""
    assert composed(data) == [
        {k: r[k] for k in ("score", "score_fraction", "segment_scores")}
        for r in (result_of(TOOL[0], data), result_of(TOOL[0], {**data, "word_order": 2}))
    ]
