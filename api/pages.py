"""HTML pages, the embeddable ones and the console's: one stylesheet in the page, allowed by its
hash, and nothing else (no script, font, image or request)."""

from __future__ import annotations

from typing import Any

from flask import Response, render_template, request
from markupsafe import Markup

from api.embed.theme import css_hash


def html_page(
    template: str, css: str, status: int, *, frame_ancestors: str, forms: str = "'none'", **context: Any
) -> Response:
    """The template rendered with its stylesheet; `frame_ancestors` says who may frame it, and
    `forms` where its forms may post."""
    response = Response(
        render_template(template, css=Markup(css), **context), status=status, mimetype="text/html"
    )
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; style-src {css_hash(css)}; img-src data:; base-uri 'none'; "
        f"form-action {forms}; frame-ancestors {frame_ancestors}"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def wants_page() -> bool:
    """Whether an error is answered as a page: under /embed/ and /console/, to a client that asks
    for HTML by name (a browser, an iframe). Others get the problem+json every error is."""
    return request.path.startswith(("/embed/", "/console/")) and any(
        kind == "text/html" and quality > 0 for kind, quality in request.accept_mimetypes
    )
