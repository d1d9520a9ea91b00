"""sacreBLEU 2.6.0's extension points, against sacreBLEU itself: a subclass of ``BLEU``,
``CHRF`` or ``TER`` that replaces one of its hooks (the same class body on both sides), a
setting changed after construction, numpy integers, and the argument ranges sacreBLEU takes,
each giving sacreBLEU's score (every field, ``format()``, the signature) or its exception
(type and message).

The hooks: ``_preprocess_segment``, ``_extract_reference_info``,
``_compute_segment_statistics``, ``_cache_references``, ``_extract_corpus_statistics``,
``_aggregate_and_compute``, ``_compute_score_from_stats`` (all three metrics); BLEU's
``compute_bleu`` and ``_get_closest_ref_len`` and its ``tokenizer``; chrF's
``_remove_punctuation``, ``_get_match_statistics``, ``_compute_f_score`` and ``_PUNCTS``;
TER's ``tokenizer``. Each case scores a window of a WMT system with all its references (given
and through the constructor's cache), with bootstrap resampling, and sentence scores. Also:
the private calls an MBR library (mbrs 0.1.8, which needs torch and is not installed here)
makes on a scorer, and ``PairedTest`` with hooked metrics.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pytest
import sacrebleu
from sacrebleu import significance as sacre_significance
from sacrebleu.metrics import base as sacre_base
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a

import mtcompute.sacrebleu as facade
from mtcompute.sacrebleu import significance as facade_significance
from mtcompute.sacrebleu.metrics import base as facade_base
from mtcompute.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as FacadeTokenizer13a
from tests.sacrebleu.test_sacrebleu_facade import SYSTEMS, _raised, _view, system

Factory = Callable[[type[Any]], type[Any]]
"""A subclass body: given sacreBLEU's or the facade's metric class, the subclass."""

WINDOW = 120  # segments of the first WMT system
BOOTSTRAP = 25


def _corpus() -> tuple[list[str], list[list[str]]]:
    corpus = system(*SYSTEMS[0])
    hyps = list(corpus.hypotheses[:WINDOW])
    hyps[3] = hyps[3] + " ."  # a tokenized period, counted by the hooked path too
    return hyps, [list(stream[:WINDOW]) for stream in corpus.references]


def _outcome(action: Callable[[], Any]) -> Any:
    """What ``action`` gives: the view of a (metric, score), a list of those, or the
    exception's type name and message."""
    try:
        result = action()
    except Exception as error:
        return ("raised", type(error).__name__, str(error))
    if isinstance(result, list):
        return [_view(metric, score) for metric, score in result]
    metric, score = result
    return _view(metric, score)


def _scores(cls: type[Any], kwargs: dict[str, Any]) -> list[Any]:
    """The corpus score given and cached, with resampling, and sentence scores."""
    hyps, refs = _corpus()
    given = cls(**kwargs)
    out = [(given, given.corpus_score(hyps, refs))]
    cached = cls(**kwargs, references=refs)
    out.append((cached, cached.corpus_score(hyps, None)))
    resampled = cls(**kwargs)
    out.append((resampled, resampled.corpus_score(hyps, refs, n_bootstrap=BOOTSTRAP)))
    for i in (0, 5, 17):
        one = cls(**kwargs)
        out.append((one, one.sentence_score(hyps[i], [stream[i] for stream in refs])))
    return out


def _both(kind: str, make: Factory, kwargs: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """sacreBLEU's and the facade's outcome of the subclass ``make`` of ``kind``."""
    chosen = kwargs or {}
    return (
        _outcome(lambda: _scores(make(getattr(sacrebleu, kind)), chosen)),
        _outcome(lambda: _scores(make(getattr(facade, kind)), chosen)),
    )


# --- the subclass bodies ---------------------------------------------------------------------


def preprocess_strips_commas(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _preprocess_segment(self, sent: str) -> str:
            return str(super()._preprocess_segment(sent.replace(",", "")))

    return Custom


def segment_statistics_shifted(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: dict[str, Any]) -> Any:
            stats = super()._compute_segment_statistics(hypothesis, ref_kwargs)
            return [stats[0] + 1, *stats[1:]]

    return Custom


def reference_info_first_only(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _extract_reference_info(self, refs: Any) -> Any:
            return super()._extract_reference_info(refs[:1])

    return Custom


def cache_reversed(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _cache_references(self, references: Any) -> Any:
            return list(reversed(super()._cache_references(references)))

    return Custom


def corpus_statistics_every_other(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _extract_corpus_statistics(self, hypotheses: Any, references: Any) -> Any:
            return super()._extract_corpus_statistics(hypotheses, references)[::2]

    return Custom


def aggregate_first_half(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _aggregate_and_compute(self, stats: Any) -> Any:
            return super()._aggregate_and_compute(stats[: max(1, len(stats) // 2)])

    return Custom


def score_halved(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _compute_score_from_stats(self, stats: Any) -> Any:
            score = super()._compute_score_from_stats(stats)
            score.score = score.score / 2
            return score

    return Custom


def bleu_compute_floor(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        @staticmethod
        def compute_bleu(correct: Any, total: Any, sys_len: Any, ref_len: Any, **kw: Any) -> Any:
            kw["smooth_method"], kw["smooth_value"] = "floor", 0.3
            return base.compute_bleu(correct, total, sys_len, ref_len, **kw)

    return Custom


def bleu_longest_reference(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _get_closest_ref_len(self, hyp_len: int, ref_lens: list[int]) -> int:
            return max(ref_lens) + hyp_len % 2

    return Custom


def bleu_character_tokenizer(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.tokenizer = lambda line: " ".join(line.replace(" ", ""))

    return Custom


def chrf_no_punctuation_split(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _remove_punctuation(self, sent: str) -> list[str]:
            return sent.split()

    return Custom


def chrf_matches_capped(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        @staticmethod
        def _get_match_statistics(hyp_ngrams: Any, ref_ngrams: Any) -> list[int]:
            stats = base._get_match_statistics(hyp_ngrams, ref_ngrams)
            return [stats[0], stats[1], min(stats[2], 3)]

    return Custom


def chrf_f_score_squared(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def _compute_f_score(self, statistics: Any) -> float:
            return float(super()._compute_f_score(statistics)) ** 2 / 100

    return Custom


def chrf_fewer_punctuation_marks(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        _PUNCTS: ClassVar[set[str]] = set(".,")

    return Custom


def ter_upper_tokenizer(base: type[Any]) -> type[Any]:
    class Custom(base):  # type: ignore[misc, valid-type]
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.tokenizer = lambda line: line.upper().replace(".", " . ")

    return Custom


SHARED: dict[str, Factory] = {
    "_preprocess_segment": preprocess_strips_commas,
    "_compute_segment_statistics": segment_statistics_shifted,
    "_extract_reference_info": reference_info_first_only,
    "_cache_references": cache_reversed,
    "_extract_corpus_statistics": corpus_statistics_every_other,
    "_aggregate_and_compute": aggregate_first_half,
    "_compute_score_from_stats": score_halved,
}
OWN: dict[str, dict[str, Factory]] = {
    "BLEU": {
        "compute_bleu": bleu_compute_floor,
        "_get_closest_ref_len": bleu_longest_reference,
        "tokenizer": bleu_character_tokenizer,
    },
    "CHRF": {
        "_remove_punctuation": chrf_no_punctuation_split,
        "_get_match_statistics": chrf_matches_capped,
        "_compute_f_score": chrf_f_score_squared,
        "_PUNCTS": chrf_fewer_punctuation_marks,
    },
    "TER": {"tokenizer": ter_upper_tokenizer},
}
SETTINGS = {"BLEU": {}, "CHRF": {"word_order": 2}, "TER": {"normalized": True}}
HOOK_CASES = [
    (kind, hook, make)
    for kind in ("BLEU", "CHRF", "TER")
    for hook, make in {**SHARED, **OWN[kind]}.items()
]


@pytest.mark.parametrize(
    ("kind", "hook", "make"), HOOK_CASES, ids=[f"{k}-{h}" for k, h, _ in HOOK_CASES]
)
def test_a_subclass_hook_gives_sacrebleus_numbers(kind: str, hook: str, make: Factory) -> None:
    """A subclass that replaces ``hook`` scores as sacreBLEU's subclass with the same body
    (corpus given and cached, resampled, sentences): every field, string and signature."""
    del hook
    theirs, ours = _both(kind, make, SETTINGS[kind])
    assert theirs == ours


def test_every_hook_sacrebleu_has_is_covered() -> None:
    """The hooks tested are the facade's ``_HOOKS``, and every method sacreBLEU's classes
    define is defined by the facade's."""
    tested = {kind: set(SHARED) | set(OWN[kind]) - {"tokenizer"} for kind in OWN}
    declared = {kind: set(getattr(facade, kind)._HOOKS) for kind in OWN}
    missing = {
        kind: sorted(
            name
            for name in dir(getattr(sacrebleu, kind))
            if not name.startswith("__") and not hasattr(getattr(facade, kind), name)
        )
        for kind in OWN
    }
    assert (tested, {kind: [] for kind in OWN}) == (declared, missing)


def test_an_instance_hook_is_sacrebleus_too() -> None:
    """A hook set on an instance (not its class) is called as sacreBLEU calls it."""
    hyps, refs = _corpus()

    def run(module: Any) -> Any:
        metric = module.CHRF()
        metric._preprocess_segment = lambda sent: sent.upper()
        return _view(metric, metric.corpus_score(hyps, refs))

    assert run(sacrebleu) == run(facade)


def test_a_tokenizer_subclass_with_its_own_call() -> None:
    """A subclass of a tokenizer class with its own ``__call__`` set as BLEU's tokenizer."""

    def run(module: Any, base: type[Any]) -> Any:
        class Shouting(base):  # type: ignore[misc, valid-type]
            def __call__(self, line: str) -> str:
                return str(super().__call__(line)).upper()

        hyps, refs = _corpus()
        metric = module.BLEU()
        metric.tokenizer = Shouting()
        return _view(metric, metric.corpus_score([h.lower() for h in hyps], refs))

    assert run(sacrebleu, SacreTokenizer13a) == run(facade, FacadeTokenizer13a)


def test_hooked_warnings_are_sacrebleus(caplog: pytest.LogCaptureFixture) -> None:
    """sacreBLEU's path warns of 100 tokenized periods as sacreBLEU does."""
    caplog.set_level(logging.INFO, logger="sacrebleu")

    def run(module: Any) -> list[tuple[str, str]]:
        caplog.clear()
        preprocess_strips_commas(module.BLEU)().corpus_score(["x ."] * 100, [["x ."] * 100])
        return [(r.name, r.getMessage()) for r in caplog.records]

    assert run(sacrebleu) == run(facade)


# --- settings changed after construction ------------------------------------------------------

ATTRIBUTE_CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "TER case_sensitive": ("TER", {}, {"case_sensitive": True}),
    "TER normalized and no_punct": ("TER", {}, {"normalized": True, "no_punct": True}),
    "TER tokenizer": ("TER", {}, {"tokenizer": str.upper}),
    "BLEU lowercase": ("BLEU", {}, {"lowercase": True}),
    "BLEU tokenizer callable": ("BLEU", {}, {"tokenizer": lambda s: " ".join(s.split()[::-1])}),
    "BLEU max_ngram_order": ("BLEU", {}, {"max_ngram_order": 2}),
    "BLEU smoothing": ("BLEU", {}, {"smooth_method": "floor", "effective_order": True}),
    "CHRF lowercase": ("CHRF", {}, {"lowercase": True}),
    "CHRF beta and whitespace": ("CHRF", {}, {"beta": 1, "whitespace": True}),
    "CHRF word_order (order kept)": ("CHRF", {}, {"word_order": 2}),
    "CHRF char_order and order": ("CHRF", {}, {"char_order": 4, "order": 4}),
}


@pytest.mark.parametrize("case", list(ATTRIBUTE_CASES))
def test_attribute_changes_after_construction(case: str) -> None:
    """Settings changed on a built metric score as sacreBLEU's do (TER's switches only
    sign: its tokenizer was built with the constructor's)."""
    kind, kwargs, changes = ATTRIBUTE_CASES[case]
    hyps, refs = _corpus()

    def run(module: Any) -> Any:
        def scored() -> Any:
            metric = getattr(module, kind)(**kwargs)
            for name, value in changes.items():
                setattr(metric, name, value)
            return [(metric, metric.corpus_score(hyps, refs))]

        return _outcome(scored)

    assert run(sacrebleu) == run(facade)


# --- numpy integers and the ranges sacreBLEU takes ------------------------------------------

RANGE_CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "BLEU max_ngram_order 0": ("BLEU", {"max_ngram_order": 0}),
    "BLEU max_ngram_order -1": ("BLEU", {"max_ngram_order": -1}),
    "BLEU max_ngram_order -3 effective": ("BLEU", {"max_ngram_order": -3, "effective_order": True}),
    "BLEU numpy max_ngram_order": ("BLEU", {"max_ngram_order": np.int64(3)}),
    "BLEU numpy smooth_value": (
        "BLEU",
        {"smooth_method": "floor", "smooth_value": np.float64(0.2)},
    ),
    "CHRF word_order -1": ("CHRF", {"word_order": -1}),
    "CHRF word_order -2": ("CHRF", {"word_order": -2}),
    "CHRF char_order -3 word_order 5": ("CHRF", {"char_order": -3, "word_order": 5}),
    "CHRF char_order 0": ("CHRF", {"char_order": 0}),
    "CHRF char_order -1": ("CHRF", {"char_order": -1}),
    "CHRF no order eps": ("CHRF", {"char_order": 0, "eps_smoothing": True}),
    "CHRF beta -1": ("CHRF", {"beta": -1}),
    "CHRF beta 0": ("CHRF", {"beta": 0}),
    "CHRF numpy orders": (
        "CHRF",
        {"char_order": np.int64(6), "word_order": np.int64(2), "beta": np.int64(2)},
    ),
    "CHRF numpy float beta": ("CHRF", {"beta": np.float64(1.5)}),
    "CHRF numpy int32 orders": ("CHRF", {"char_order": np.int32(4), "word_order": np.int32(1)}),
}


@pytest.mark.parametrize("case", list(RANGE_CASES))
def test_ranges_and_numpy_arguments_are_sacrebleus(case: str) -> None:
    """Settings sacreBLEU takes without checking score as it scores them (corpus given and
    cached, resampled, sentences), or raise its exception, with its message; numpy integers
    and floats are taken wherever sacreBLEU takes them (a score's type is sacreBLEU's)."""
    kind, kwargs = RANGE_CASES[case]
    theirs, ours = _both(kind, lambda base: base, kwargs)
    assert theirs == ours


@pytest.mark.parametrize("n_bootstrap", [np.int64(30), np.int32(7), np.uint16(3), 1, 0, -5])
def test_n_bootstrap_numpy_and_small(n_bootstrap: Any) -> None:
    """``n_bootstrap`` as a numpy integer, or 1 or less (no resampling), as sacreBLEU."""
    hyps, refs = _corpus()

    def run(module: Any) -> Any:
        return [
            _view(metric, metric.corpus_score(hyps, refs, n_bootstrap=n_bootstrap))
            for metric in (module.BLEU(), module.CHRF(), module.TER())
        ]

    assert run(sacrebleu) == run(facade)


def test_score_estimate_ci_is_sacrebleus() -> None:
    """``Score.estimate_ci`` keeps sacreBLEU's mean and half width."""
    values = [31.5, 29.25, 30.125, 33.0, 28.75] * 9

    def run(module: Any) -> tuple[float, float]:
        score = module.Score("BLEU", 30.0)
        score.estimate_ci([module.Score("BLEU", v) for v in values])
        return score._mean, score._ci

    assert run(sacre_base) == run(facade_base)


def test_hooked_errors_are_sacrebleus() -> None:
    """A hook that raises stops scoring with its own exception, as in sacreBLEU."""

    def make(base: type[Any]) -> type[Any]:
        class Custom(base):  # type: ignore[misc, valid-type]
            def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: Any) -> Any:
                raise LookupError(f"no statistics for {hypothesis!r} in {sorted(ref_kwargs)}")

        return Custom

    theirs = _raised(lambda: make(sacrebleu.TER)().corpus_score(["a b"], [["a c"]]))
    ours = _raised(lambda: make(facade.TER)().corpus_score(["a b"], [["a c"]]))
    assert (type(theirs), str(theirs)) == (type(ours), str(ours))


# --- the private API an MBR library calls (mbrs 0.1.8's BLEU and chrF reference aggregation) ---


def _counters(value: Any) -> Any:
    """A hook's result with each counter as its items in order (numpy-free, comparable)."""
    if isinstance(value, dict):
        return {key: _counters(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_counters(item) for item in value]
    if hasattr(value, "most_common"):
        return list(value.items())
    return value


@pytest.mark.parametrize("kind", ["BLEU", "CHRF", "TER"])
def test_the_private_calls_of_an_mbr_library_are_sacrebleus(kind: str) -> None:
    """What mbrs calls on a scorer: ``_cache_references([references])`` (sacreBLEU's cache,
    per segment, and ``num_refs``), ``_preprocess_segment``, ``_extract_reference_info``,
    ``_compute_segment_statistics`` and, for chrF, ``_remove_punctuation``,
    ``_get_match_statistics`` and ``_compute_f_score``, each giving sacreBLEU's values."""
    hyps, refs = _corpus()
    kwargs = SETTINGS[kind]

    def run(module: Any) -> Any:
        scorer = getattr(module, kind)(**kwargs)
        cache = scorer._cache_references([refs[0][:40]])
        out = [_counters(cache), scorer.num_refs]
        for line, info in zip(hyps[:40], cache, strict=True):
            hyp = scorer._preprocess_segment(line)
            out.append(_counters(scorer._compute_segment_statistics(hyp, info)))
        out.append(_counters(scorer._extract_reference_info([scorer._preprocess_segment(hyps[0])])))
        if kind == "CHRF":
            words = scorer._remove_punctuation(hyps[1])
            hyp_grams = module.metrics.helpers.extract_word_ngrams(words, 2)
            ref_grams = module.metrics.helpers.extract_word_ngrams(refs[0][1].split(), 2)
            stats = scorer._get_match_statistics(hyp_grams, ref_grams)
            out += [words, stats, scorer._compute_f_score(stats * scorer.order)]
        return out

    assert run(sacrebleu) == run(facade)


# --- paired tests with a hooked metric ----------------------------------------------------------


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_paired_tests_of_hooked_metrics_are_sacrebleus(test_type: str) -> None:
    """``PairedTest`` with a subclass whose ``_compute_score_from_stats`` is its own, and with
    chrF settings the kernel does not take: sacreBLEU's signatures and results."""
    hyps, refs = _corpus()
    named = [("base", hyps), ("other", hyps[1:] + hyps[:1]), ("third", hyps[::-1])]

    def run(module: Any, tests: Any) -> Any:
        metrics = {
            "BLEU": score_halved(module.BLEU)(),
            "CHRF": module.CHRF(word_order=-1, beta=-1),
        }
        paired = tests.PairedTest(named, metrics, refs[:1], test_type=test_type, n_samples=40)
        signatures, scores = paired()
        return (
            {name: str(sig) for name, sig in signatures.items()},
            {
                key: column
                if key == "System"
                else [
                    tuple(
                        None if v is None else float(v) for v in (r.score, r.p_value, r.mean, r.ci)
                    )
                    for r in column
                ]
                for key, column in scores.items()
            },
        )

    assert run(sacrebleu, sacre_significance) == run(facade, facade_significance)


def test_a_hook_patched_onto_the_class_is_sacrebleus(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hook patched onto ``BLEU`` itself (not a subclass) is called as sacreBLEU calls it."""
    hyps, refs = _corpus()

    def run(module: Any) -> Any:
        original = module.BLEU._preprocess_segment
        monkeypatch.setattr(
            module.BLEU, "_preprocess_segment", lambda self, sent: original(self, sent).upper()
        )
        metric = module.BLEU()
        return _view(metric, metric.corpus_score([h.lower() for h in hyps], refs))

    assert run(sacrebleu) == run(facade)
