"""The spec is a client contract: openapi-python-client generates a client from openapi.yaml with
no warning, and the website's typical use of it type-checks under mypy --strict."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Spreadsheet request bodies (a host's CSV, .xlsx or .ods) reach a generated client as raw content.
CONFIG = (
    "content_type_overrides:\n  text/csv: application/octet-stream\n  image/png: application/octet-stream\n"
    "  application/xml: application/octet-stream\n"
    "  application/vnd.openxmlformats-officedocument.spreadsheetml.sheet: application/octet-stream\n"
    "  application/vnd.oasis.opendocument.spreadsheet: application/octet-stream\n"
)


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: it is a dev dependency (pyproject.toml)")
    return found


def test_a_generated_client_type_checks(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    generated = subprocess.run(
        [
            tool("openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "openapi.yaml"),
            "--meta",
            "none",
            "--config",
            str(config),
            "--output-path",
            str(tmp_path / "league_client"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert "warning" not in output.lower(), output
    for operation in ("get_standings", "get_standings_csv", "post_report", "correct_report", "get_player"):
        assert list((tmp_path / "league_client" / "api").glob(f"*/{operation}.py")), operation
    shutil.copy(ROOT / "tests" / "client" / "usage.py", tmp_path / "usage.py")
    checked = subprocess.run(
        # The generated package's own code is the generator's; the website's code is what we check.
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent", "usage.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**env, "MYPYPATH": str(tmp_path)},
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
