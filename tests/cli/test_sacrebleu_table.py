"""``mtcompute sacrebleu``'s text table written without python-tabulate: the same string as
sacreBLEU's call of tabulate 0.10 (fancy_grid, first column right, the others centred)
wherever it answers, and no answer (tabulate writes it) for numbers, wide, invisible or
other characters and whitespace at a cell's ends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from mtcompute.cli._sacrebleu_output import _fancy_grid

CYAN, YELLOW, RED, RESET = "\x1b[36m", "\x1b[33m", "\x1b[31m", "\x1b[0m"


def _tabulate(columns: dict[str, list[str]]) -> str:
    """sacreBLEU 2.6.0's call (print_results_table, text format)."""
    return tabulate(
        columns,
        headers="keys",
        tablefmt="fancy_grid",
        colalign=("right",),
        stralign="center",
        numalign="center",
        floatfmt=".1f",
    )


PAIRED = {
    f"{CYAN}System{RESET}": [f"{YELLOW}Baseline: sys/a.txt{RESET}", "b", "sys/the-c.txt"],
    f"{CYAN}BLEU (μ ± 95% CI){RESET}": [
        f"{YELLOW}37.8 (37.8 ± 1.0){RESET}",
        "38.4 (38.4 ± 1.0)\n(p = 0.0310)*",
        f"36.6 (36.6 ± 0.9)\n{RED}(p = 0.1658){RESET}",
    ],
    "chrF2 (μ ± 95% CI)": ["64.3 (64.3 ± 0.6)", "64.6 (64.6 ± 0.6)\n(p = 0.0430)*", "1"],
}


@pytest.mark.parametrize(
    "columns",
    [
        PAIRED,
        {key.replace(CYAN, ""): [c.replace(YELLOW, "") for c in v] for key, v in PAIRED.items()},
        {"System": ["a", "much longer name"], "TER": ["x 1", "y\nz w"]},
        {"": ["Baseline: a"], "n": ["a (p = 1)"]},
    ],
)
def test_the_tables_of_the_paired_tests_are_tabulates(columns: dict[str, list[str]]) -> None:
    """The paired tests' tables (coloured or not, a short header, an empty one, a column
    with a number among texts) are written here, as tabulate writes them."""
    ours = _fancy_grid(columns)
    assert ours is not None
    assert _tabulate(columns) == ours


@pytest.mark.parametrize(
    "columns",
    [
        {"System": ["a", "b"], "BLEU": ["37.8", "1,000"]},  # numbers: tabulate formats them
        {"System": ["a", "b"], "BLEU": ["True", "nan"]},
        {"System": ["漢字", "b"], "BLEU": ["x", "y"]},  # wide characters
        {"System": [" a", "b"], "BLEU": ["x", "y"]},  # stripped by tabulate
        {"System": ["a\tb", "b"], "BLEU": ["x", "y"]},
        {"System": ["a\x1b[1mb", "b"], "BLEU": ["x", "y"]},  # a code not ours
        {"System": ["a", "b"], "BLEU": ["x", ""]},
        {"System": ["a"], "BLEU": []},
    ],
)
def test_other_tables_are_left_to_tabulate(columns: dict[str, list[str]]) -> None:
    """Numbers, wide characters, whitespace at a cell's ends, tabs, codes of others, empty
    cells and ragged columns: no answer here."""
    assert _fancy_grid(columns) is None


_TEXT = st.text(
    alphabet=st.sampled_from([*"ab Z:/._-0123456789()=*%,+eE", "μ", "±", "\n", "漢", "\t", "é"]),
    max_size=14,
)
_CELL = st.builds(
    lambda code, text: f"{code}{text}{RESET}" if code else text,
    st.sampled_from(["", "", CYAN, YELLOW, RED]),
    _TEXT,
)


@settings(max_examples=400, deadline=None)
@given(
    st.integers(1, 4).flatmap(
        lambda rows: st.lists(
            st.tuples(_CELL, st.lists(_CELL, min_size=rows, max_size=rows)), min_size=1, max_size=4
        )
    )
)
def test_every_table_written_here_is_tabulates(
    generated: list[tuple[str, list[str]]],
) -> None:
    """Generated tables of texts, numbers, line breaks, colours and characters of every
    kind: where an answer is given here, it is tabulate's."""
    columns = dict(generated)
    ours = _fancy_grid(columns)
    if ours is not None:
        assert _tabulate(columns) == ours
