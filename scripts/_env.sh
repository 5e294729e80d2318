# Sourced by the scripts: make .venv with the project installed, its dependencies at the versions
# requirements/dev.lock pins (again only when that file or pyproject.toml changes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv with $($PYTHON --version)…"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.installed-$(cat pyproject.toml requirements/dev.lock | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "Installing the service and its test tools into .venv (requirements/dev.lock)…"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r requirements/dev.lock
  .venv/bin/python -m pip install --quiet --no-deps -e .
  rm -f .venv/.installed-*
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
