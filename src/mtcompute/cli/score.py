"""``mtcompute score``: corpus chrF or BLEU of plain-text files, one segment per line.

chrF is Popović 2015 §2 (eq. 1) exactly as the chrf-compute contract defines the corpus score
(per-order counts summed over every segment, sacreBLEU 2.x effective order), computed by
:func:`mtcompute.batch.corpus_chrf`. BLEU is Papineni et al. 2002 §2 on whitespace tokens:
corpus statistics from :func:`mtcompute.batch.text_bleu_statistics` (what
:func:`mtcompute.batch.corpus_bleu` gives for the ``str.split()`` tokens, counted without
making a str per token), smoothed and scored with the bleu-smoothing-compute arithmetic
(Chen & Cherry 2014 §2.2) in :func:`mtcompute.core.bleu.smooth_and_score`.

This module reads files, checks them, and prints; it adds no arithmetic of its own. Every
call into the metric code is in one section below ("the library calls").

Exit status: 0 with a score; 1 on a data error (a file that is not UTF-8, files of different
lengths, no segments, an input the library refuses); 2 on a usage error (bad options, a file
that cannot be opened, ``-`` twice, chrF with more than one reference file).
"""

from __future__ import annotations

__all__ = ["ScoreError", "add_parser", "run", "split_segments"]

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import IO, TypeVar

from mtcompute.batch import CorpusChrf, corpus_chrf, text_bleu_statistics
from mtcompute.cli._common import (
    EXIT_OK,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    STDIN,
    Subparsers,
    add_command,
)
from mtcompute.contracts import fields
from mtcompute.contracts.validate import FieldType
from mtcompute.core.bleu import SMOOTHINGS, BleuStatistics, SmoothedBleu, Smoothing
from mtcompute.core.jsjson import dumps
from mtcompute.errors import MtcomputeError

EXIT_DATA_ERROR = EXIT_TOOL_ERROR  # 1: files that cannot be scored (score runs no tool)
PROGRESS_MIN_SEGMENTS = 10_000  # a bar only for inputs longer than this (and a TTY stderr)
CHUNK_SEGMENTS = 2_000  # segments per step when a progress bar is shown

_DESCRIPTION = """\
Score a system output against its reference(s): corpus chrF (default) or corpus BLEU.

Files are plain UTF-8 text, one segment per line. Only '\\n' ends a line: a '\\r' before it is
kept as part of the segment (both metrics then ignore it as whitespace), and a final '\\n' at
the end of a file does not start an extra segment. Every file must have the same number of
lines. FILE may be '-' for standard input, for at most one of the files.

chrF is the chrf-compute contract's corpus chrF (character n-grams 1..6, whitespace removed,
per-order counts summed over all segments); it takes exactly one reference file, since the
contract defines chrF against one reference per segment and multi-reference chrF has several
incompatible definitions. BLEU tokenizes with str.split() (whitespace tokenization, not
sacreBLEU's 13a tokenizer: tokenize your files first if you want 13a) and takes any number of
reference files (the closest reference length per segment, ties to the shorter)."""

_EPILOG = """\
examples:
  mtcompute score --hypotheses sys.txt --references ref.txt
  chrF2 = 64.321612  (exact 7384771108...228995895250/1148101069...905824549483, 2037 segments)

  mtcompute score -H sys.txt -r ref.txt --metric bleu
  BLEU = 0.327741  BP = 1.000000  ratio = 1.012774  hyp_len = 33853  ref_len = 33426  \\
    matches = 20118/12319/7951/5216  totals = 33853/31816/29787/27767       (one line)

  mtcompute score -H sys.txt -r refA.txt refB.txt --metric bleu --smoothing method1 --segments
  cat sys.txt | mtcompute score -H - -r ref.txt --segments --format json

--segments adds each segment's own score: chrF of the segment alone, or sentence BLEU, which
is BLEU from the segment's own statistics with the same --smoothing, --epsilon and
--effective-order as the corpus score (so with --smoothing none a segment with no 4-gram
match scores 0).

--format json prints one compact JSON object (numbers as JavaScript writes them) with the
settings, the corpus score (for chrF also the exact fraction and the six-decimal score text,
rounded half to even) and, with --segments, "segment_scores".

A progress bar is drawn on standard error when it is a terminal and the input has more than
10,000 segments; --no-progress turns it off.

exit status: 0 scored; 1 data error (a file that is not UTF-8, with the line number and byte
offset; files of different lengths; no segments); 2 usage error (bad options, a file that
cannot be read, '-' given twice, chrF with more than one reference file). With --format json
a data error goes to standard output instead, as {"error":{"code","message","path"}}."""


class ScoreError(Exception):
    """A reason not to score, with the exit status it maps to."""

    def __init__(self, message: str, exit_code: int, code: str = "invalid_input") -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.code = code


T = TypeVar("T")


def _checked(field_type: FieldType[T], flag: str) -> Callable[[str], T]:
    """argparse ``type=``: the option's text read as a number, then checked by the field type
    the tools and the batch APIs check (one rule, one message: ``--beta 17`` is refused as
    ``corpus_chrf(..., beta=17)`` and chrf-compute refuse it)."""

    def parse(text: str) -> T:
        try:
            number: int | float = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        try:
            return field_type.parse(number, flag)
        except MtcomputeError as error:
            raise argparse.ArgumentTypeError(error.message) from None

    return parse


# -- options -------------------------------------------------------------------------------


_TEXTS = (  # help, description, epilog
    "score a system output file against reference file(s): chrF or BLEU",
    _DESCRIPTION,
    _EPILOG,
)


def add_parser(subparsers: Subparsers) -> None:
    """Register the ``score`` sub-command: its options in four groups (the order of --help).

    The metric options default to None, not to their values, so that :func:`run` can tell
    an option given for the other metric."""
    parser = add_command(subparsers, "score", run, _TEXTS)
    parser.add_argument(
        "--hypotheses",
        "-H",
        required=True,
        metavar="FILE",
        help="system output, one segment per line ('-' for stdin)",
    )
    parser.add_argument(
        "--references",
        "-r",
        required=True,
        nargs="+",
        metavar="FILE",
        help="reference file(s), line-aligned with the hypotheses ('-' for stdin)",
    )
    parser.add_argument(
        "--metric", choices=["chrf", "bleu"], default="chrf", help="metric (default chrf)"
    )
    chrf = parser.add_argument_group("chrF options")
    chrf.add_argument(
        "--beta",
        type=_checked(fields.BETA, "--beta"),
        default=None,
        help="recall weight, 1..16 (default 2)",
    )
    chrf.add_argument(
        "--lowercase", action="store_true", default=None, help="lowercase both sides first"
    )
    bleu = parser.add_argument_group("BLEU options")
    bleu.add_argument(
        "--max-order",
        type=_checked(fields.MAX_ORDER, "--max-order"),
        default=None,
        help="highest n-gram order (default 4)",
    )
    bleu.add_argument(
        "--smoothing",
        choices=list(SMOOTHINGS),
        default=None,
        help="Chen & Cherry 2014 smoothing (default none)",
    )
    bleu.add_argument(
        "--epsilon",
        type=_checked(fields.EPSILON, "--epsilon"),
        default=None,
        help="method1's value for a zero match count, 0..1 (default 0.1; method1 only)",
    )
    bleu.add_argument(
        "--effective-order",
        action="store_true",
        default=None,
        help="use only the leading orders with a positive total",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--segments", action="store_true", help="also print each segment's own score"
    )
    output.add_argument(
        "--format", choices=["text", "json"], default="text", help="output format (default text)"
    )
    output.add_argument(
        "--no-progress", action="store_true", help="never draw the progress bar on stderr"
    )


# -- input ---------------------------------------------------------------------------------


def _label(name: str) -> str:
    return "<stdin>" if name == STDIN else name


def _read_bytes(name: str) -> bytes:
    if name == STDIN:
        return sys.stdin.buffer.read()
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise ScoreError(
            f"cannot read {name}: {exc.strerror or exc}", EXIT_USAGE, "usage"
        ) from None


def split_segments(data: bytes, name: str) -> list[str]:
    """Decode strict UTF-8 and split on ``\\n`` only; a final ``\\n`` ends the last segment.

    >>> split_segments(b"a b\\r\\n\\nc\\n", "f")
    ['a b\\r', '', 'c']
    >>> split_segments(b"", "f")
    []
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1)
        raise ScoreError(
            f"{_label(name)}: line {line} is not valid UTF-8: byte 0x{data[exc.start]:02x} "
            f"at byte offset {exc.start} of the file (offset {column} in the line): {exc.reason}",
            EXIT_DATA_ERROR,
        ) from None
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def _read_all(hypotheses: str, references: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    names = [hypotheses, *references]
    if names.count(STDIN) > 1:
        raise ScoreError("'-' (stdin) can stand for at most one file", EXIT_USAGE, "usage")
    # Open every file before decoding any, so a missing file is reported before a bad byte.
    raw = [_read_bytes(name) for name in names]
    texts = [split_segments(data, name) for data, name in zip(raw, names, strict=True)]
    hyp_lines, ref_lines = texts[0], texts[1:]
    for name, lines in zip(references, ref_lines, strict=True):
        if len(lines) != len(hyp_lines):
            raise ScoreError(
                f"the files have different numbers of lines: {_label(hypotheses)} has "
                f"{len(hyp_lines)}, {_label(name)} has {len(lines)}; every file needs one "
                "line per segment",
                EXIT_DATA_ERROR,
            )
    if not hyp_lines:
        raise ScoreError(f"no segments to score: {_label(hypotheses)} is empty", EXIT_DATA_ERROR)
    return hyp_lines, ref_lines


# -- progress ------------------------------------------------------------------------------


class _Progress:
    """A plain-text bar on a terminal's stderr, redrawn in place; a no-op when disabled."""

    WIDTH = 30

    def __init__(self, total: int, label: str, stream: IO[str] | None) -> None:
        self.total, self.label, self.stream, self.done = total, label, stream, 0

    def advance(self, count: int) -> None:
        if self.stream is None:
            return
        self.done += count
        filled = self.WIDTH * self.done // self.total
        percent = 100 * self.done // self.total
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
            f"{percent:3d}% {self.done}/{self.total} segments"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write("\r" + " " * (self.WIDTH + 48 + len(self.label)) + "\r")
            self.stream.flush()


def _progress(args: argparse.Namespace, total: int, label: str) -> _Progress:
    stderr = sys.stderr
    shown = not args.no_progress and total > PROGRESS_MIN_SEGMENTS and stderr.isatty()
    return _Progress(total, label, stderr if shown else None)


def _chunks(total: int, progress: _Progress) -> list[range]:
    step = CHUNK_SEGMENTS if progress.stream is not None else max(total, 1)
    return [range(start, min(start + step, total)) for start in range(0, total, step)]


# -- the library calls -------------------------------------------------------------------
# Every call score makes into the metric code is here (with the imports at the top): the
# batch APIs (corpus chrF; BLEU statistics of whitespace-split texts) and the
# bleu-smoothing-compute arithmetic. Both are computed in chunks (for the progress bar)
# whose results add up.


def _chrf_chunk(
    hyps: Sequence[str], refs: Sequence[str], beta: int, lowercase: bool, segments: bool
) -> CorpusChrf:
    """Corpus chrF of a chunk of segments (with each segment's score if ``segments``)."""
    return corpus_chrf(hyps, refs, beta=beta, lowercase=lowercase, segment_scores=segments)


def _bleu_zero(max_order: int) -> BleuStatistics:
    """BLEU statistics of no segment: what the chunks are added to."""
    return BleuStatistics(0, 0, (0,) * max_order, (0,) * max_order)


def _bleu_chunk(
    hyps: Sequence[str], refs: Sequence[Sequence[str]], max_order: int, segments: bool
) -> tuple[BleuStatistics, list[BleuStatistics] | None]:
    """BLEU statistics of a chunk on whitespace tokens (str.split(), the same as sacreBLEU's
    tokenize='none'; the kernel splits the lines itself): their sum and, with ``segments``,
    each segment's. ``refs`` holds one sequence per reference file."""
    return text_bleu_statistics(
        hyps, list(zip(*refs, strict=True)), max_order=max_order, per_segment=segments
    )


def _bleu_score(
    stats: BleuStatistics, smoothing: Smoothing, epsilon: float, effective_order: bool
) -> SmoothedBleu:
    """BLEU of ``stats``, smoothed (Chen & Cherry 2014 §2.2)."""
    return stats.score(smoothing, epsilon, effective_order)


# -- metrics -------------------------------------------------------------------------------


def _check_options(args: argparse.Namespace) -> None:
    chrf_only = {"--beta": args.beta, "--lowercase": args.lowercase}
    bleu_only = {
        "--max-order": args.max_order,
        "--smoothing": args.smoothing,
        "--epsilon": args.epsilon,
        "--effective-order": args.effective_order,
    }
    other = bleu_only if args.metric == "chrf" else chrf_only
    given = [flag for flag, value in other.items() if value is not None]
    if given:
        raise ScoreError(
            f"{', '.join(given)} do(es) not apply to --metric {args.metric}", EXIT_USAGE, "usage"
        )
    if args.epsilon is not None and args.smoothing != "method1":
        raise ScoreError(
            f"--epsilon applies only to --smoothing method1, got --smoothing "
            f"{args.smoothing or 'none'}",
            EXIT_USAGE,
            "usage",
        )
    if args.metric == "chrf" and len(args.references) > 1:
        raise ScoreError(
            f"chrF takes exactly one reference file, got {len(args.references)} "
            f"({', '.join(_label(n) for n in args.references)}): the chrf-compute contract "
            "scores each segment against one reference, and multi-reference chrF has no "
            "single agreed definition; score each reference file separately, or use "
            "--metric bleu, which takes several",
            EXIT_USAGE,
            "usage",
        )


def _score_chrf(
    args: argparse.Namespace, hyps: list[str], refs: list[str]
) -> tuple[str, dict[str, object]]:
    beta = 2 if args.beta is None else args.beta
    lowercase = bool(args.lowercase)
    progress = _progress(args, len(hyps), "chrF")
    result = None
    for chunk in _chunks(len(hyps), progress):
        part = _chrf_chunk(
            hyps[chunk.start : chunk.stop],
            refs[chunk.start : chunk.stop],
            beta,
            lowercase,
            args.segments,
        )
        result = part if result is None else result + part  # the statistics add up
        progress.advance(len(chunk))
    progress.close()
    if result is None:  # _read_all refuses empty input; this is for the type checker
        raise ScoreError("no segments to score", EXIT_DATA_ERROR)
    fields: dict[str, object] = {
        "metric": "chrF",
        "char_order": 6,
        "word_order": 0,
        "beta": beta,
        "lowercase": lowercase,
        "segment_count": len(hyps),
        "score": result.score_text,
        "score_fraction": f"{result.numerator}/{result.denominator}",
        "score_value": result.score,
    }
    if args.segments:
        fields["segment_scores"] = list(result.segment_scores or ())
    name = f"chrF{beta}" + (" (lowercase)" if lowercase else "")
    text = (
        f"{name} = {result.score_text}  (exact {fields['score_fraction']}, "
        f"{len(hyps)} segment{'s' if len(hyps) != 1 else ''})"
    )
    return text, fields


def _score_bleu(
    args: argparse.Namespace, hyps: list[str], refs: list[list[str]]
) -> tuple[str, dict[str, object]]:
    max_order = 4 if args.max_order is None else args.max_order
    # argparse's choices are SMOOTHINGS; look the name up to keep its Literal type
    smoothing = SMOOTHINGS[SMOOTHINGS.index(args.smoothing or "none")]
    epsilon = 0.1 if args.epsilon is None else args.epsilon
    effective_order = bool(args.effective_order)
    progress = _progress(args, len(hyps), "BLEU")
    total = _bleu_zero(max_order)
    segment_scores: list[float] = []
    for chunk in _chunks(len(hyps), progress):
        part, segments = _bleu_chunk(
            hyps[chunk.start : chunk.stop],
            [ref[chunk.start : chunk.stop] for ref in refs],
            max_order,
            args.segments,
        )
        total = total + part
        for stats in segments or ():  # sentence BLEU: each segment's own, same smoothing
            segment_scores.append(_bleu_score(stats, smoothing, epsilon, effective_order).bleu)
        progress.advance(len(chunk))
    progress.close()
    c, r = total.candidate_length, total.reference_length
    matches, totals = list(total.matches), list(total.totals)
    scored = _bleu_score(total, smoothing, epsilon, effective_order)
    fields: dict[str, object] = {
        "metric": "BLEU",
        "tokenize": "whitespace",
        "max_order": max_order,
        "smoothing": smoothing,
    }
    if smoothing == "method1":
        fields["epsilon"] = epsilon
    fields |= {
        "effective_order": effective_order,
        "reference_count": len(refs),
        "segment_count": len(hyps),
        "bleu": scored.bleu,
        "brevity_penalty": scored.brevity_penalty,
        "ratio": c / r if r else None,
        "candidate_length": c,
        "reference_length": r,
        "matches": matches,
        "totals": totals,
        "orders_used": scored.orders_used,
    }
    if args.segments:
        fields["segment_scores"] = segment_scores
    ratio = "n/a" if r == 0 else f"{c / r:.6f}"
    text = (
        f"BLEU = {scored.bleu:.6f}  BP = {scored.brevity_penalty:.6f}  ratio = {ratio}  "
        f"hyp_len = {c}  ref_len = {r}  matches = {'/'.join(map(str, matches))}  "
        f"totals = {'/'.join(map(str, totals))}"
    )
    return text, fields


# -- the command ---------------------------------------------------------------------------


def _write_line(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")


def _fail(args: argparse.Namespace, error: ScoreError) -> int:
    if error.exit_code == EXIT_DATA_ERROR and args.format == "json":
        envelope = {"error": {"code": error.code, "message": error.message, "path": ""}}
        _write_line(dumps(envelope))
    else:
        sys.stderr.write(f"mtcompute score: error: {error.message}\n")
    return error.exit_code


def run(args: argparse.Namespace) -> int:
    """Run ``mtcompute score`` with parsed arguments; return the exit status."""
    try:
        _check_options(args)
        hyps, refs = _read_all(args.hypotheses, args.references)
        if args.metric == "chrf":
            text, fields = _score_chrf(args, hyps, refs[0])
        else:
            text, fields = _score_bleu(args, hyps, refs)
    except ScoreError as exc:
        return _fail(args, exc)
    except MtcomputeError as exc:  # the library refused the input (e.g. a limit)
        return _fail(args, ScoreError(exc.message, EXIT_DATA_ERROR, exc.code))
    if args.format == "json":
        _write_line(dumps(fields))
    else:
        lines = [text]
        if args.segments:
            scores = fields["segment_scores"]
            assert isinstance(scores, list)
            lines.extend(f"{score:.6f}" for score in scores)
        _write_line("\n".join(lines))
    sys.stdout.flush()
    return EXIT_OK
