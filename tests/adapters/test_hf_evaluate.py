"""mtcompute.adapters.hf_evaluate: a Hugging Face evaluate module, loaded by
evaluate.load from its file, whose corpus scores are mtcompute's and sacreBLEU's."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest

# evaluate copies a loaded module into its modules cache, a folder it fixes on import: a
# temporary one here, and never the network
os.environ.setdefault("HF_MODULES_CACHE", tempfile.mkdtemp(prefix="mtcompute-hf-modules-"))
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
evaluate = pytest.importorskip("evaluate")
import sacrebleu  # noqa: E402

import mtcompute  # noqa: E402
from mtcompute.adapters import hf_evaluate  # noqa: E402
from tests.adapters.wmt import (  # noqa: E402
    FIRST,
    HYPOTHESES,
    REFERENCE_STREAMS,
    REFERENCES,
    batches,
)

CASES: list[tuple[str, dict[str, Any], Any, Any]] = [
    ("bleu", {}, mtcompute.corpus_bleu(HYPOTHESES, REFERENCES), sacrebleu.BLEU()),
    (
        "bleu",
        {"tokenize": "intl", "lowercase": True},
        mtcompute.corpus_bleu(HYPOTHESES, REFERENCES, tokenize="intl", lowercase=True),
        sacrebleu.BLEU(tokenize="intl", lowercase=True),
    ),
    ("chrf", {}, mtcompute.corpus_chrf(HYPOTHESES, REFERENCES), sacrebleu.CHRF()),
    (
        "chrf++",
        {"beta": 3},
        mtcompute.corpus_chrf(HYPOTHESES, REFERENCES, word_order=2, beta=3),
        sacrebleu.CHRF(word_order=2, beta=3),
    ),
    ("ter", {}, mtcompute.corpus_ter(HYPOTHESES, REFERENCES), sacrebleu.TER()),
]


@pytest.mark.parametrize(
    ("config", "options", "expected", "sacre"),
    CASES,
    ids=["bleu", "bleu-intl-lc", "chrf", "chrf++-beta3", "ter"],
)
def test_the_module_s_corpus_score_is_mtcompute_s_and_sacrebleu_s(
    tmp_path: Any, config: str, options: dict[str, Any], expected: Any, sacre: Any
) -> None:
    """Loaded from its file with the metric as configuration, fed in batches (add_batch),
    compute() gives the corpus function's result as data and sacreBLEU's score."""
    module = evaluate.load(hf_evaluate.__file__, config, cache_dir=str(tmp_path))
    for hyps, refs in batches(64):
        module.add_batch(predictions=hyps, references=refs)
    found = module.compute(**options)
    assert expected.to_dict() == found
    assert sacre.corpus_score(HYPOTHESES, REFERENCE_STREAMS).score == found["score"]


def test_wer_and_cer_take_one_reference_string_each(tmp_path: Any) -> None:
    """The wer and cer configurations are corpus_wer's, flat references."""
    for unit in ("word", "character"):
        config = "wer" if unit == "word" else "cer"
        module = evaluate.load(hf_evaluate.__file__, config, cache_dir=str(tmp_path))
        found = module.compute(predictions=HYPOTHESES, references=FIRST)
        assert mtcompute.corpus_wer(HYPOTHESES, FIRST, unit=unit).to_dict() == found


def test_the_default_configuration_is_bleu_and_an_unknown_one_is_refused(tmp_path: Any) -> None:
    """No configuration is BLEU; an unknown one is refused with the list of known ones."""
    module = evaluate.load(hf_evaluate.__file__, cache_dir=str(tmp_path))
    found = module.compute(predictions=HYPOTHESES[:5], references=REFERENCES[:5])
    assert ("BLEU", mtcompute.corpus_bleu(HYPOTHESES[:5], REFERENCES[:5]).score) == (
        found["name"],
        found["score"],
    )
    with pytest.raises(ValueError, match=r"config_name: expected one of bleu, chrf, chrf\+\+"):
        evaluate.load(hf_evaluate.__file__, "meteor", cache_dir=str(tmp_path))
