"""The metric packages' sacreBLEU rules (mtcompute.metrics.*.score) against sacreBLEU 2.6.0:
its float steps for arbitrary statistics, and corpus BLEU/chrF/chrF++ of a WMT test set with two
references."""

from __future__ import annotations

from typing import Any

import pytest
import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from mtcompute import counting
from mtcompute.metrics import _base as score_line
from mtcompute.metrics.bleu import score as sacre_bleu
from mtcompute.metrics.chrf import score as chrf_scoring
from mtcompute.metrics.chrf.sacrebleu_statistics import chrf_f_score
from mtcompute.metrics.ter import score as ter_scoring
from tests.conftest import ISSUE_HYPOTHESES, ISSUE_REFERENCES, kernel_switch, wmt_lines
from tests.oracle import answer

COUNT = st.integers(0, 50)
SMOOTHING = st.sampled_from(sacre_bleu.BLEU_SMOOTHING)
SMOOTH_VALUE = st.none() | st.sampled_from([0, 1, 2, 0.01, 0.5, 0.1])


@st.composite
def bleu_stats(draw: st.DrawFn) -> tuple[list[int], list[int], int, int, int]:
    order = draw(st.integers(1, 6))
    totals = draw(st.lists(COUNT, min_size=order, max_size=order))
    correct = [draw(st.integers(0, t)) for t in totals]
    return correct, totals, draw(COUNT), draw(COUNT), order


@given(bleu_stats(), SMOOTHING, SMOOTH_VALUE, st.booleans())
def test_compute_bleu_is_sacrebleus(
    stats: tuple[list[int], list[int], int, int, int],
    method: str,
    value: float | None,
    effective: bool,
) -> None:
    """Every field of BLEU.compute_bleu, for any statistics and settings (add-k's in-place
    increments of counts and totals included)."""
    correct, totals, sys_len, ref_len, order = stats
    theirs = BLEU.compute_bleu(
        list(correct), list(totals), sys_len, ref_len, method, value, effective, order
    )
    ours = sacre_bleu.compute_bleu(
        correct, totals, sys_len, ref_len, method, value, effective, order
    )
    expected = (theirs.score, theirs.counts, theirs.totals, theirs.precisions, theirs.bp)
    assert expected == (
        ours.score,
        list(ours.counts),
        list(ours.totals),
        list(ours.precisions),
        ours.bp,
    )
    result = sacre_bleu.BleuResult(
        ours.score, ours.counts, ours.totals, ours.precisions, ours.bp, sys_len, ref_len
    )
    assert str(theirs) == str(result)


@st.composite
def chrf_stats(draw: st.DrawFn) -> tuple[list[int], int]:
    order = draw(st.integers(1, 8))
    flat: list[int] = []
    for _ in range(order):
        hyp, ref = draw(COUNT), draw(COUNT)
        flat += (hyp, ref, draw(st.integers(0, min(hyp, ref))))
    return flat, order


@given(chrf_stats(), st.integers(1, 4), st.booleans())
def test_chrf_f_score_is_sacrebleus(stats: tuple[list[int], int], beta: int, eps: bool) -> None:
    """CHRF._compute_f_score, bit for bit, with and without epsilon smoothing."""
    flat, order = stats
    metric = CHRF(char_order=order, word_order=0, beta=beta, eps_smoothing=eps)
    assert metric._compute_f_score(flat) == chrf_f_score(flat, order, beta, eps)


def _two_references(pair: str) -> tuple[list[str], list[str], list[str]]:
    folder = f"generaltest2022/{pair}"
    return (
        wmt_lines(f"{folder}/sys.Online-B.txt"),
        wmt_lines(f"{folder}/ref.A.txt"),
        wmt_lines(f"{folder}/ref.B.txt"),
    )


def test_corpus_bleu_and_chrf_with_two_references_are_sacrebleus() -> None:
    """Score, string and signature of corpus BLEU, chrF and chrF++ on en-de with ref.A and
    ref.B, as sacreBLEU's corpus_score and get_signature give them."""
    hyps, ref_a, ref_b = _two_references("en-de")
    per_segment = [list(refs) for refs in zip(ref_a, ref_b, strict=True)]
    cases: list[tuple[object, object]] = [
        (BLEU(), sacre_bleu.BleuOptions()),
        (
            BLEU(lowercase=True, smooth_method="floor"),
            sacre_bleu.BleuOptions(lowercase=True, smooth_method="floor"),
        ),
        (CHRF(), chrf_scoring.ChrfOptions()),
        (CHRF(word_order=2), chrf_scoring.ChrfOptions(word_order=2)),
        (CHRF(beta=3, eps_smoothing=True), chrf_scoring.ChrfOptions(beta=3, eps_smoothing=True)),
    ]
    for metric, options in cases:
        if isinstance(options, sacre_bleu.BleuOptions):
            ours: sacre_bleu.BleuResult | chrf_scoring.ChrfResult = sacre_bleu.corpus_bleu(
                hyps, per_segment, options
            )
            fields = sacre_bleu.bleu_signature_fields(options, 2, options.tokenizer().signature)
        else:
            assert isinstance(options, chrf_scoring.ChrfOptions)
            ours = chrf_scoring.corpus_chrf(hyps, per_segment, options)
            fields = chrf_scoring.chrf_signature_fields(options, 2)

        def sacrebleus(metric: Any = metric) -> tuple[float, str, str, str, str]:
            theirs = metric.corpus_score(hyps, [ref_a, ref_b])
            signature = str(metric.get_signature())
            return (
                theirs.score,
                str(theirs),
                signature,
                theirs.format(signature=signature, is_json=True),
                metric.get_signature().format(short=True),
            )

        score, text, signature, json_text, short = answer(
            "corpus_score: score, str, signature, JSON, short signature",
            repr(options),
            (hyps, ref_a, ref_b),
            sacrebleus,
        )
        assert (score, text, signature) == (
            ours.score,
            str(ours),
            score_line.format_signature(fields),
        )
        assert json_text == ours.format(signature=signature, is_json=True)
        assert short == score_line.format_signature(fields, short=True)


def test_sacrebleu_version_is_the_oracles() -> None:
    """The version the signatures print is the installed oracle's."""
    assert sacrebleu.__version__ == score_line.SACREBLEU_VERSION


TER_OPTIONS = [
    {},
    {"normalized": True},
    {"no_punct": True, "case_sensitive": True},
    {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
]


def test_corpus_ter_with_two_references_is_sacrebleus() -> None:
    """Per-segment statistics, corpus score, string and signatures of TER on 300 en-de
    segments with ref.A and ref.B, under four option sets, as sacreBLEU's TER gives them."""
    hyps, ref_a, ref_b = (lines[:300] for lines in _two_references("en-de"))
    per_segment = [list(refs) for refs in zip(ref_a, ref_b, strict=True)]
    for kwargs in TER_OPTIONS:
        options = ter_scoring.TerOptions(**kwargs)
        ours = ter_scoring.corpus_ter(hyps, per_segment, options)

        def sacrebleus(kwargs: dict[str, bool] = kwargs) -> tuple[Any, ...]:
            metric = TER(**kwargs)
            theirs = metric.corpus_score(hyps, [ref_a, ref_b])
            segments = [list(s) for s in metric._extract_corpus_statistics(hyps, [ref_a, ref_b])]
            signature = metric.get_signature()
            return (
                (theirs.score, theirs.num_edits, theirs.ref_length, str(theirs)),
                segments,
                str(signature),
                signature.format(short=True),
            )

        corpus, segments, signature, short = answer(
            "TER corpus_score, statistics, signature, short signature",
            sorted(kwargs.items()),
            (hyps, ref_a, ref_b),
            sacrebleus,
        )
        assert corpus == [ours.score, ours.num_edits, ours.ref_length, str(ours)]
        assert segments == [list(s) for s in ter_scoring.ter_statistics(hyps, per_segment, options)]
        fields = ter_scoring.ter_signature_fields(options, 2)
        assert signature == score_line.format_signature(fields)
        assert short == score_line.format_signature(
            fields, short=True, abbreviations=ter_scoring.TER_ABBREVIATIONS
        )


def test_ter_of_the_issue_example() -> None:
    """The ter-compute example: 19.35483870967742 from 3 edits over 15.5 words."""
    hyps, refs = ISSUE_HYPOTHESES, ISSUE_REFERENCES
    options = ter_scoring.TerOptions()
    assert ter_scoring.ter_statistics(hyps, refs, options) == [(1, 6.5), (2, 9.0)]
    assert ter_scoring.corpus_ter(hyps, refs, options) == ter_scoring.TerResult(
        19.35483870967742, 3, 15.5
    )
    assert score_line.format_signature(ter_scoring.ter_signature_fields(options, 2)) == (
        "nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
    )


# -- references prepared once ------------------------------------------------------------------

_ONCE_SEGMENTS = 50  # en-de segments of the references-once checks


def _once_input() -> tuple[list[list[str]], list[list[str]]]:
    """Two en-de systems' first segments and both references per segment, a few texts made
    awkward (capitals, sigma, trailing whitespace, an empty line)."""
    count = _ONCE_SEGMENTS
    systems = [
        wmt_lines(f"generaltest2022/en-de/sys.{name}.txt")[:count] for name in ("Online-B", "PROMT")
    ]
    ref_a = wmt_lines("generaltest2022/en-de/ref.A.txt")[:count]
    ref_b = wmt_lines("generaltest2022/en-de/ref.B.txt")[:count]
    systems[0][:3] = ["ΟΔΟΣ ΣΟΦΟΣ.  ", "", "Straße, GROSS!\t"]
    ref_a[:3] = ["οδος σοφος.", " ", "STRASSE, gross!"]
    return systems, [list(pair) for pair in zip(ref_a, ref_b, strict=True)]


def _int64_rows(buffer: bytes, width: int) -> list[list[int]]:
    """A buffer of native int64 values as rows of ``width``."""
    values = memoryview(buffer).cast("q").tolist()
    return [values[i : i + width] for i in range(0, len(values), width)]


def test_bleu_references_once_equal_bleu_statistics() -> None:
    """bleu_statistics_of (and bleu_rows_of, its rows as one int64 buffer) against
    bleu_references gives bleu_statistics's totals and segment rows for each system, every
    tokenizer the kernel applies or not (13a, none, intl, zh, char), lowercased or not, two
    references, kernel and pure path."""
    systems, refs = _once_input()
    for pure in ("0", "1"):
        with kernel_switch(pure == "0"):
            for tokenize in ("13a", "none", "intl", "zh", "char"):
                for lowercase in (False, True):
                    options = sacre_bleu.BleuOptions(tokenize, lowercase)
                    prepared = sacre_bleu.bleu_references(refs, options)
                    for hyps in systems:
                        expected = sacre_bleu.bleu_statistics(hyps, refs, options, per_segment=True)
                        found = sacre_bleu.bleu_statistics_of(hyps, prepared, per_segment=True)
                        total, rows = sacre_bleu.bleu_rows_of(hyps, prepared)
                        assert (pure, tokenize, lowercase, expected, expected) == (
                            pure,
                            tokenize,
                            lowercase,
                            found,
                            (total, _int64_rows(rows, 2 + 2 * options.max_ngram_order)),
                        )


def test_chrf_references_once_equal_chrf_statistics() -> None:
    """chrf_statistics_of (and chrf_rows_of, its rows as one int64 buffer) against
    chrf_references gives chrf_statistics's totals and segment rows (chrF and chrF++,
    lowercased or not, whitespace kept or not), kernel and pure."""
    systems, refs = _once_input()
    for pure in ("0", "1"):
        with kernel_switch(pure == "0"):
            for options in (
                chrf_scoring.ChrfOptions(),
                chrf_scoring.ChrfOptions(word_order=2, lowercase=True),
                chrf_scoring.ChrfOptions(beta=3, whitespace=True, lowercase=True),
            ):
                prepared = chrf_scoring.chrf_references(refs, options)
                for hyps in systems:
                    expected = chrf_scoring.chrf_statistics(hyps, refs, options, per_segment=True)
                    found = chrf_scoring.chrf_statistics_of(hyps, prepared, per_segment=True)
                    total, rows = chrf_scoring.chrf_rows_of(hyps, prepared)
                    width = 3 * (options.char_order + options.word_order)
                    assert (pure, options, expected, expected) == (
                        pure,
                        options,
                        found,
                        (total, _int64_rows(rows, width)),
                    )


def test_prepared_references_take_the_one_call_check() -> None:
    """bleu_references and chrf_references keep lists of lists, which the texts' check takes
    in one kernel call (plain_texts) for each system, not a Python pass over every text."""
    systems, refs = _once_input()
    bleu = sacre_bleu.bleu_references(refs, sacre_bleu.BleuOptions(tokenize="zh"))
    chrf = chrf_scoring.chrf_references(refs, chrf_scoring.ChrfOptions(lowercase=True))
    with kernel_switch(True):
        assert [True, True] == [counting.plain_texts(systems[0], p.texts) for p in (bleu, chrf)]


def test_references_once_refuse_another_length() -> None:
    """Hypotheses and prepared references of different lengths: ValueError saying both."""
    bleu = sacre_bleu.bleu_references([["a"], ["b"]], sacre_bleu.BleuOptions())
    chrf = chrf_scoring.chrf_references([["a"], ["b"]], chrf_scoring.ChrfOptions())
    expected = "1 hypotheses but 2 reference lists (one list per segment expected)"
    with pytest.raises(ValueError, match=r"^1 hypotheses but 2 reference lists") as bleu_error:
        sacre_bleu.bleu_statistics_of(["a"], bleu)
    with pytest.raises(ValueError, match=r"^1 hypotheses but 2 reference lists") as chrf_error:
        chrf_scoring.chrf_statistics_of(["a"], chrf)
    assert [expected, expected] == [str(bleu_error.value), str(chrf_error.value)]
