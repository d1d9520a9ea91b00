"""The vendored sacreBLEU test modules are not collected from here: tests/test_sacrebleu_suite.py
imports them with ``sacrebleu`` meaning ``mtcompute.sacrebleu`` and runs their tests."""

collect_ignore_glob = ["test_*.py"]
