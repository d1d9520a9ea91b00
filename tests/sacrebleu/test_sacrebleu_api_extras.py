"""The parts of sacreBLEU 2.6.0's API beyond the metrics, against sacreBLEU itself: the n-gram
helpers (``metrics.helpers`` and the top-level ``extract_word_ngrams``,
``extract_char_ngrams``), ``utils.smart_open``, ``utils.sum_of_lists``, ``SACREBLEU_DIR``, and
``python -m mtcompute.sacrebleu`` as ``python -m sacrebleu`` (standard output, standard error
and exit status, byte for byte)."""

from __future__ import annotations

import gzip
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
import sacrebleu.utils
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import helpers as sacre_helpers

import mtcompute.sacrebleu as facade
from mtcompute.sacrebleu import utils as facade_utils
from mtcompute.sacrebleu.metrics import helpers
from tests.sacrebleu.test_sacrebleu_facade import _parameters

HELPERS = [
    "extract_all_word_ngrams",
    "extract_word_ngrams",
    "extract_char_ngrams",
    "extract_all_char_ngrams",
]
LINES = st.text(alphabet=st.sampled_from("ab c\t.,中😀\u3000\n"), max_size=30)


def _counted(value: Any) -> Any:
    """A helper's result with the insertion order of each counter (what iterating shows)."""
    if isinstance(value, Counter):
        return list(value.items())
    if isinstance(value, list | tuple):
        return [_counted(item) for item in value]
    return value


@settings(deadline=None, max_examples=200)
@given(line=LINES, low=st.integers(-1, 4), high=st.integers(-1, 6), space=st.booleans())
def test_helpers_are_sacrebleus(line: str, low: int, high: int, space: bool) -> None:
    """Each helper gives sacreBLEU's counters, in its order, for any orders (0 and negative
    ones too) and either whitespace setting."""
    tokens = line.split()
    calls = [
        ("extract_all_word_ngrams", (line, low, high)),
        ("extract_word_ngrams", (tokens, high)),
        ("extract_char_ngrams", (line, high, space)),
        ("extract_all_char_ngrams", (line, high, space)),
    ]
    theirs = [_counted(getattr(sacre_helpers, name)(*args)) for name, args in calls]
    ours = [_counted(getattr(helpers, name)(*args)) for name, args in calls]
    assert theirs == ours


@pytest.mark.parametrize("name", HELPERS)
def test_helper_parameters_are_sacrebleus(name: str) -> None:
    """The helpers take sacreBLEU's parameters (names, kinds, defaults)."""
    assert _parameters(sacre_helpers, name) == _parameters(helpers, name)


def test_top_level_names_are_sacrebleus() -> None:
    """``extract_word_ngrams``, ``extract_char_ngrams``, ``smart_open`` and ``SACREBLEU_DIR``
    are at the top level, as in sacreBLEU, and in ``__all__``."""
    names = ["extract_word_ngrams", "extract_char_ngrams", "smart_open", "SACREBLEU_DIR"]
    assert [True] * 4 + [sacrebleu.SACREBLEU_DIR] == [
        facade.extract_word_ngrams is helpers.extract_word_ngrams,
        facade.extract_char_ngrams is helpers.extract_char_ngrams,
        facade.smart_open is facade_utils.smart_open,
        set(names) <= set(facade.__all__) & set(sacrebleu.__all__),
        facade.SACREBLEU_DIR,
    ]


@pytest.mark.parametrize("name", ["smart_open", "sum_of_lists", "my_log"])
def test_utils_parameters_are_sacrebleus(name: str) -> None:
    """The utilities take sacreBLEU's parameters."""
    assert _parameters(sacrebleu.utils, name) == _parameters(facade_utils, name)


@pytest.mark.parametrize("suffix", [".txt", ".txt.gz"])
def test_smart_open_reads_and_writes_as_sacrebleus(tmp_path: Path, suffix: str) -> None:
    """``smart_open`` reads plain and gzip files with only ``\\n`` ending a line, in the
    encoding asked, and writes them, as sacreBLEU's."""
    raw = "a\r\nb\rc\u2028d\n\xe9t\xe9\n".encode("latin-1", errors="replace")
    path = tmp_path / f"in{suffix}"
    path.write_bytes(gzip.compress(raw) if suffix.endswith(".gz") else raw)

    def read(module: Any) -> list[str]:
        with module.smart_open(str(path), encoding="latin-1") as handle:
            return list(handle)

    written = []
    for module in (sacrebleu.utils, facade_utils):
        out = tmp_path / f"out-{module.__name__}{suffix}"
        with module.smart_open(str(out), mode="wt") as handle:
            handle.write("x\ny\r\n")
        written.append(gzip.decompress(out.read_bytes()) if suffix.endswith(".gz") else out)
    plain = [w if isinstance(w, bytes) else w.read_bytes() for w in written]
    assert (read(sacrebleu.utils), plain[0]) == (read(facade_utils), plain[1])


@pytest.mark.parametrize(
    "lists",
    [[[1, 2]], [[1, 2], [3, 4]], [[3, 1.5], [2, 0.25], [1, 1 / 3]], [[0.5, 1], [1, 2]]],
    ids=str,
)
def test_sum_of_lists_is_sacrebleus(lists: list[list[Any]]) -> None:
    """``sum_of_lists`` gives sacreBLEU's sums and types (one list is returned itself)."""
    theirs, ours = sacrebleu.utils.sum_of_lists(lists), facade_utils.sum_of_lists(lists)
    assert ([(type(v), v) for v in theirs], theirs is lists[0]) == (
        [(type(v), v) for v in ours],
        ours is lists[0],
    )


def test_sum_of_lists_fails_as_sacrebleus_on_empty_statistics() -> None:
    """Empty segment statistics raise sacreBLEU's IndexError."""
    with pytest.raises(IndexError) as theirs:
        sacrebleu.utils.sum_of_lists([[], []])
    with pytest.raises(IndexError) as ours:
        facade_utils.sum_of_lists([[], []])
    assert str(theirs.value) == str(ours.value)


# --- python -m ---------------------------------------------------------------------------------

COMMAND_LINES = [
    ["--version"],
    ["REF", "-i", "SYS", "-m", "bleu", "chrf", "ter"],
    ["REF", "-i", "SYS", "SYS", "-m", "bleu", "chrf", "-f", "text"],
    ["REF", "-i", "SYS", "-m", "chrf", "--chrf-word-order", "2", "-b", "-w", "3"],
    ["REF", "-i", "SYS", "-sl", "-m", "bleu"],
    ["REF", "-i", "SYS", "--no-such-option"],
    ["REF", "-i", "MISSING"],
]


def _run_module(module: str, args: list[str], tmp_path: Path) -> tuple[str, str, int]:
    files = {"REF": "ref.txt", "SYS": "sys.txt", "MISSING": "missing.txt"}
    argv = [str(tmp_path / files[a]) if a in files else a for a in args]
    done = subprocess.run(
        [sys.executable, "-m", module, *argv],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    return done.stdout, done.stderr, done.returncode


@pytest.mark.parametrize("args", COMMAND_LINES, ids=" ".join)
def test_python_dash_m_is_sacrebleus(args: list[str], tmp_path: Path) -> None:
    """``python -m mtcompute.sacrebleu`` prints what ``python -m sacrebleu`` prints, with the
    same exit status (standard error compared where sacreBLEU's is not a traceback)."""
    (tmp_path / "ref.txt").write_text("The cat sat on the mat.\nA dog.\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("The cat sat on a mat.\nThe dog.\n", encoding="utf-8")
    theirs = _run_module("sacrebleu", args, tmp_path)
    ours = _run_module("mtcompute.sacrebleu", args, tmp_path)
    if "Traceback" in theirs[1]:  # sacreBLEU's traceback is one line here (see the docs)
        theirs, ours = (theirs[0], "", theirs[2]), (ours[0], "", ours[2])
    assert theirs == ours
