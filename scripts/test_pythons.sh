#!/usr/bin/env bash
# The kernel's significance tests under each newer Python found on this machine: the kernel
# follows the float sum of the Python it is built for (3.12 and later add with compensation,
# as sacreBLEU's paired bootstrap then does). Each version gets its own venv (.venv-pythonX.Y)
# with the package, its significance extra and the tests' tools; a version not found is said
# and passed over (a failure under MTCOMPUTE_REQUIRE_ALL=1, as a skipped test is).
# Usage: scripts/test_pythons.sh [X.Y ...] (default: 3.12 3.13).
set -euo pipefail
cd "$(dirname "$0")/.."

# The interpreter of version $1: pythonX.Y when it runs (a pyenv shim may not), else the
# newest of pyenv's installed X.Y.* versions.
find_python() {
  if "python$1" -c pass >/dev/null 2>&1; then
    command -v "python$1"
    return
  fi
  local root
  root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
  local found
  found="$(ls -d "$root"/versions/"$1".*/bin/"python$1" 2>/dev/null | sort -V | tail -n 1)"
  [ -n "$found" ] && "$found" -c pass >/dev/null 2>&1 && echo "$found"
}

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(3.12 3.13)
missing=()
for v in "${versions[@]}"; do
  python="$(find_python "$v" || true)"
  if [ -z "$python" ]; then
    echo "python$v: not on this machine, skipped"
    missing+=("python$v")
    continue
  fi
  echo "python$v: $("$python" --version) ($python)"
  venv=".venv-python$v"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e '.[significance]' \
    'pytest>=8.0' 'hypothesis>=6.100' 'sacrebleu==2.6.0'
  "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    tests/sacrebleu/test_paired_kernel.py tests/sacrebleu/test_sacrebleu_significance.py
done

# As for the tests, MTCOMPUTE_REQUIRE_ALL=1 (.ci/run) makes a skip a failure: CI says it ran
# these tests under the newer Pythons, so it fails when one was not there to run them.
if [ ${#missing[@]} -gt 0 ] && [ "${MTCOMPUTE_REQUIRE_ALL:-}" = 1 ]; then
  list="$(printf ', %s' "${missing[@]}")"
  echo "scripts/test_pythons.sh: error: MTCOMPUTE_REQUIRE_ALL=1 makes a skip a failure:" \
    "no working ${list#, }" >&2
  exit 1
fi
