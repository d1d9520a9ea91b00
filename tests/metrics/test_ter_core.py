"""TER's pure core (``mtcompute.metrics.ter.edits``, ``mtcompute.metrics.ter.tokenizer``) against
sacreBLEU 2.6.0's (the oracle, imported only by tests): per segment the edits and the average
reference length, sentence and corpus scores as Python floats (``==``), on a window of every
WMT pair and system with one and two references under the 16 option combinations, on
adversarial and generated inputs; the tokenizer on every WMT line. ``scripts/diff_ter.py``
runs the whole data."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import lib_ter
from sacrebleu.metrics.ter import TER
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacrebleuTercomTokenizer
from sacrebleu.utils import sum_of_lists

from mtcompute.metrics.ter import edits as ter
from mtcompute.metrics.ter.tokenizer import TercomTokenizer
from tests.conftest import ISSUE_HYPOTHESES, ISSUE_REFERENCES, WMT, load_script, wmt_lines
from tests.oracle import assert_sacrebleu

diff_ter = load_script("diff_ter")
COMBOS: tuple[dict[str, bool], ...] = diff_ter.COMBOS
PAIRS = sorted(f"{p.parent.parent.name}/{p.parent.name}" for p in WMT.glob("*/*/sys.*.txt"))
PAIRS = sorted(set(PAIRS))
FILES = sorted(WMT.glob("*/*/*.txt"))

EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES = ISSUE_HYPOTHESES, ISSUE_REFERENCES


def _transpose(references: list[list[str]]) -> list[list[str]]:
    """Per-segment references as sacreBLEU's reference sets (one list per set)."""
    return [list(column) for column in zip(*references, strict=True)]


def _differences(
    hypotheses: list[str], references: list[list[str]], combos: tuple[dict[str, bool], ...]
) -> list[tuple[dict[str, bool], object]]:
    """The option combinations under which a per-segment or corpus figure differs from
    sacreBLEU's (references per segment), with what differs."""
    found = []
    with diff_ter.memoized_edit_rates():
        for options in combos:
            outcome = diff_ter.compare(hypotheses, _transpose(references), options)
            if outcome.differing or not outcome.corpus_equal:
                found.append((options, outcome))
    return found


def _assert_same(hypotheses: list[str], references: list[list[str]], **options: bool) -> None:
    """Per segment and corpus figures equal to sacreBLEU's (references per segment)."""
    assert [] == _differences(hypotheses, references, (options,))


def sacrebleu_candidates(hypothesis: list[str], reference: list[str]) -> tuple[int, int]:
    """(shift candidates checked, gain of the last search) in sacreBLEU's own loop."""
    distance = lib_ter.BeamEditDistance(reference)
    checked, words = 0, hypothesis
    while True:
        gain, shifted, checked = lib_ter._shift(words, reference, distance, checked)
        if checked >= lib_ter._MAX_SHIFT_CANDIDATES or gain <= 0:
            return checked, gain
        words = shifted


# --- the issue's example and sacreBLEU's own test cases -----------------------------------------


def test_the_issue_example_gives_its_figures() -> None:
    """The example of issue 12: edits 1 and 2, lengths 6.5 and 9.0, TER 19.35483870967742."""
    statistics = ter.corpus_statistics(EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES, TercomTokenizer())
    sentences = [ter.score_from_statistics(*s) for s in statistics]
    total = ter.sum_statistics(statistics)
    expected = (
        [(1, 6.5), (2, 9.0)],
        [15.384615384615385, 22.22222222222222],
        (3, 15.5),
        19.35483870967742,
    )
    assert expected == (statistics, sentences, total, ter.score_from_statistics(*total))
    _assert_same(EXAMPLE_HYPOTHESES, EXAMPLE_REFERENCES)


SACREBLEU_CASES = [
    (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0.0),
    (["dddd eeee ffff"], ["aaaa bbbb cccc"], 100.0),
    ([""], ["a"], 100.0),
    (["a"], [""], 100.0),
    ([""], [""], 0.0),
    (["d e f g h a b c"], ["a b c d e f g h"], 12.5),
]


@pytest.mark.parametrize(("hypotheses", "references", "expected"), SACREBLEU_CASES)
def test_sacrebleus_own_cases_score_as_its_tests_expect(
    hypotheses: list[str], references: list[str], expected: float
) -> None:
    """sacreBLEU's test_ter.py cases (exact here: its test allows 0.001)."""
    statistics = ter.corpus_statistics(hypotheses, [[r] for r in references], TercomTokenizer())
    assert expected == ter.score_from_statistics(*ter.sum_statistics(statistics))
    _assert_same(hypotheses, [[r] for r in references])


def test_sacrebleus_realistic_case_is_its_score() -> None:
    """sacreBLEU's WMT 2019 dev example (its test expects 13.6 within 0.001)."""
    hypotheses = [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen'
        " oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere"
        " Größe .",
        "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .",
    ]
    references = [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen'
        " oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe"
        " beibehalten wird .",
        "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich"
        " über die Bühne bewegt .",
    ]
    expected = TER().corpus_score(hypotheses, [references]).score
    statistics = ter.corpus_statistics(hypotheses, [[r] for r in references], TercomTokenizer())
    assert expected == ter.score_from_statistics(*ter.sum_statistics(statistics))


TOKENIZER_CASES = [
    ({}, "a b c d", "a b c d"),
    ({}, "", ""),
    ({}, "a b c d.", "a b c d."),
    ({}, "A B C D.", "a b c d."),
    ({"no_punct": True}, "a b c d.", "a b c d"),
    ({"no_punct": True}, "A ; B ) C : D.", "a b c d"),
    ({"normalized": True}, "a b (c) d.", "a b ( c ) d ."),
    ({"normalized": True}, "Jim's car.", "jim 's car ."),
    ({"normalized": True}, "4.2", "4.2"),
    ({"normalized": True, "asian_support": True}, "美众院公布对特", "美 众 院 公 布 对 特"),
    ({"normalized": True, "asian_support": True}, "りの拳銃を持", "りの 拳 銃 を 持"),
]


@pytest.mark.parametrize(("options", "line", "expected"), TOKENIZER_CASES)
def test_sacrebleus_own_tokenizer_cases(options: dict[str, bool], line: str, expected: str) -> None:
    """sacreBLEU's test_tokenizer_ter.py cases."""
    assert expected == TercomTokenizer(**options)(line)


def test_the_tokenizer_signature_is_tercom() -> None:
    """The ``tok`` field of TER's signature."""
    assert "tercom" == TercomTokenizer(normalized=True).signature()


# --- the WMT data ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(WMT)))
def test_every_wmt_line_is_tokenized_as_sacrebleu_does(path: object) -> None:
    """Each line of the file, raw and right-stripped, tokenized once and twice as sacreBLEU
    does, line i under option combination i mod 16 (each combination sees a sixteenth of the
    lines here, all of them in scripts/diff_ter.py)."""
    lines = path.read_text(encoding="utf-8").split("\n")  # type: ignore[attr-defined]
    tokenizers = [(TercomTokenizer(**o), SacrebleuTercomTokenizer(**o)) for o in COMBOS]
    # (line index, text): each line raw and right-stripped, each distinct text once
    texts = [
        (i, text) for i, line in enumerate(lines) for text in dict.fromkeys((line, line.rstrip()))
    ]

    def answers(i: int, text: str, tokenize: Callable[[str], str]) -> tuple[str, str]:
        return tokenize(text), tokenize(tokenize(text))

    n = len(tokenizers)
    assert_sacrebleu(
        [answers(i, text, tokenizers[i % n][0]) for i, text in texts],
        "TercomTokenizer once and twice, combination i mod 16",
        COMBOS,
        lines,
        lambda: [answers(i, text, tokenizers[i % n][1]) for i, text in texts],
    )


def _window(references: list[list[str]]) -> list[int]:
    """The segments of the default run's window: the first six from segment 40 on (to 200,
    the sample's end) whose references are all at most 180 UTF-8 bytes (about 30 Latin words
    or 60 CJK characters: TER's cost grows fast with length, sacreBLEU's most; the long ones
    are the script's and LONG's)."""
    stop = min(200, len(references[0]))
    return [i for i in range(40, stop) if all(len(r[i].encode()) <= 180 for r in references)][:6]


@pytest.mark.parametrize("pair", PAIRS)
def test_a_window_of_every_system_scores_as_sacrebleu_does(pair: str) -> None:
    """Six segments of every system of the pair (:func:`_window`), against its first
    reference and its first two (where it has two), under each of the 16 option combinations:
    per segment edits, average reference length and sentence score, and the corpus figures,
    all equal."""
    folder = WMT / pair
    all_references = [wmt_lines(str(p.relative_to(WMT))) for p in sorted(folder.glob("ref.*.txt"))]
    segments = _window(all_references[:2])
    references = [[lines[i] for i in segments] for lines in all_references]
    configs = [references[:1], references[:2]] if len(references) > 1 else [references[:1]]
    differences = []
    for system in sorted(folder.glob("sys.*.txt")):
        lines = wmt_lines(str(system.relative_to(WMT)))
        hypotheses = [lines[i] for i in segments]
        with diff_ter.memoized_edit_rates():
            for options in COMBOS:
                for reference_sets in configs:
                    outcome = diff_ter.compare(hypotheses, reference_sets, options)
                    if outcome.differing or not outcome.corpus_equal:
                        differences.append((system.name, len(reference_sets), options, outcome))
    assert (6, []) == (len(segments), differences)


# --- adversarial inputs ------------------------------------------------------------------------

REPEATED = " ".join(["a b c d e"] * 6)
ADVERSARIAL: list[tuple[str, list[str], list[str]]] = [
    ("empty hypothesis", [""], ["a b c"]),
    ("empty reference", ["a b"], [""]),
    ("both empty", [""], [""]),
    ("blank lines", ["  \t "], [" \u3000 "]),
    ("an empty and a full reference", ["a b"], ["", "a b"]),
    ("the best reference comes second", ["x y z"], ["a b c", "x y"]),
    ("equal edits, first reference kept", ["a b"], ["a c", "c b"]),
    ("one shift fixes it", ["d e f g h a b c"], ["a b c d e f g h"]),
    ("repeated blocks", ["a a a a b b b b a a a a b b b b"], ["b b b b a a a a b b b b a a a a"]),
    ("candidate limit with a gain left", [REPEATED], [" ".join(reversed(REPEATED.split()))]),
    ("many of one word", [" ".join(["the"] * 80)], [" ".join(["the", "a"] * 45)]),
    ("hypothesis far shorter", ["b a"], [" ".join("abcdefghij" * 13)]),
    ("reference far shorter", [" ".join("abcdefghij" * 17)], ["j a"]),
    (
        "a shift farther than 50",
        [" ".join(["x"] * 60 + ["p", "q"])],
        [" ".join(["p", "q"] + ["y"] * 60)],
    ),
    (
        "blocks longer than 10",
        [" ".join("klmnopqrstuv") + " a b"],
        ["a b " + " ".join("klmnopqrstuv")],
    ),
    ("punctuation only", ['... ,,, !!! ?? ;: ()"'], ['?!.,;:()" .']),
    ("entities and line breaks", ["a &quot;b&quot; &amp; c\n-d\ne"], ['a "b" & cd e']),
    ("possessive then period", ["John's."], ["John's."]),
    (
        "digits and punctuation",
        ["1.2.3 1,2,3 1-2 a-1 .5 5. 4.2."],
        ["1.2.3 1 , 2 , 3 1 - 2 a-1 .5 5."],
    ),
    ("case", ["The THE the tHe"], ["the the the the"]),
    ("Chinese", ["美众院公布对特朗普的弹劾条款。"], ["美国众议院公布了对特朗普的弹劾条款，"]),
    (
        "Japanese",
        ["りの拳銃を持", "ひらがなだけ", "カタカナダケ"],
        ["りの 拳銃を持つ", "ひらがな", "カタカナ"],
    ),
    ("CJK punctuation", ["（测试）：，。、「引用」・ｰ"], ["(测试):,.、『引用』"]),
    (
        "CJK blocks",
        ["\u3400\u4dbf\u31c0\u2e80\u3300\uf900\ufe30\u3200\u3f22\u3f23"],
        ["\u3400 \u4dbf"],
    ),
    ("astral and zero-width", ["a\u200bb \U0001f600 \U00020000"], ["a b \U0001f600"]),
]

# 150 and 160 words, 37 distinct: reaches the 1,000-candidate limit and fills the row cache
LONG = (
    "long segment",
    [" ".join(str(i % 37) for i in range(150))],
    [" ".join(str((i * 7) % 37) for i in range(160))],
)


@pytest.mark.parametrize(
    ("name", "hypotheses", "references"),
    [*ADVERSARIAL, LONG],
    ids=[a[0] for a in [*ADVERSARIAL, LONG]],
)
def test_adversarial_inputs_score_as_sacrebleu_does(
    name: str, hypotheses: list[str], references: list[str]
) -> None:
    """Under each of the 16 option combinations: one hypothesis against all the references,
    or several hypotheses, one reference each."""
    per_segment = [references] if len(hypotheses) == 1 else [[r] for r in references]
    assert [] == _differences(hypotheses, per_segment, COMBOS)


def test_the_adversarial_cases_as_one_corpus_score_as_sacrebleu_does() -> None:
    """All the cases' first segments against their first references, as one corpus, under
    each of the 16 option combinations."""
    hypotheses = [case[1][0] for case in ADVERSARIAL]
    references = [[case[2][0]] for case in ADVERSARIAL]
    assert [] == _differences(hypotheses, references, COMBOS)


def test_the_candidate_limit_case_reaches_the_limit_with_a_gain_left() -> None:
    """The case that stops at 1,000 candidates does so with a positive gain, which sacreBLEU
    then leaves unapplied (so the adversarial test covers that rule)."""
    hypothesis = REPEATED.split()
    checked, gain = sacrebleu_candidates(hypothesis, list(reversed(hypothesis)))
    assert (True, True) == (checked >= ter.MAX_SHIFT_CANDIDATES, gain > 0)


def test_a_reference_is_tokenized_twice_as_sacrebleu_does() -> None:
    """With ``normalized``, ``John's.`` is ``john's .`` as a hypothesis and ``john 's .`` as a
    reference: 2 edits against itself, as in sacreBLEU."""
    statistics = ter.corpus_statistics(["John's."], [["John's."]], TercomTokenizer(normalized=True))
    expected = TER(normalized=True).sentence_score("John's.", ["John's."])
    assert [(2, 3.0)] == statistics
    assert (expected.num_edits, expected.ref_length) == statistics[0]


def test_the_row_cache_changes_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the row cache (its size limit at 0) every adversarial segment gets the same
    figures."""
    cases = [(h, refs) for _, hyps, refs in ADVERSARIAL for h in hyps]
    tokenizer = TercomTokenizer()
    cached = ter.corpus_statistics([h for h, _ in cases], [r for _, r in cases], tokenizer)
    monkeypatch.setattr(ter, "MAX_CACHE_SIZE", 0)
    uncached = ter.corpus_statistics([h for h, _ in cases], [r for _, r in cases], tokenizer)
    assert cached == uncached


# --- generated inputs --------------------------------------------------------------------------

SMALL_VOCABULARY = st.lists(st.sampled_from(["a", "b", "c"]), max_size=40)
TINY_VOCABULARY = st.lists(st.sampled_from(["a", "b"]), min_size=20, max_size=40)


@settings(max_examples=300, deadline=None)
@given(SMALL_VOCABULARY, st.lists(SMALL_VOCABULARY, min_size=1, max_size=3))
def test_small_vocabularies_score_as_sacrebleu_does(
    hypothesis: list[str], references: list[list[str]]
) -> None:
    """Three words, so shifts tie often: the same edits per reference, the same best one."""
    expected = [lib_ter.translation_edit_rate(hypothesis, r) for r in references]
    assert expected == [ter.translation_edit_rate(hypothesis, r) for r in references]
    sentence = TER(case_sensitive=True).sentence_score(
        " ".join(hypothesis), [" ".join(r) for r in references]
    )
    statistics = ter.segment_statistics(hypothesis, references)
    assert (sentence.num_edits, sentence.ref_length, sentence.score) == (
        *statistics,
        ter.score_from_statistics(*statistics),
    )


@settings(max_examples=15, deadline=None)
@given(TINY_VOCABULARY, TINY_VOCABULARY)
def test_two_word_vocabularies_of_long_segments_score_as_sacrebleu_does(
    hypothesis: list[str], reference: list[str]
) -> None:
    """Two words over long segments: many candidates per search, often the limit."""
    assert lib_ter.translation_edit_rate(hypothesis, reference) == ter.translation_edit_rate(
        hypothesis, reference
    )


PIECES = [
    *" \n.,-&;'s()\"?:!/0123456789aAbZ",
    *("&quot;", "&amp;", "&lt;", "&gt;", "\n-", "'s ", "美", "众", "り", "の", "カ", "ー"),
    *("\u3001", "\u3002", "\uff0c", "\uff08", "\u30fb", "\uff61", "\u3200", "\u31f0", "\u2e80"),
    *("\u3000", "\u00a0", "\u200b", "İ", "ß", "Σ", "\U00020000"),
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(TEXT, st.sampled_from(COMBOS))
def test_generated_text_is_tokenized_as_sacrebleu_does(text: str, options: dict[str, bool]) -> None:
    """Punctuation, entities, digits, CJK blocks and case-changing letters, once and twice."""
    ours, theirs = TercomTokenizer(**options), SacrebleuTercomTokenizer(**options)
    assert (theirs(text), theirs(theirs(text))) == (ours(text), ours(ours(text)))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=4), st.sampled_from(COMBOS))
def test_generated_corpora_score_as_sacrebleu_does(
    segments: list[tuple[str, str]], options: dict[str, bool]
) -> None:
    """Generated text, segment by segment and as a corpus."""
    _assert_same([h for h, _ in segments], [[r] for _, r in segments], **options)


# --- sums, scores and errors -------------------------------------------------------------------


def test_sums_add_one_float_at_a_time_as_sacrebleu_does() -> None:
    """Ten lengths of 0.1 add up to 0.9999999999999999, as ``sum_of_lists`` adds them."""
    statistics = [(1, 0.1)] * 10
    expected = sum_of_lists([list(s) for s in statistics])
    assert (10, 0.9999999999999999) == ter.sum_statistics(statistics)
    assert tuple(expected) == ter.sum_statistics(statistics)


@pytest.mark.parametrize(
    ("edits", "length", "expected"),
    [(3, 15.5, 19.35483870967742), (2, 0.0, 100.0), (0, 0.0, 0.0), (0, 4.0, 0.0), (5, 4.0, 125.0)],
)
def test_scores_follow_sacrebleus_rule(edits: int, length: float, expected: float) -> None:
    """100 * edits / length; 100 with edits and no reference words; 0 with neither."""
    theirs = TER()._compute_score_from_stats([edits, length]).score
    assert (expected, expected) == (theirs, ter.score_from_statistics(edits, length))


def test_a_segment_without_references_is_refused() -> None:
    """No references: a clear error, not sacreBLEU's division by zero."""
    expected = "a segment needs at least one reference"
    with pytest.raises(ValueError, match=re.escape(expected)) as caught:
        ter.segment_statistics(["a"], [])
    assert expected == str(caught.value)


def test_references_for_another_number_of_segments_are_refused() -> None:
    """Two hypotheses, references for one segment: a clear error naming both counts."""
    expected = "2 hypotheses but 1 reference lists (one list per segment expected)"
    with pytest.raises(ValueError, match=re.escape(expected)) as caught:
        ter.corpus_statistics(["a", "b"], [["a"]], TercomTokenizer())
    assert expected == str(caught.value)
