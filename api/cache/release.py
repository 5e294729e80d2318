"""Which release of the service made an answer: a digest of its code and templates, part of every
cached answer's key. An answer stored by an earlier release (whose shape, fields or words may
differ) is never served by a later one, though the league's data did not move: a deployment
needs no `flask cache reset`. Computed once per process, when first asked."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
# What an answer is made by: the api layer (views, schemas, templates) and the domain.
MADE_BY = ("api", "models")
SUFFIXES = (".py", ".html")


@cache
def release() -> str:
    """A short digest of every module and template the answers are made by."""
    digest = hashlib.sha256()
    for folder in MADE_BY:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
