"""The benchmarks under bench/ are run by hand, not by the suite: this keeps each one importable
(a renamed function of the service would otherwise break them unseen until the next run)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(path for path in BENCH.glob("*.py") if "__main__" in path.read_text())


@pytest.mark.rules
@pytest.mark.parametrize("script", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_each_benchmark_imports(script: Path) -> None:
    spec = importlib.util.spec_from_file_location(f"bench_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    try:
        spec.loader.exec_module(module)  # its imports run; its main() does not
    finally:
        del sys.modules[spec.name]
    assert callable(getattr(module, "main", None)), f"{script.name} has no main()"
