"""``mtcompute score``'s run: the options checked (the significance tests' too), the files
scored (:mod:`mtcompute.cli._score_chunks`, or with a test :mod:`mtcompute.cli._score_tests`,
imported then), and the results printed as text or JSON. Imported by
:func:`mtcompute.cli.score.run`, not by the parser."""

from __future__ import annotations

__all__ = ["run"]

import argparse
import re
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, cast

from mtcompute.cli._common import (
    EXIT_DATA_ERROR,
    EXIT_OK,
    EXIT_USAGE,
    SIGNIFICANCE_EXTRA,
    CommandError,
    check_language_pair,
    fail,
    label,
    missing_extra,
    repeated,
    share_memo,
)
from mtcompute.cli._score_chunks import _bleu_options, _on_cluster, _Run, _scored
from mtcompute.cli._test_set import CutFiles, cut_files, resolve_references
from mtcompute.errors import MtcomputeError
from mtcompute.report import is_significant

# The significance tests' module is imported by the functions that run them and print their
# results: a run without a test needs none of it.
if TYPE_CHECKING:
    from mtcompute.cli._score_tests import _Settings
    from mtcompute.significance import Result as TestResult


def _method(args: argparse.Namespace) -> str | None:
    """The paired test asked for: ``bootstrap``, ``ar`` or None."""
    return "bootstrap" if args.paired_bs else "ar" if args.paired_ar else None


def _tests_asked(args: argparse.Namespace) -> bool:
    """Whether a paired test or intervals are asked for."""
    return bool(args.paired_bs or args.paired_ar or args.ci)


def _check_tests(args: argparse.Namespace) -> None:
    """The significance options: each count with its test, tests with two or more systems,
    sacreBLEU's rules only."""
    alone = {
        "--paired-bs-n": (args.paired_bs_n, args.paired_bs, "--paired-bs"),
        "--paired-ar-n": (args.paired_ar_n, args.paired_ar, "--paired-ar"),
        "--ci-n": (args.ci_n, args.ci, "--ci"),
        "--seed": (args.seed, _tests_asked(args), "--paired-bs, --paired-ar or --ci"),
    }
    for flag, (value, test, needs) in alone.items():
        if value is not None and not test:
            raise CommandError(f"{flag} applies only with {needs}", EXIT_USAGE, "usage")
    if args.paired_bs and args.ci_n is not None:
        raise CommandError(
            "--ci-n does not apply with --paired-bs: its intervals come from its own "
            "resamples (--paired-bs-n)",
            EXIT_USAGE,
            "usage",
        )
    method = _method(args)
    if method is not None and len(args.hypotheses) < 2:
        flag = "--paired-bs" if method == "bootstrap" else "--paired-ar"
        raise CommandError(
            f"{flag} compares systems with a baseline: give two or more -H files (the first "
            f"is the baseline), got 1 ({label(args.hypotheses[0])})",
            EXIT_USAGE,
            "usage",
        )
    if _tests_asked(args) and args.rules == "contract":
        raise CommandError(
            "--paired-bs, --paired-ar and --ci apply to --rules sacrebleu only (the tests "
            "resample sacreBLEU's statistics)",
            EXIT_USAGE,
            "usage",
        )


def _check_wer(args: argparse.Namespace, metrics: list[str]) -> None:
    """WER and CER: one reference file, sacreBLEU's rules' default."""
    asked = [m for m in metrics if m in ("wer", "cer")]
    if not asked:
        return
    named = " ".join(asked)
    refused = [
        (len(args.references) > 1, f"one reference file, got {len(args.references)}"),
        (args.rules == "contract", "jiwer's rule only, --rules does not apply"),
    ]
    for fault, why in refused:
        if fault:
            raise CommandError(f"--metric {named}: {why}", EXIT_USAGE, "usage")


def _check_rates(args: argparse.Namespace, found: _Run) -> None:
    """A WER or CER total without reference units is refused (the rate has no
    denominator), as the library refuses it (the WER code imported only when asked for)."""
    if not {"wer", "cer"} & set(args.metric):
        return
    from mtcompute.metrics.wer.corpus import CorpusWer, no_reference_unit  # noqa: PLC0415

    for row in found.results:
        for result in row:
            if isinstance(result, CorpusWer) and not result.counts.reference_length:
                raise no_reference_unit(result.options)


def _check_options(args: argparse.Namespace) -> None:
    metrics: list[str] = args.metric
    repeated("--metric", metrics)
    options = {
        "--lowercase": (args.lowercase, ("bleu", "chrf", "chrf++", "wer", "cer")),
        "--beta": (args.beta, ("chrf", "chrf++")),
        "--tokenize": (args.tokenize, ("bleu",)),
        "--spm-model": (args.spm_model, ("bleu",)),
        "--smooth-method": (args.smooth_method, ("bleu",)),
        "--smooth-value": (args.smooth_value, ("bleu",)),
        "--max-order": (args.max_order, ("bleu",)),
        "--effective-order": (args.effective_order, ("bleu",)),
        "--normalized": (args.normalized, ("ter",)),
        "--no-punct": (args.no_punct, ("ter",)),
        "--asian-support": (args.asian_support, ("ter",)),
        "--case-sensitive": (args.case_sensitive, ("ter",)),
    }
    given = [
        flag
        for flag, (value, takers) in options.items()
        if value is not None and not set(takers) & set(metrics)
    ]
    if args.language_pair is not None and args.tokenize is None and "bleu" in metrics:
        check_language_pair(args.language_pair)
    if given:
        why = " (TER lowercases unless --case-sensitive)" if "--lowercase" in given else ""
        raise CommandError(
            f"{', '.join(given)} do(es) not apply to --metric {' '.join(metrics)}{why}",
            EXIT_USAGE,
            "usage",
        )
    method = args.smooth_method or "exp"
    if args.smooth_value is not None and method not in ("floor", "add-k"):
        raise CommandError(
            f"--smooth-value applies only to --smooth-method floor or add-k, got "
            f"--smooth-method {method}",
            EXIT_USAGE,
            "usage",
        )
    _check_wer(args, metrics)
    if args.rules == "contract":
        if "bleu" in metrics:
            raise CommandError(
                "--rules contract applies to chrf and chrf++ only: BLEU is scored by "
                "sacreBLEU's rules alone (for the contracts' BLEU on whitespace tokens, run "
                "the bleu-corpus-compute tool: mtcompute run bleu-corpus-compute 1.0.0)",
                EXIT_USAGE,
                "usage",
            )
        if "ter" in metrics:
            raise CommandError(
                "--rules contract applies to chrf and chrf++ only: TER is scored by "
                "sacreBLEU's rules alone (the ter-compute tool gives the same numbers)",
                EXIT_USAGE,
                "usage",
            )
        if len(args.references) > 1:
            raise CommandError(
                f"--rules contract takes exactly one reference file, got "
                f"{len(args.references)} ({', '.join(label(n) for n in args.references)}): "
                "the chrf-compute contract scores each segment against one reference; "
                "without --rules contract, chrF takes several (sacreBLEU's best reference "
                "per segment)",
                EXIT_USAGE,
                "usage",
            )
    _check_tests(args)


def _write_text(found: _Run, lines: list[list[list[str]]]) -> None:
    """One line per system and metric (``lines[s][m]``: the system's file name first when
    there are several), each followed by its segment scores when they were asked for."""
    out = sys.stdout.buffer
    for s, row in enumerate(lines):
        for m, text in enumerate(row):
            out.write("".join(f"{line}\n" for line in text).encode("utf-8"))
            if found.segments is not None:
                found.segments[s][m].copy("text", out)


def _prefixes(systems: Sequence[str]) -> list[str]:
    """What starts each system's lines: its file name, padded, when there are several."""
    labels = [label(name) for name in systems]
    width = max(len(text) for text in labels)
    return [f"{name:<{width}}  " if len(systems) > 1 else "" for name in labels]


def _text(systems: Sequence[str], found: _Run) -> list[list[list[str]]]:
    """Per system and metric its score line."""
    return [
        [[f"{prefix}{result}"] for result in row]
        for prefix, row in zip(_prefixes(systems), found.results, strict=True)
    ]


def _json(args: argparse.Namespace, found: _Run) -> dict[str, object]:
    """The whole run as one object: the references, the segment count, and per system the
    scores by metric (the batch results' own data; the segment arrays, written from their
    files, stand in as :func:`_placeholder` strings)."""
    systems: list[dict[str, object]] = []
    for s, (name, row) in enumerate(zip(args.hypotheses, found.results, strict=True)):
        scores: dict[str, object] = {}
        for m, (metric, result) in enumerate(zip(args.metric, row, strict=True)):
            data = result.to_dict()
            if found.segments is not None:
                for key in found.segments[s][m].files:
                    data[key] = _placeholder(found, s, m, key)
            scores[metric] = data
        systems.append({"hypotheses": label(name), "scores": scores})
    cut = {} if args.cut is None else {"test_set": args.cut.to_dict()}  # --origlang/--subset
    return {
        "references": [label(name) for name in args.references],
        "segment_count": found.count,
        "systems": systems,
        **cut,
    }


def _placeholder(found: _Run, system: int, metric: int, key: str) -> str:
    """The string that stands for a segment array in the JSON text until it is written."""
    return f"{found.token}:{system}:{metric}:{key}"


def _write_json(data: dict[str, object], found: _Run) -> None:
    """``data`` as compact JSON, each placeholder string replaced by its array, copied from
    its file."""
    from mtcompute.core.jsjson import dumps  # noqa: PLC0415

    text = dumps(data)
    out = sys.stdout.buffer
    if found.segments is None:
        out.write(text.encode("utf-8") + b"\n")
        return
    pieces = re.split(f'"{found.token}:([0-9]+):([0-9]+):([a-z_]+)"', text)
    out.write(pieces[0].encode("utf-8"))
    for at in range(1, len(pieces), 4):
        system, metric, key, after = pieces[at : at + 4]
        out.write(b"[")
        found.segments[int(system)][int(metric)].copy(key, out)
        out.write(b"]" + after.encode("utf-8"))
    out.write(b"\n")


def _tested_text(
    systems: Sequence[str], found: _Run, tests: list[list[TestResult]], settings: _Settings
) -> list[list[list[str]]]:
    """:func:`_text` with each score line
    :func:`~mtcompute.cli._score_tests._tested_line`."""
    from mtcompute.cli._score_tests import _tested_line  # noqa: PLC0415

    return [
        [
            [f"{prefix}{_tested_line(result, test, settings, s == 0)}"]
            for result, test in zip(row, tests[s], strict=True)
        ]
        for s, (prefix, row) in enumerate(zip(_prefixes(systems), found.results, strict=True))
    ]


def _tested_json(
    args: argparse.Namespace,
    found: _Run,
    tests: list[list[TestResult]],
    settings: _Settings,
) -> dict[str, object]:
    """:func:`_json` with the test's settings, each system's ``baseline`` flag, and each
    score's test signature, ``mean``, ``ci``, ``p_value`` and ``significant``."""
    from mtcompute.cli._score_tests import _tested_signature  # noqa: PLC0415

    out = _json(args, found)
    out["significance"] = settings.to_dict()
    paired = settings.method is not None
    for s, system in enumerate(cast("list[dict[str, Any]]", out["systems"])):
        if paired:
            system["baseline"] = s == 0
        for t, metric in enumerate(args.metric):
            test = tests[s][t]
            scores = system["scores"][metric]
            scores["signature"] = _tested_signature(found.results[s][t], settings)
            scores["mean"] = test.mean
            scores["ci"] = test.ci
            scores["p_value"] = test.p_value
            scores["significant"] = is_significant(test.p_value)
    return out


def _one_memo(args: argparse.Namespace, stack: ExitStack) -> None:
    """BLEU with a tokenizer Python runs line by line (zh, intl, ja-mecab, ko-mecab): one
    memo for the run (each system's call builds its own tokenizer, and the references would
    be tokenized again for each)."""
    if "bleu" in args.metric:
        share_memo(stack, _bleu_options(args).tokenize)


def run(args: argparse.Namespace) -> int:
    """Run ``mtcompute score`` with parsed arguments; return the exit status."""
    cut: CutFiles | None = None
    try:
        resolve_references(args)
        _check_options(args)
        cut = cut_files(args)  # --origlang/--subset: cut copies of the files until closed
        tests: list[list[TestResult]] | None = None
        if args.scheduler is not None:  # on a Dask cluster: mtcompute.dask
            found = _on_cluster(args)
            _check_rates(args, found)
        elif _tests_asked(args):
            what = "--paired-bs, --paired-ar and --ci"
            if problem := missing_extra(what, "significance", SIGNIFICANCE_EXTRA):
                raise CommandError(problem, EXIT_USAGE, "usage")
            from mtcompute.cli import _score_tests  # noqa: PLC0415

            settings = _score_tests._settings(args, _method(args))
            with ExitStack() as stack:
                _one_memo(args, stack)
                found, tests = _score_tests._tested(args, settings)
            _check_rates(args, found)
        else:
            with ExitStack() as stack:
                _one_memo(args, stack)
                found = _scored(args)
            _check_rates(args, found)
    except CommandError as exc:
        return fail(args, exc, "score")
    except MtcomputeError as exc:  # the library refused the input
        return fail(args, CommandError(exc.message, EXIT_DATA_ERROR, exc.code), "score")
    finally:
        if cut is not None:
            cut.close()
    if args.cut is not None and args.format != "json":
        sys.stdout.buffer.write(f"{args.cut.line()}\n".encode())
    if tests is not None:
        if args.format == "json":
            _write_json(_tested_json(args, found, tests, settings), found)
        else:
            _write_text(found, _tested_text(args.hypotheses, found, tests, settings))
    elif args.format == "json":
        _write_json(_json(args, found), found)
    else:
        _write_text(found, _text(args.hypotheses, found))
    sys.stdout.flush()
    return EXIT_OK
