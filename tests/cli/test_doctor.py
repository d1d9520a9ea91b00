"""``mtcompute doctor`` says what this installation runs, and the pure path is never silent:
importing it without the kernel prints one warning, unless the pure path is asked for or the
warning is silenced. The kernel is made missing in a child process by setting
``sys.modules["mtcompute._kernel"] = None``, which makes its import fail."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from mtcompute import native
from mtcompute.native import PURE_WARNING
from mtcompute.tokenizer_names import NAMES
from tests.conftest import REPO, run_cli, run_python


def test_doctor_tells_an_spbleu_models_state_and_never_downloads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """spBLEU's tokenizers: ok with the model cached, else where it goes and its URL; the
    doctor downloads nothing (the cache stays as it was)."""
    cache = tmp_path / "cache"
    (cache / "models").mkdir(parents=True)
    (cache / "models" / "flores200sacrebleuspm").write_bytes(b"a model")
    monkeypatch.setenv("SACREBLEU", str(cache))
    proc = run_cli("doctor", "--json")
    states = json.loads(proc.stdout)["tokenizers"]
    missing = cache / "models" / "sacrebleu_tokenizer_spm.model"
    assert "ok" == states["flores200"]
    assert (
        f"ok once its model is at {missing}: downloaded there on first use from "
        "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model "
        "(or --spm-model PATH)"
    ) == states["flores101"]
    assert ["flores200sacrebleuspm"] == sorted(p.name for p in (cache / "models").iterdir())


def _child(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a child Python without the kernel, with ``env`` added."""
    return run_python(code, missing=["mtcompute._kernel"], env=env)


def test_doctor_reports_the_path_versions_extras_and_every_tokenizer() -> None:
    """The JSON report: this process's path, the package version, each tokenizer's state."""
    proc = run_cli("doctor", "--json")
    facts = json.loads(proc.stdout)
    assert (0, b"") == (proc.returncode, proc.stderr)
    assert ("kernel" if native.kernel_in_use() else "pure") == facts["path"]["name"]
    assert list(NAMES) == list(facts["tokenizers"])
    assert {"13a": "ok", "intl": "ok", "zh": "ok", "char": "ok", "none": "ok"}.items() <= (
        facts["tokenizers"].items()
    )
    assert {
        "significance",
        "report",
        "server",
        "dask",
        "ja",
        "ko",
        "spm",
        "torchmetrics",
        "evaluate",
        "pandas",
    } == set(facts["extras"])
    assert None not in facts["dependencies"].values()
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(requirements: list[str]) -> list[str]:
        """The distributions named, without the other extras an extra includes
        (``mtcompute[report]``: each extra lists what it adds)."""
        found = [re.split(r"[<>=\[;]", r, maxsplit=1)[0].strip() for r in requirements]
        return [name for name in found if name != "mtcompute"]

    assert names(project["dependencies"]) == list(facts["dependencies"])
    extras = project["optional-dependencies"]
    assert {extra: names(extras[extra]) for extra in facts["extras"]} == {
        extra: list(found) for extra, found in facts["extras"].items()
    }


def test_doctor_text_names_the_extra_to_install_when_one_is_missing() -> None:
    """Text: one line per fact; a missing extra's line is the pip command to install it (CI
    installs ja and ko, a plain test run does not: either state is checked)."""
    lines = run_cli("doctor").stdout.decode().splitlines()
    extras = {line.split()[0]: line for line in lines if line.startswith("  ")}
    for extra in ("ja", "ko"):
        line = extras[extra]
        installed = "not installed" not in line
        assert installed or line.endswith(f"pip install 'mtcompute[{extra}]'")
    assert lines[3].startswith("compute path  ")


def test_the_pure_path_warns_once_when_imported() -> None:
    """Without the kernel: one warning on stderr, however often the package is imported."""
    done = _child(
        "import mtcompute.native, mtcompute.sacrebleu, importlib\n"
        "importlib.import_module('mtcompute.native')\n"
        "print(mtcompute.native.AVAILABLE, mtcompute.native.kernel_in_use())"
    )
    assert (0, "False False\n", PURE_WARNING) == (done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize("variable", ["MTCOMPUTE_PURE", "MTCOMPUTE_NO_KERNEL_WARNING"])
def test_the_pure_path_is_quiet_when_asked_for_or_silenced(variable: str) -> None:
    """MTCOMPUTE_PURE=1 (the pure path on purpose) or MTCOMPUTE_NO_KERNEL_WARNING=1: silence."""
    done = _child("import mtcompute.native", **{variable: "1"})
    assert (0, "") == (done.returncode, done.stderr)


def test_doctor_says_why_the_pure_path_runs() -> None:
    """Without the kernel, doctor's path is pure, with the way to get the kernel."""
    done = _child(
        "from mtcompute.cli import main\nraise SystemExit(main(['doctor', '--json']))",
        MTCOMPUTE_NO_KERNEL_WARNING="1",
    )
    path = json.loads(done.stdout)["path"]
    assert "pure" == path["name"]
    assert "not built" in path["reason"]


def test_a_source_tree_without_the_built_kernel_runs_the_pure_path(tmp_path: Path) -> None:
    """A checkout built with MTCOMPUTE_NO_EXTENSION=1 has the folder of C sources but no
    built module: the folder (a namespace package) is not taken for the kernel."""
    package = REPO / "src" / "mtcompute"
    shutil.copytree(
        package, tmp_path / "mtcompute", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    assert (tmp_path / "mtcompute" / "_kernel" / "common.h").exists()
    done = run_python(
        "import mtcompute, mtcompute.native as n\n"
        "print(mtcompute.__file__.startswith(sys.argv[1]), n.AVAILABLE, "
        "mtcompute.execute('chrf-compute', '1.0.0', "
        "{'hypotheses': ['a b'], 'references': ['a b']})['result']['score'])",
        cwd=tmp_path,
        path=tmp_path,
    )
    assert (0, "True False 100.000000\n", PURE_WARNING) == (
        done.returncode,
        done.stdout,
        done.stderr,
    )
