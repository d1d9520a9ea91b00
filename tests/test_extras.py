"""The plain install (regex, tqdm, tabulate) against the optional extras: without numpy,
threadpoolctl and Jinja2 the library, the sacreBLEU module and the scoring commands run and
load none of them; what needs an extra says which one to install, never a traceback."""

from __future__ import annotations

import json
import subprocess

import pytest

from mtcompute.native import AVAILABLE
from tests.conftest import SAMPLE_WMT, run_cli, run_python

PAIR = SAMPLE_WMT / "generaltest2022" / "en-cs"
SYS, SYS_2, REF = (
    str(PAIR / n) for n in ("sys.CUNI-Bergamot.txt", "sys.Online-B.txt", "ref.B.txt")
)
EXTRAS = ("numpy", "threadpoolctl", "jinja2")


def _cli(*args: str, missing: tuple[str, ...] = EXTRAS) -> subprocess.CompletedProcess[str]:
    """``mtcompute ARGS`` in a child Python where ``missing`` cannot be imported; its stdout
    ends with the names of the optional modules it loaded (one line, after a NUL)."""
    code = (
        "from mtcompute.cli import main\n"
        f"try:\n    status = main({list(args)!r})\n"
        "except SystemExit as exc:\n    status = exc.code\n"
        "loaded = sorted(n for n in ('numpy', 'threadpoolctl', 'jinja2') if sys.modules.get(n))\n"
        "sys.stdout.flush()\n"
        "print('\\0' + ' '.join(loaded))\n"
        "sys.exit(status)\n"
    )
    return run_python(code, missing=missing)


def _split(done: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    out, _, loaded = done.stdout.rpartition("\0")
    return out, loaded.strip()


@pytest.mark.parametrize(
    "args",
    [
        ["score", "-H", SYS, "-r", REF, "-m", "bleu", "chrf", "ter", "wer", "--format", "json"],
        ["sacrebleu", REF, "-i", SYS, SYS_2, "-m", "bleu", "chrf", "ter"],
        ["sacrebleu", REF, "-i", SYS, "-m", "bleu", "-f", "text", "-b"],
        ["list"],
    ],
    ids=["score", "sacrebleu", "sacrebleu-score-only", "list"],
)
def test_the_plain_commands_run_without_the_extras(args: list[str]) -> None:
    """The scoring commands print what they print with every extra, loading none."""
    plain = _cli(*args)
    out, loaded = _split(plain)
    full = run_cli(*args)
    assert (plain.returncode, loaded) == (0, "")
    assert (full.stdout.decode(), full.stderr.decode()) == (out, plain.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["score", "-H", SYS, SYS_2, "-r", REF, "--paired-bs"],
            "mtcompute score: error: --paired-bs, --paired-ar and --ci needs the significance "
            "extra (numpy, threadpoolctl not installed): pip install 'mtcompute[significance]'",
        ),
        (
            ["sacrebleu", REF, "-i", SYS, SYS_2, "--paired-bs", "-m", "bleu", "ter"],
            "mtcompute sacrebleu: error: --paired-bs, --paired-ar and --confidence needs the "
            "significance extra (numpy, threadpoolctl not installed): pip install "
            "'mtcompute[significance]'",
        ),
        (
            ["sacrebleu", REF, "-i", SYS, SYS_2, "--paired-ar"],
            "mtcompute sacrebleu: error: --paired-bs, --paired-ar and --confidence needs the "
            "significance extra (numpy, threadpoolctl not installed): pip install "
            "'mtcompute[significance]'",
        ),
        (
            ["sacrebleu", REF, "-i", SYS, "--confidence"],
            "mtcompute sacrebleu: error: --paired-bs, --paired-ar and --confidence needs the "
            "significance extra (numpy, threadpoolctl not installed): pip install "
            "'mtcompute[significance]'",
        ),
        (
            ["compare", "-b", SYS, "-H", SYS_2, "-r", REF],
            "mtcompute compare: error: mtcompute compare needs the significance extra (numpy, "
            "threadpoolctl not installed): pip install 'mtcompute[significance]'",
        ),
    ],
    ids=["score", "sacrebleu-pbs-ter", "sacrebleu-par", "sacrebleu-confidence", "compare"],
)
def test_the_significance_tests_name_their_extra(args: list[str], message: str) -> None:
    """A paired test or interval without numpy: a usage error naming the extra."""
    done = _cli(*args)
    out, loaded = _split(done)
    assert (2, "", message, "") == (done.returncode, out, done.stderr.strip(), loaded)


@pytest.mark.parametrize("metrics", [["bleu"], ["bleu", "chrf"]], ids=["bleu", "bleu-chrf"])
def test_the_paired_bootstrap_of_bleu_and_chrf_needs_no_numpy(metrics: list[str]) -> None:
    """`sacrebleu --paired-bs` of BLEU and chrF runs on the C kernel: without numpy it
    prints what it prints with numpy, loading none of the extras. Where the kernel cannot
    (an unseeded test: SACREBLEU_SEED=none), the same usage error."""
    args = ["sacrebleu", REF, "-i", SYS, SYS_2, "--paired-bs", "-m", *metrics]
    plain = _cli(*args)
    out, loaded = _split(plain)
    full = run_cli(*args)
    assert full.returncode == 0
    if not AVAILABLE:  # the child's path (it gets no MTCOMPUTE_PURE): the pure one
        assert (plain.returncode, out, loaded) == (2, "", "")
        return
    assert (plain.returncode, loaded) == (0, "")
    assert (full.stdout.decode(), full.stderr.decode()) == (out, plain.stderr)
    code = (
        "import os\nos.environ['SACREBLEU_SEED'] = 'none'\n"
        f"from mtcompute.cli import main\nsys.exit(main({args!r}))\n"
    )
    unseeded = run_python(code, missing=EXTRAS)
    assert (unseeded.returncode, unseeded.stdout) == (2, "")
    assert unseeded.stderr.splitlines()[-1] == (
        "mtcompute sacrebleu: error: --paired-bs, --paired-ar and --confidence needs the "
        "significance extra (numpy, threadpoolctl not installed): pip install "
        "'mtcompute[significance]'"
    )


@pytest.mark.parametrize(
    "env",
    [{"SACREBLEU_SEED": "None"}, {"MTCOMPUTE_PURE": "1"}],
    ids=["unseeded", "pure"],
)
def test_a_paired_bootstrap_the_kernel_cannot_run_is_refused_up_front(
    env: dict[str, str],
) -> None:
    """Without numpy, a paired bootstrap the kernel will not run whatever the files hold (an
    unseeded test; the kernel off or not built) is refused as --paired-ar is: the usage
    error alone, before anything is read or logged (no "Found 2 systems.")."""
    args = ["sacrebleu", REF, "-i", SYS, SYS_2, "--paired-bs", "-m", "bleu"]
    code = f"from mtcompute.cli import main\nsys.exit(main({args!r}))\n"
    done = run_python(code, missing=EXTRAS, env=env)
    message = (
        "mtcompute sacrebleu: error: --paired-bs, --paired-ar and --confidence needs the "
        "significance extra (numpy, threadpoolctl not installed): pip install "
        "'mtcompute[significance]'\n"
    )
    assert (done.returncode, done.stdout, done.stderr) == (2, "", message)


def test_the_report_page_names_its_extra(tmp_path: object) -> None:
    """`compare --report` without Jinja2 (numpy there): the report extra, nothing computed."""
    page = f"{tmp_path}/page.html"
    done = _cli("compare", "-b", SYS, "-H", SYS_2, "-r", REF, "--report", page, missing=("jinja2",))
    assert (2, "") == (done.returncode, _split(done)[0])
    assert done.stderr.strip() == (
        "mtcompute compare: error: mtcompute compare --report needs the report extra (jinja2 "
        "not installed): pip install 'mtcompute[report]'"
    )


def test_compare_without_its_page_needs_no_jinja2() -> None:
    """`compare` without --report runs with numpy alone, and never loads Jinja2."""
    args = ["compare", "-b", SYS, "-H", SYS_2, "-r", REF, "--format", "json"]
    done = _cli(*args, missing=("jinja2",))
    out, loaded = _split(done)
    assert (0, "numpy threadpoolctl") == (done.returncode, loaded)
    assert json.loads(run_cli(*args).stdout) == json.loads(out)


_LIBRARY = """
import mtcompute, mtcompute.sacrebleu as sb
print(sb.corpus_bleu(["a b c d"], [["a b c d"]]).score, mtcompute.corpus_chrf(["ab"], ["ab"]).score)
envelope = mtcompute.execute("paired-significance", "1.0.0", {
    "baseline": ["a b"], "systems": [{"name": "B", "hypotheses": ["a c"]}],
    "references": [["a b"]], "metrics": ["bleu"], "method": "bootstrap"})
print(envelope["error"]["code"], envelope["error"]["message"])
for name in ("mtcompute.significance", "mtcompute.sacrebleu.significance"):
    try:
        __import__(name)
    except ImportError as exc:
        print(exc)
"""


def test_the_library_without_the_extras() -> None:
    """The library and the sacreBLEU module score; the paired tool answers unsupported_input
    naming the extra; the significance modules' ImportError names it."""
    done = run_python(_LIBRARY, missing=EXTRAS)
    assert (0, "") == (done.returncode, done.stderr)
    assert done.stdout.splitlines() == [
        "100.00000000000004 100.0",
        "unsupported_input The paired tests need numpy and threadpoolctl, which this "
        "installation lacks (numpy is not installed): pip install 'mtcompute[significance]'.",
        "mtcompute.significance needs numpy and threadpoolctl (numpy is not installed): pip "
        "install 'mtcompute[significance]'",
        "mtcompute.sacrebleu.significance needs numpy (not installed): pip install "
        "'mtcompute[significance]'",
    ]
