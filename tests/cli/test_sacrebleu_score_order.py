"""``mtcompute sacrebleu`` scores BLEU last, so that a second MeCab process parses while the
other metrics count (:func:`mtcompute.cli._sacrebleu_output._corpus_scores`), and what shows
stays sacreBLEU's: the columns, the warnings in its order, and after an error the error its
order meets first."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

import pytest

from mtcompute import native
from mtcompute.cli import main
from mtcompute.cli._sacrebleu_output import Logged, Session, _corpus_scores, _score_columns
from mtcompute.sacrebleu import BLEU, CHRF, TER
from tests.cli.test_cli_sacrebleu import diff
from tests.oracle import answer

HYPOTHESES = [
    ["the cat sat on the mat", "a dog barked"],
    ["the cat is on the mat", "the dog barked"],
    ["cat mat", "dog"],
]
REFERENCES = [["the cat sat on the mat", "the dog barked loudly"]]


class Spy:
    """A real metric whose ``corpus_score`` logs and records each call (``system`` found by
    the hypotheses it is given) and raises for the systems in ``failing``."""

    def __init__(self, metric: Any, name: str, calls: list[tuple[str, int]], failing: set[int]):
        self.metric, self.name, self.calls, self.failing = metric, name, calls, failing

    def corpus_score(self, hypotheses: list[str], references: None) -> Any:
        system = next(i for i, h in enumerate(HYPOTHESES) if h is hypotheses)
        self.calls.append((self.name, system))
        logging.getLogger("sacrebleu").warning(f"{self.name} of system {system}")
        if system in self.failing:
            raise ValueError(f"{self.name} fails on system {system}")
        return self.metric.corpus_score(hypotheses, references)

    def get_signature(self) -> Any:
        return self.metric.get_signature()


def spies(
    calls: list[tuple[str, int]], failing: dict[str, set[int]] | None = None
) -> dict[str, Any]:
    metrics = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
    return {
        name: Spy(cls(references=REFERENCES), name, calls, (failing or {}).get(name, set()))
        for name, cls in metrics.items()
    }


def columns(metrics: dict[str, Any]) -> tuple[dict[str, str], dict[str, list[Any]]]:
    """The command's columns of the three systems, logged as the command logs."""
    session = Session(colors=False, strip=False, quiet=False)
    args = argparse.Namespace(short=False, width=1)
    names = [f"S{s}" for s in range(len(HYPOTHESES))]
    with Logged(session):
        return _score_columns(args, metrics, names, _corpus_scores(session, metrics, HYPOTHESES))


def test_bleu_is_scored_last_and_everything_shows_in_sacrebleus_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """chrF and TER of every system first (system by system), then BLEU; the columns are
    those of scoring in sacreBLEU's order (system by system, the metrics sorted), and so are
    the log lines."""
    calls: list[tuple[str, int]] = []
    got = columns(spies(calls))
    logged = capsys.readouterr().err
    first = [(n, s) for s in range(3) for n in ("CHRF", "TER")]
    assert calls == [*first, ("BLEU", 0), ("BLEU", 1), ("BLEU", 2)]

    sacrebleu_order = [(s, n) for s in range(3) for n in ("BLEU", "CHRF", "TER")]
    assert logged == "".join(f"sacreBLEU: {n} of system {s}\n" for s, n in sacrebleu_order)
    calls.clear()
    metrics = spies(calls)
    args = argparse.Namespace(short=False, width=1)
    plain = _score_columns(
        args, metrics, ["S0", "S1", "S2"], lambda s, n: metrics[n].corpus_score(HYPOTHESES[s], None)
    )
    assert calls == [(n, s) for s, n in sacrebleu_order]
    assert got == plain
    assert list(got[1]) == ["System", "BLEU", "chrF2", "TER"]


def test_after_an_error_the_error_and_the_lines_are_those_of_sacrebleus_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """chrF fails on system 2 and BLEU on system 1: the first pass meets chrF's error first,
    sacreBLEU's order BLEU's. BLEU's error is raised, after the lines sacreBLEU would have
    logged before it, and none of the first pass's."""
    calls: list[tuple[str, int]] = []
    with pytest.raises(ValueError, match="BLEU fails on system 1"):
        columns(spies(calls, {"BLEU": {1}, "CHRF": {2}}))
    logged = capsys.readouterr().err
    before = [(0, "BLEU"), (0, "CHRF"), (0, "TER"), (1, "BLEU")]
    assert logged == "".join(f"sacreBLEU: {n} of system {s}\n" for s, n in before)


def _tokenized(folder: Path) -> None:
    """A reference and three systems of 120 lines, the systems' ending in a tokenized
    period (sacreBLEU warns for each metric that checks)."""
    for name in ("ref", "s1", "s2", "s3"):
        ending = "." if name == "ref" else f" {name} ."
        lines = [f"the line {i}{ending}" for i in range(120)]
        (folder / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _sacrebleus(folder: Path, case: diff.Case) -> tuple[int, str, str]:
    """sacreBLEU's status, stdout and stderr for ``case`` in ``folder`` (recorded)."""
    files = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(folder.iterdir())]

    def run() -> tuple[int, str, str]:
        outcome = diff.run_subprocess(diff.sacrebleu_command(), case, folder)
        return outcome.status, outcome.stdout.decode(), outcome.stderr.decode()

    status, stdout, stderr = answer(
        "sacrebleu command: status, stdout, stderr", [list(case.args)], files, run
    )
    return status, stdout, stderr


PAIRED = {
    "pbs-bleu-chrf": ("-pbs", "-m", "bleu", "chrf", "-f", "text"),
    "pbs-bleu-chrf-ter": ("-pbs", "-m", "bleu", "chrf", "ter", "-f", "text"),
    "pbs-quiet": ("-pbs", "-m", "bleu", "chrf", "-f", "text", "-q"),
    "par-bleu-chrf": ("-par", "-m", "bleu", "chrf", "-f", "text"),
    "par-ter": ("-par", "-m", "ter", "-f", "text"),
}


@pytest.mark.parametrize("case", PAIRED)
def test_the_paired_tests_log_sacrebleus_lines(tmp_path: Path, case: str) -> None:
    """The paired tests' steps (Pre-computing ..., Computing ... for ..., > Performing ...)
    with the statistics' warnings between them: stdout and stderr are sacreBLEU's bytes, on
    the kernel's bootstrap (BLEU and chrF) and on numpy's path (TER, -par)."""
    _tokenized(tmp_path)
    case_ = diff.Case(("ref", "-i", "s1", "s2", "s3", *PAIRED[case]))
    expected = _sacrebleus(tmp_path, case_)
    ours = diff.run_subprocess(diff.mtcompute_command(), case_, tmp_path)
    assert (b" > Performing " in ours.stderr) == ("-q" not in case_.args)  # INFO lines
    assert expected == (ours.status, ours.stdout.decode(), ours.stderr.decode())


def test_the_kernel_declining_logs_nothing_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """When the kernel's bootstrap declines after the statistics (float32 sums that could
    round), what it logged is dropped: numpy's path logs it once, as sacreBLEU does."""
    if native.ext is None:
        pytest.skip("built without the C kernel (the pure path never tries it)")
    _tokenized(tmp_path)
    args = ("ref", "-i", "s1", "s2", "s3", "-pbs", "-m", "bleu", "chrf", "-f", "text")
    expected = _sacrebleus(tmp_path, diff.Case(args))
    declined: list[int] = []

    def decline(*_: object) -> None:
        declined.append(1)

    monkeypatch.setattr(native.ext, "bootstrap_scores", decline)
    monkeypatch.chdir(tmp_path)
    status = main(["sacrebleu", *args])
    out, err = capsys.readouterr()
    assert declined
    assert expected == (status, out, err)


@pytest.mark.parametrize("metrics", [("bleu", "chrf"), ("chrf", "ter", "bleu")])
def test_the_warnings_of_several_systems_are_sacrebleus_bytes(
    tmp_path: Path, metrics: tuple[str, ...]
) -> None:
    """Standard output and standard error, warnings included, are sacreBLEU's."""
    _tokenized(tmp_path)
    case = diff.Case(("ref", "-i", "s1", "s2", "s3", "-m", *metrics))
    status, stdout, stderr = _sacrebleus(tmp_path, case)
    ours = diff.run_subprocess(diff.mtcompute_command(), case, tmp_path)
    assert b"tokenized period" in ours.stderr
    assert (status, stdout, stderr) == (ours.status, ours.stdout.decode(), ours.stderr.decode())


def test_an_interrupt_writes_the_lines_of_the_scores_sacrebleus_order_had_made(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Ctrl-C while BLEU scores system 1 (the first pass's last but one score): the
    interrupt goes on, after the log lines sacreBLEU's order had written by then (those of
    system 0), not none of them (held) nor those of the scores it had not reached."""

    class Interrupting(Spy):
        def corpus_score(self, hypotheses: list[str], references: None) -> Any:
            if hypotheses is HYPOTHESES[1]:
                raise KeyboardInterrupt
            return super().corpus_score(hypotheses, references)

    calls: list[tuple[str, int]] = []
    metrics = spies(calls)
    metrics["BLEU"] = Interrupting(BLEU(references=REFERENCES), "BLEU", calls, set())
    with pytest.raises(KeyboardInterrupt):
        columns(metrics)
    logged = capsys.readouterr().err
    assert logged == "".join(f"sacreBLEU: {n} of system 0\n" for n in ("BLEU", "CHRF", "TER"))
