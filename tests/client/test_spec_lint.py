"""openapi.yaml passes Redocly CLI's lint (its recommended rules, as redocly.yaml configures
them) with no error and no warning."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.node import NODE_ENV

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_spec_lints_clean(node_bin: Path) -> None:
    linted = subprocess.run(
        [str(node_bin / "redocly"), "lint", "--format=json", "openapi.yaml"],
        cwd=ROOT,  # where redocly.yaml is
        capture_output=True,
        text=True,
        env=NODE_ENV,
        timeout=300,
    )
    try:
        report = json.loads(linted.stdout)
    except ValueError:
        pytest.fail(f"redocly lint gave no report:\n{linted.stdout}{linted.stderr}")
    problems = [
        f"{p['severity']} {p['ruleId']} at {p['location'][0]['pointer']}: {p['message']}"
        for p in report["problems"]
        if not p.get("ignored")
    ]
    assert not problems, "\n".join(problems)
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}
    assert linted.returncode == 0, linted.stderr
