"""The inputs of ``score`` and ``compare``, declared once for both parsers: the system files
(``-H``), the references (``-r`` files, or ``-t/--test-set`` with ``-l``: one of sacreBLEU's
test sets, the files of sacreBLEU's cache, made and downloaded first when missing, as
``mtcompute sacrebleu -t`` makes them), sacreBLEU's ``--origlang``/``--subset`` cut of the
test set (:func:`mtcompute.testsets.filter_subset`, the segments ``mtcompute sacrebleu``
keeps), and BLEU's tokenizer (``--tokenize``, ``--spm-model``; ``-l`` chooses it too).
:mod:`mtcompute.testsets` is imported only when ``-t`` is given."""

from __future__ import annotations

__all__ = ["Cut", "CutFiles", "add_inputs", "cut_files", "cut_segments", "resolve_references"]

import argparse
import re
from typing import TYPE_CHECKING, NamedTuple

from mtcompute.cli._common import (
    EXIT_DATA_ERROR,
    EXIT_USAGE,
    CommandError,
    Options,
    add_files,
    add_language_pair,
    add_spm_model,
    tokenizer_name,
)

if TYPE_CHECKING:
    from tempfile import TemporaryDirectory


def add_inputs(options: Options, hypotheses: str, aligned: str, bleu: Options) -> None:
    """``-H FILE...`` (``hypotheses``: its help), ``-r FILE...`` (line-aligned with the
    ``aligned`` files; optional, as ``-t`` may give them instead: :func:`resolve_references`
    checks that one of the two is there), ``-t NAME``, ``-l SRC-TRG``, ``--origlang LANG``
    and ``--subset NAME`` in ``options``; BLEU's ``--tokenize`` and ``--spm-model`` in
    ``bleu`` (a group of ``options``, or ``options`` itself)."""
    add_files(options, ("--hypotheses", "-H"), hypotheses)
    options.add_argument(
        "--references",
        "-r",
        nargs="+",
        default=[],
        metavar="FILE",
        help=f"reference file(s), line-aligned with the {aligned} ('-' for stdin); or -t",
    )
    options.add_argument(
        "-t",
        "--test-set",
        default=None,
        metavar="NAME",
        help="take the references from sacreBLEU's test set NAME for the -l pair (e.g. -t "
        "wmt22 -l en-de: reference A, as sacreBLEU scores it), instead of -r; downloaded once "
        "into sacreBLEU's cache ($SACREBLEU, else ~/.sacrebleu), its MD5 sum checked",
    )
    add_language_pair(options)
    options.add_argument(
        "--origlang",
        "-ol",
        default=None,
        metavar="LANG",
        help="with -t: score only the documents whose original language is LANG (non-LANG: "
        "any other), as sacreBLEU's --origlang; the system files still hold the whole test set",
    )
    options.add_argument(
        "--subset",
        default=None,
        metavar="NAME",
        help="with -t: score only the documents whose annotation matches the regular "
        "expression NAME (a WMT XML domain such as news; country:XX or a topic on the sets "
        "sacreBLEU annotates), as sacreBLEU's --subset",
    )
    options.set_defaults(cut=None)
    bleu.add_argument(
        "--tokenize",
        type=tokenizer_name,
        default=None,
        metavar="NAME",
        help="BLEU's tokenizer (sacreBLEU's): 13a (default), intl, zh, char, none, ja-mecab, "
        "ko-mecab, spm, flores101, flores200, spBLEU-1K",
    )
    add_spm_model(bleu)


def _usage(message: str) -> CommandError:
    return CommandError(message, EXIT_USAGE, "usage")


def resolve_references(args: argparse.Namespace) -> None:
    """Set ``args.references`` to the test set's reference files when ``-t`` is given;
    CommandError when neither -r nor -t, or both, or -t without -l, or the test set or pair
    is unknown or cannot be downloaded, or --origlang/--subset without -t or on a test set
    without that metadata."""
    if args.test_set is None:
        for flag, value in (("--origlang", args.origlang), ("--subset", args.subset)):
            if value is not None:
                raise _usage(f"{flag} {value} cuts a test set: give -t TESTSET -l SRC-TRG")
        if not args.references:
            raise _usage("give the references: -r FILE... or -t TESTSET -l SRC-TRG")
        return
    if args.references:
        raise _usage("give -r or -t, not both")
    if args.language_pair is None:
        raise _usage(f"-t {args.test_set} needs -l SRC-TRG")
    if "," in args.test_set:
        raise _usage(
            f"-t {args.test_set}: one test set here (mtcompute sacrebleu -t joins several)"
        )
    from mtcompute import testsets  # noqa: PLC0415
    from mtcompute.cli._progress import bar  # noqa: PLC0415

    def progress(label: str, total: int | None) -> testsets.ProgressBar:
        return bar(total or 0, label, "B", quiet=args.no_progress)

    try:
        if args.language_pair not in testsets.langpairs(args.test_set):
            pairs = ", ".join(testsets.langpairs(args.test_set))
            raise _usage(f"-t {args.test_set} has no pair {args.language_pair} (it has {pairs})")
        args.references = testsets.reference_files(args.test_set, args.language_pair, progress)
    except testsets.TestSetError as error:
        raise CommandError(str(error), EXIT_DATA_ERROR) from None
    if not args.references:
        raise CommandError(
            f"-t {args.test_set} -l {args.language_pair}: the test set has no reference",
            EXIT_DATA_ERROR,
        )
    _check_metadata(args)


# What sacreBLEU reads as a document's original language: a language code (a <doc> line
# without origlang="..." gives the whole line, which no --origlang matches).
_LANGUAGE = re.compile(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]+)*")


def _check_metadata(args: argparse.Namespace) -> None:
    """--origlang and --subset on a test set pair whose documents carry that metadata; a
    usage error naming the set, the pair and the flag otherwise (sacreBLEU 2.6.0 raises an
    exception there, or keeps every segment, or none)."""
    from mtcompute import testsets  # noqa: PLC0415

    where = f"-t {args.test_set} -l {args.language_pair}"
    try:
        if args.origlang is not None:
            found = testsets.available_origlangs(args.test_set, args.language_pair)
            if not found or not all(_LANGUAGE.fullmatch(lang) for lang in found):
                raise _usage(
                    f"--origlang {args.origlang}: {where} has no original language per "
                    "document (sacreBLEU's WMT sets in SGML or WMT XML have them)"
                )
        if args.subset is not None and not testsets.available_subsets(
            args.test_set, args.language_pair
        ):
            raise _usage(
                f"--subset {args.subset}: {where} has no document annotation (WMT XML "
                "domains, or sacreBLEU's country and topic annotation of wmt19-wmt20 sets)"
            )
    except testsets.TestSetError as error:
        raise _usage(f"{_flags(args)}: {where}: {error}") from None


def _flags(args: argparse.Namespace) -> str:
    """``--origlang X --subset Y``: the cut's flags, as given."""
    given = (("--origlang", args.origlang), ("--subset", args.subset))
    return " ".join(f"{flag} {value}" for flag, value in given if value is not None)


class Cut(NamedTuple):
    """A test set cut by ``--origlang``/``--subset``: which, and ``kept`` of its ``total``
    segments."""

    test_set: str
    language_pair: str
    origlang: str | None
    subset: str | None
    kept: int
    total: int

    def to_dict(self) -> dict[str, object]:
        """The JSON outputs' ``"test_set"`` object."""
        return {
            "name": self.test_set,
            "language_pair": self.language_pair,
            "origlang": self.origlang,
            "subset": self.subset,
            "segments": self.kept,
            "of": self.total,
        }

    def line(self) -> str:
        """The text outputs' first line: ``-t wmt20 -l de-en --origlang de: 4 of 7
        segments``."""
        given = (("--origlang", self.origlang), ("--subset", self.subset))
        flags = "".join(f" {flag} {value}" for flag, value in given if value is not None)
        return (
            f"-t {self.test_set} -l {self.language_pair}{flags}: "
            f"{self.kept} of {self.total} segments"
        )


def cut_segments(
    args: argparse.Namespace, hypotheses: list[list[str]], references: list[list[str]]
) -> tuple[list[list[str]], list[list[str]]]:
    """Each system's segments and each segment's references (as
    :func:`mtcompute.cli._files.read_segments` gives them) cut to the documents
    ``--origlang``/``--subset`` keep, as sacreBLEU cuts them; ``args.cut`` says so. As they
    are without either flag; a usage error when no segment is left."""
    if args.origlang is None and args.subset is None:
        return hypotheses, references
    from mtcompute import testsets  # noqa: PLC0415

    streams = [*hypotheses, *(list(stream) for stream in zip(*references, strict=True))]
    try:
        kept = testsets.filter_subset(
            streams, args.test_set, args.language_pair, args.origlang, args.subset
        )
    except (testsets.TestSetError, re.error) as error:
        raise _usage(f"{_flags(args)}: -t {args.test_set}: {error}") from None
    count = len(kept[0])
    if not count:
        raise _usage(f"{_flags(args)}: {_nothing_kept(args)}")
    args.cut = Cut(
        args.test_set, args.language_pair, args.origlang, args.subset, count, len(references)
    )
    systems = kept[: len(hypotheses)]
    return systems, [list(segment) for segment in zip(*kept[len(hypotheses) :], strict=True)]


def _nothing_kept(args: argparse.Namespace) -> str:
    """Why the cut is empty: the values the test set has."""
    from mtcompute import testsets  # noqa: PLC0415

    where = f"-t {args.test_set} -l {args.language_pair}"
    have = []
    if args.origlang is not None:
        found = testsets.available_origlangs(args.test_set, args.language_pair)
        have.append(f"original languages: {', '.join(found)}")
    if args.subset is not None:
        found = testsets.available_subsets(args.test_set, args.language_pair)
        have.append(f"subsets: {', '.join(found)}")
    return f"no document of {where} is kept (its {'; '.join(have)})"


class CutFiles:
    """``score``'s files cut by ``--origlang``/``--subset`` (:func:`cut_files`): copies in a
    temporary folder stand for them in ``args`` until :meth:`close`, which gives the names
    back and deletes the copies."""

    def __init__(self, args: argparse.Namespace, folder: TemporaryDirectory[str]) -> None:
        self.args = args
        self.folder = folder
        self.names = (args.hypotheses, args.references)

    def close(self) -> None:
        """The files' own names back in ``args``; the copies deleted."""
        self.args.hypotheses, self.args.references = self.names
        self.folder.cleanup()


def cut_files(args: argparse.Namespace) -> CutFiles | None:
    """With ``--origlang``/``--subset``: the system and reference files read whole (the
    checks and messages of :func:`~mtcompute.cli._files.read_segments`), cut
    (:func:`cut_segments`) and written to temporary copies that ``args`` names until the
    result's :meth:`CutFiles.close`; None without either flag."""
    if args.origlang is None and args.subset is None:
        return None
    import os  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    from mtcompute.cli._files import read_segments  # noqa: PLC0415

    hypotheses, references = cut_segments(args, *read_segments(args.hypotheses, args.references))
    cut = CutFiles(args, tempfile.TemporaryDirectory(prefix="mtcompute-cut-"))
    streams = [*hypotheses, *(list(stream) for stream in zip(*references, strict=True))]
    paths = [os.path.join(cut.folder.name, f"{i}.txt") for i in range(len(streams))]
    for path, stream in zip(paths, streams, strict=True):
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write("".join(f"{segment}\n" for segment in stream))
    args.hypotheses, args.references = paths[: len(hypotheses)], paths[len(hypotheses) :]
    return cut
