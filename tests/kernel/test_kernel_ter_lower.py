"""TER's case-insensitive words lowered by the kernel as it splits them
(:func:`mtcompute.metrics.ter.statistics.lowered_statistics`: the texts with a code point of U+0100
or more lowered in Python, the others folded by the kernel's table of ``str.lower``)
against the general path, ``line.rstrip().lower()`` of every text, on generated texts
mixing cases, Latin-1 letters whose lowercase is special (ß, µ, ÿ), wider ones (final
sigma, the Kelvin sign that lowers to ASCII, titlecase digraphs) and whitespace of every
width.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtcompute import native
from mtcompute.metrics.ter import score as ter_scoring
from mtcompute.metrics.ter.statistics import lowered_statistics, text_statistics

pytestmark = pytest.mark.skipif(not native.AVAILABLE, reason="the kernel is not built")

ALPHABET = "aAbBzZäÄöÖßµÿÀÞ×÷ΣσςİK\u01c5\u01c4é€😀 \t\xa0\x85\u3000\u2028"
texts = st.text(alphabet=ALPHABET, max_size=12)
segments = st.lists(
    st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=8
)


def general(hypotheses: list[str], references: list[list[str]]) -> list[tuple[int, float]]:
    """Every text lowered by Python, then the kernel's words and edits."""
    return text_statistics(
        [t.rstrip().lower() for t in hypotheses],
        [[t.rstrip().lower() for t in segment] for segment in references],
    )


@settings(max_examples=300, deadline=None)
@given(segments)
def test_the_kernel_lowers_as_str_lower(pairs: list[tuple[str, list[str]]]) -> None:
    """The same edits and lengths as lowering every text in Python."""
    hypotheses = [h for h, _ in pairs]
    references = [refs for _, refs in pairs]
    assert general(hypotheses, references) == lowered_statistics(hypotheses, references)


def test_every_latin1_code_point() -> None:
    """Each code point under U+0100 against its uppercase and lowercase forms."""
    hypotheses = [chr(c) for c in range(33, 256) if not chr(c).isspace()]
    references = [[chr(c).upper()[:1] + " " + chr(c).lower()] for c in range(33, 256)]
    references = [
        r for r, h in zip(references, range(33, 256), strict=True) if not chr(h).isspace()
    ]
    assert general(hypotheses, references) == lowered_statistics(hypotheses, references)


def test_the_arguments_are_left_alone() -> None:
    """The caller's lists keep their texts (a wide text is lowered in a copy)."""
    hypotheses, references = ["ΣΑ B"], [["σα b"]]
    assert ([(0, 2.0)], ["ΣΑ B"], [["σα b"]]) == (
        lowered_statistics(hypotheses, references),
        hypotheses,
        references,
    )


def test_other_layouts_take_the_general_path() -> None:
    """Tuples, or no kernel: None (the caller lowers in Python)."""
    assert lowered_statistics(("a",), [["a"]]) is None  # type: ignore[arg-type]


def test_ter_statistics_uses_it_only_without_tokenizer_options() -> None:
    """Options that tokenize or keep the case: the general path's answer, as before."""
    hypotheses, references = ["Ab. c"], [["ab . C"]]
    expected = [
        ter_scoring.ter_statistics_of(hypotheses, ter_scoring.ter_references(references, options))
        for options in (
            ter_scoring.TerOptions(),
            ter_scoring.TerOptions(normalized=True),
            ter_scoring.TerOptions(case_sensitive=True),
        )
    ]
    assert expected == [
        ter_scoring.ter_statistics(hypotheses, references, options)
        for options in (
            ter_scoring.TerOptions(),
            ter_scoring.TerOptions(normalized=True),
            ter_scoring.TerOptions(case_sensitive=True),
        )
    ]
