"""mtcompute.scoring and mtcompute.core.sacre against sacreBLEU 2.6.0: its float steps for
arbitrary statistics, and corpus BLEU/chrF/chrF++ of a WMT test set with two references."""

from __future__ import annotations

import sacrebleu
from hypothesis import given
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF
from sacrebleu.metrics.ter import TER

from mtcompute import scoring
from mtcompute.core import sacre
from tests.conftest import wmt_lines

COUNT = st.integers(0, 50)
SMOOTHING = st.sampled_from(sacre.BLEU_SMOOTHING)
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
    ours = sacre.compute_bleu(correct, totals, sys_len, ref_len, method, value, effective, order)
    expected = (theirs.score, theirs.counts, theirs.totals, theirs.precisions, theirs.bp)
    assert expected == (
        ours.score,
        list(ours.counts),
        list(ours.totals),
        list(ours.precisions),
        ours.bp,
    )
    result = scoring.BleuResult(
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
    assert metric._compute_f_score(flat) == sacre.chrf_f_score(flat, order, beta, eps)


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
        (BLEU(), scoring.BleuOptions()),
        (
            BLEU(lowercase=True, smooth_method="floor"),
            scoring.BleuOptions(lowercase=True, smooth_method="floor"),
        ),
        (CHRF(), scoring.ChrfOptions()),
        (CHRF(word_order=2), scoring.ChrfOptions(word_order=2)),
        (CHRF(beta=3, eps_smoothing=True), scoring.ChrfOptions(beta=3, eps_smoothing=True)),
    ]
    for metric, options in cases:
        theirs = metric.corpus_score(hyps, [ref_a, ref_b])  # type: ignore[attr-defined]
        if isinstance(options, scoring.BleuOptions):
            ours: scoring.BleuResult | scoring.ChrfResult = scoring.corpus_bleu(
                hyps, per_segment, options
            )
            fields = scoring.bleu_signature_fields(options, 2, options.tokenizer().signature)
        else:
            assert isinstance(options, scoring.ChrfOptions)
            ours = scoring.corpus_chrf(hyps, per_segment, options)
            fields = scoring.chrf_signature_fields(options, 2)
        signature = str(metric.get_signature())  # type: ignore[attr-defined]
        assert (theirs.score, str(theirs), signature) == (
            ours.score,
            str(ours),
            scoring.format_signature(fields),
        )
        assert theirs.format(signature=signature, is_json=True) == ours.format(
            signature=signature, is_json=True
        )
        short = metric.get_signature().format(short=True)  # type: ignore[attr-defined]
        assert short == scoring.format_signature(fields, short=True)


def test_sacrebleu_version_is_the_oracles() -> None:
    """The version the signatures print is the installed oracle's."""
    assert sacrebleu.__version__ == scoring.SACREBLEU_VERSION


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
        metric = TER(**kwargs)
        options = scoring.TerOptions(**kwargs)
        theirs = metric.corpus_score(hyps, [ref_a, ref_b])
        ours = scoring.corpus_ter(hyps, per_segment, options)
        assert (theirs.score, theirs.num_edits, theirs.ref_length, str(theirs)) == (
            ours.score,
            ours.num_edits,
            ours.ref_length,
            str(ours),
        )
        segments = [tuple(s) for s in metric._extract_corpus_statistics(hyps, [ref_a, ref_b])]
        assert segments == scoring.ter_statistics(hyps, per_segment, options)
        fields = scoring.ter_signature_fields(options, 2)
        signature = metric.get_signature()
        assert str(signature) == scoring.format_signature(fields)
        assert signature.format(short=True) == scoring.format_signature(
            fields, short=True, abbreviations=scoring.TER_ABBREVIATIONS
        )


def test_ter_of_the_issue_example() -> None:
    """The ter-compute example: 19.35483870967742 from 3 edits over 15.5 words."""
    hyps = ["The cat sat on mat.", "A quick brown fox jumps over the dog."]
    refs = [
        ["The cat sat on the mat.", "There is a cat on the mat."],
        [
            "A fast brown fox jumped over the lazy dog.",
            "The quick brown fox jumps over the lazy dog.",
        ],
    ]
    options = scoring.TerOptions()
    assert scoring.ter_statistics(hyps, refs, options) == [(1, 6.5), (2, 9.0)]
    assert scoring.corpus_ter(hyps, refs, options) == scoring.TerResult(19.35483870967742, 3, 15.5)
    assert scoring.format_signature(scoring.ter_signature_fields(options, 2)) == (
        "nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0"
    )
