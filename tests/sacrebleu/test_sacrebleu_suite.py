"""sacreBLEU 2.6.0's own test modules for BLEU, sentence BLEU, chrF, TER, the tercom
tokenizer and the paired significance tests, run against ``mtcompute.sacrebleu``.

The modules in ``tests/sacrebleu_suite/`` are byte-identical copies from sacreBLEU's sdist
(checked here against ``SHA256SUMS``, and against the sdist by
``scripts/vendor_sacrebleu_tests.py``). Each is imported while ``sys.modules`` maps
``sacrebleu`` and every ``sacrebleu.<sub>`` to ``mtcompute.sacrebleu`` and its submodule (the
real sacreBLEU's entries hidden, then restored), so its ``import sacrebleu`` and
``from sacrebleu.metrics import BLEU`` bind the facade. Its test functions, with their
parametrize marks, are then bound in this module as ``test_<module>__<test>`` and collected
here: every test of the six modules runs as written, tolerances included.

``test_significance.py`` runs its two paired tests (bootstrap, 2000 resamples; approximate
randomization, 10000 trials) over the 16 WMT17 en-de systems of its pickle when it is
imported, reading ``./test/wmt17_en_de_systems.pkl.bz2`` and setting ``SACREBLEU_SEED``: it is
imported from ``tests/sacrebleu_suite/`` (where the pickle is vendored at that path) and the
variable is restored afterwards.

None of the six modules reads a test set from the network (sacreBLEU's ``test_api.py`` and
``test_dataset.py`` do; they are not vendored).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import pkgutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FunctionType, ModuleType

import sacrebleu  # the real one, to check that it is left in place

import mtcompute.sacrebleu
import mtcompute.sacrebleu.significance
from mtcompute.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from tests.conftest import REPO

SUITE = REPO / "tests" / "sacrebleu_suite"
VENDORED = (
    "test_bleu",
    "test_sentence_bleu",
    "test_chrf",
    "test_ter",
    "test_tokenizer_ter",
    "test_significance",
)
DATA = ("test/wmt17_en_de_systems.pkl.bz2",)  # read by test_significance at import
FACADE = "mtcompute.sacrebleu"


def facade_modules() -> dict[str, ModuleType]:
    """Every module of the facade, imported, by the name it has under ``sacrebleu``."""
    modules = {"sacrebleu": mtcompute.sacrebleu}
    for info in pkgutil.walk_packages(mtcompute.sacrebleu.__path__, FACADE + "."):
        modules["sacrebleu" + info.name[len(FACADE) :]] = importlib.import_module(info.name)
    return modules


@contextmanager
def sacrebleu_is_the_facade() -> Iterator[None]:
    """While the block runs, ``import sacrebleu`` (and its submodules) gives the facade."""
    real = {
        name: module
        for name, module in sys.modules.items()
        if name == "sacrebleu" or name.startswith("sacrebleu.")
    }
    for name in real:
        del sys.modules[name]
    sys.modules.update(facade_modules())
    try:
        yield
    finally:
        for name in [n for n in sys.modules if n == "sacrebleu" or n.startswith("sacrebleu.")]:
            del sys.modules[name]
        sys.modules.update(real)


def load_vendored(name: str) -> ModuleType:
    """The vendored module ``name``, imported with ``sacrebleu`` meaning the facade."""
    spec = importlib.util.spec_from_file_location(
        f"tests.sacrebleu_suite.{name}", SUITE / f"{name}.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with sacrebleu_is_the_facade(), in_the_suite_folder():
        spec.loader.exec_module(module)
    return module


@contextmanager
def in_the_suite_folder() -> Iterator[None]:
    """While the block runs, the working folder is the suite's and a change to
    ``SACREBLEU_SEED`` stays inside it (test_significance sets it when imported)."""
    folder, seed = Path.cwd(), os.environ.get("SACREBLEU_SEED")
    os.chdir(SUITE)
    try:
        yield
    finally:
        os.chdir(folder)
        if seed is None:
            os.environ.pop("SACREBLEU_SEED", None)
        else:
            os.environ["SACREBLEU_SEED"] = seed


def vendored_tests(module: ModuleType) -> dict[str, FunctionType]:
    """The test functions of a vendored module, by name."""
    return {
        name: value
        for name, value in vars(module).items()
        if name.startswith("test_") and isinstance(value, FunctionType)
    }


LOADED = {name: load_vendored(name) for name in VENDORED}

for _module_name, _module in LOADED.items():
    for _test_name, _test in vendored_tests(_module).items():
        globals()[f"test_{_module_name[len('test_') :]}__{_test_name[len('test_') :]}"] = _test


def test_the_vendored_files_are_sacrebleus() -> None:
    """The vendored files have the digests SHA256SUMS records (sacreBLEU 2.6.0's sdist's)."""
    lines = (SUITE / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    recorded = dict(reversed(line.split("  ", 1)) for line in lines)
    actual = {name: hashlib.sha256((SUITE / name).read_bytes()).hexdigest() for name in recorded}
    assert (sorted([*(f"{n}.py" for n in VENDORED), *DATA, "LICENSE.txt"]), recorded) == (
        sorted(recorded),
        actual,
    )


def test_the_vendored_modules_see_the_facade() -> None:
    """Each vendored module's ``sacrebleu`` is mtcompute.sacrebleu (test_bleu's ``BLEU``,
    test_tokenizer_ter's ``TercomTokenizer`` and test_significance's ``PairedTest``, ``Result``
    and ``BLEU`` the facade's), and the real sacreBLEU's modules are back in sys.modules
    afterwards."""
    alone = {"test_tokenizer_ter", "test_significance"}  # they import names alone
    seen = {name: vars(module)["sacrebleu"] for name, module in LOADED.items() if name not in alone}
    significance = vars(LOADED["test_significance"])
    assert (
        dict.fromkeys(set(VENDORED) - alone, mtcompute.sacrebleu),
        True,
        True,
        (True, True, True),
        False,
    ) == (
        seen,
        vars(LOADED["test_bleu"])["BLEU"] is mtcompute.sacrebleu.metrics.BLEU,
        vars(LOADED["test_tokenizer_ter"])["TercomTokenizer"] is TercomTokenizer,
        (
            significance["PairedTest"] is mtcompute.sacrebleu.significance.PairedTest,
            significance["Result"] is mtcompute.sacrebleu.significance.Result,
            significance["BLEU"] is mtcompute.sacrebleu.metrics.BLEU,
        ),
        sacrebleu is mtcompute.sacrebleu,
    )


def test_every_vendored_test_is_collected_here() -> None:
    """Every test function of the six modules is bound in this module under its name (with
    test_significance's 15 Moses and 15 multeval systems)."""
    expected = sorted(
        f"test_{m[len('test_') :]}__{t[len('test_') :]}"
        for m, module in LOADED.items()
        for t in vendored_tests(module)
    )
    bound = sorted(
        name for name, value in globals().items() if "__" in name and name.startswith("test_")
    )
    assert (22, expected) == (len(expected), bound)


def test_the_vendored_modules_are_not_collected_from_their_folder() -> None:
    """The folder's conftest keeps pytest from collecting the copies against real sacreBLEU."""
    conftest = SUITE / "conftest.py"
    spec = importlib.util.spec_from_file_location("sacrebleu_suite_conftest", conftest)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert ["test_*.py"] == module.collect_ignore_glob
