#!/usr/bin/env bash
# The Python client's tests (clients/python): a virtual environment in .tools/python-venv (made once and kept;
# $DC_PYTHON_VENV moves it), the client installed into it as a user installs it (`pip install ./clients/python[test]`),
# mypy --strict over the package, then pytest. The tests start their own Temporal dev server (.tools/temporal) and
# worker processes (node, test/support/worker-process.ts), so setup must have run (it runs here when they are missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -x .tools/temporal ] || [ ! -d node_modules ]; then bash scripts/setup.sh; fi
venv="${DC_PYTHON_VENV:-.tools/python-venv}"
# Absolute: the steps below run from clients/python.
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac
if [ ! -x "$venv/bin/python" ]; then "${PYTHON:-python3}" -m venv "$venv"; fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "./clients/python[test]"
(cd clients/python && "$venv/bin/python" -m mypy --strict --no-incremental src)
cd clients/python
exec "$venv/bin/python" -m pytest "$@"
