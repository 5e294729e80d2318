"""The spec is a client contract for TypeScript too: openapi-typescript (default options) makes
types from openapi.yaml, and the website's typical use of them with openapi-fetch (ts/usage.ts,
default options: standings, qualifiers and reports read as their JSON bodies, a CSV from its own
`.csv` operation) compiles under `tsc --strict`, with no other option."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.support.node import MODULES, NODE_ENV, TOOLS

ROOT = Path(__file__).resolve().parents[2]


def run(command: list[str], cwd: Path) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=NODE_ENV, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def test_a_generated_typescript_client_compiles(node_bin: Path, tmp_path: Path) -> None:
    types_file = tmp_path / "league.d.ts"
    spec = str(ROOT / "openapi.yaml")
    generated = run([str(node_bin / "openapi-typescript"), spec, "-o", str(types_file)], tmp_path)
    assert "warn" not in generated.lower(), generated
    types = types_file.read_text(encoding="utf-8")
    for operation in ("get_standings", "post_report", "correct_report", "get_player"):
        assert f"    {operation}: {{" in types, operation
    # A CSV answer is its own operation's (`<operationId>_csv`): no JSON operation's `data` is a
    # union with a string. (A report is sent as CSV too: that is its body, not its answer.)
    blocks = re.split(r"^    (\w+): \{$", types.split("export interface operations {", 1)[1], flags=re.M)
    named = zip(blocks[1::2], blocks[2::2], strict=True)
    answers = {name: body.split("responses: {", 1)[1] for name, body in named}
    answering_csv = [name for name, answer in answers.items() if '"text/csv": string' in answer]
    assert answering_csv and all(name.endswith("_csv") for name in answering_csv), answering_csv
    shutil.copy(TOOLS / "usage.ts", tmp_path / "usage.ts")
    (tmp_path / "node_modules").symlink_to(MODULES, target_is_directory=True)
    run([str(node_bin / "tsc"), "--strict", "--noEmit", "usage.ts"], cwd=tmp_path)
