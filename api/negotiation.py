"""What a request's Accept header asks for, as every view and the cache read it alike (a module of
its own: the cache's key reads it before any view module is loaded)."""

from __future__ import annotations

from flask import request


def wants_page() -> bool:
    """Whether an error is answered as a page: under /embed/ and /console/ and on the league's
    site (R24), to a client that asks for HTML by name (a browser, an iframe). Others get the
    problem+json every error is."""
    paged = request.path.startswith(("/embed/", "/console/")) or request.blueprint == "site"
    return paged and any(kind == "text/html" and quality > 0 for kind, quality in request.accept_mimetypes)
