"""The plain install is light: the library, mtcompute.sacrebleu and the scoring commands run
without the server extra, and `serve` and `mcp` say which extra to install when it is missing.
A module of an extra is made missing by setting ``sys.modules[name] = None`` in the child
process, which makes both ``import`` and ``importlib.util.find_spec`` see it as absent."""

from __future__ import annotations

import pytest

from tests.conftest import run_python

SERVER = ("starlette", "uvicorn", "mcp", "httpx")


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_a_server_command_names_the_extra_it_needs(command: str) -> None:
    """Without the server extra: exit 2 and the pip command to install it, no traceback."""
    done = run_python(
        f"from mtcompute.cli import main; raise SystemExit(main([{command!r}]))", missing=SERVER
    )
    assert (2, "") == (done.returncode, done.stdout)
    assert (
        f"mtcompute: error: mtcompute {command} needs the server extra "
        "(starlette, uvicorn, mcp not installed): pip install 'mtcompute[server]'\n"
    ) == done.stderr


def test_scoring_and_the_sacrebleu_module_need_no_server_extra() -> None:
    """score, compare, execute and the sacreBLEU module work with every server module missing."""
    code = """
import json, tempfile, pathlib
from mtcompute.cli import main
import mtcompute, mtcompute.sacrebleu as sb
d = pathlib.Path(tempfile.mkdtemp())
(d / "hyp").write_text("the cat sat on the mat\\n")
(d / "ref").write_text("the cat sat on a mat\\n")
(d / "sys").write_text("a cat sat on the mat\\n")
codes = [
    main(["score", "-m", "bleu", "chrf", "ter", "--references", str(d / "ref"),
          "--hypotheses", str(d / "hyp")]),
    main(["compare", "--references", str(d / "ref"), "--baseline", str(d / "hyp"),
          "--hypotheses", str(d / "sys"), "--report", str(d / "report.html")]),
]
print(json.dumps({
    "codes": codes,
    "report": (d / "report.html").read_text().startswith("<!DOCTYPE html>"),
    "bleu": round(sb.corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]]).score, 2),
    "execute": "result" in mtcompute.execute("chrf-compute", "1.0.0", {
        "hypotheses": ["a b"], "references": ["a b"]}),
}))
"""
    done = run_python(code, missing=SERVER)
    assert 0 == done.returncode, done.stderr[-3000:]
    assert (
        '{"codes": [0, 0], "report": true, "bleu": 53.73, "execute": true}'
        == (done.stdout.splitlines()[-1])
    )
