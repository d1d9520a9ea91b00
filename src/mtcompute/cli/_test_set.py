"""``score`` and ``compare``'s ``-t/--test-set``: the references of one of sacreBLEU's test
sets for the ``-l`` pair, in place of ``-r`` files (the files of sacreBLEU's cache, made and
downloaded first when missing, as ``mtcompute sacrebleu -t`` makes them). The option is
declared here for both parsers; :mod:`mtcompute.testsets` is imported only when it is given."""

from __future__ import annotations

__all__ = ["add_references", "add_test_set", "resolve_references"]

import argparse

from mtcompute.cli._common import EXIT_DATA_ERROR, EXIT_USAGE, CommandError, Options


def add_references(options: Options, aligned: str) -> None:
    """``-r/--references FILE [FILE ...]``: the reference files, line-aligned with the
    ``aligned`` files (score's hypotheses, compare's systems); optional, as ``-t`` may give
    them instead (:func:`resolve_references` checks that one of the two is there)."""
    options.add_argument(
        "--references",
        "-r",
        nargs="+",
        default=[],
        metavar="FILE",
        help=f"reference file(s), line-aligned with the {aligned} ('-' for stdin); or -t",
    )


def add_test_set(options: Options) -> None:
    """``-t/--test-set NAME``: the references of a sacreBLEU test set (with ``-l``)."""
    options.add_argument(
        "-t",
        "--test-set",
        default=None,
        metavar="NAME",
        help="take the references from sacreBLEU's test set NAME for the -l pair (e.g. -t "
        "wmt22 -l en-de: reference A, as sacreBLEU scores it), instead of -r; downloaded once "
        "into sacreBLEU's cache ($SACREBLEU, else ~/.sacrebleu), its MD5 sum checked",
    )


def resolve_references(args: argparse.Namespace) -> None:
    """Set ``args.references`` to the test set's reference files when ``-t`` is given;
    CommandError when neither -r nor -t, or both, or -t without -l, or the test set or pair
    is unknown or cannot be downloaded."""
    if args.test_set is None:
        if not args.references:
            raise CommandError(
                "give the references: -r FILE... or -t TESTSET -l SRC-TRG", EXIT_USAGE, "usage"
            )
        return
    if args.references:
        raise CommandError("give -r or -t, not both", EXIT_USAGE, "usage")
    if args.language_pair is None:
        raise CommandError(f"-t {args.test_set} needs -l SRC-TRG", EXIT_USAGE, "usage")
    if "," in args.test_set:
        raise CommandError(
            f"-t {args.test_set}: one test set here (mtcompute sacrebleu -t joins several)",
            EXIT_USAGE,
            "usage",
        )
    from mtcompute import testsets  # noqa: PLC0415
    from mtcompute.cli._progress import bar  # noqa: PLC0415

    def progress(label: str, total: int | None) -> testsets.ProgressBar:
        return bar(total or 0, label, "B", quiet=args.no_progress)

    try:
        if args.language_pair not in testsets.langpairs(args.test_set):
            pairs = ", ".join(testsets.langpairs(args.test_set))
            raise CommandError(
                f"-t {args.test_set} has no pair {args.language_pair} (it has {pairs})",
                EXIT_USAGE,
                "usage",
            )
        args.references = testsets.reference_files(args.test_set, args.language_pair, progress)
    except testsets.TestSetError as error:
        raise CommandError(str(error), EXIT_DATA_ERROR) from None
    if not args.references:
        raise CommandError(
            f"-t {args.test_set} -l {args.language_pair}: the test set has no reference",
            EXIT_DATA_ERROR,
        )
