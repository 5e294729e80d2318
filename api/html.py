"""HTML pages, the embeddable ones and the console's: one stylesheet in the page, allowed by its
hash, and nothing else (no script, font, image or request)."""

from __future__ import annotations

from typing import Any

from flask import Response, render_template, request
from markupsafe import Markup

from api import db
from api.embed.theme import THEMES, css_hash, stylesheet
from models.rules.framing import ANY_SITE
from models.services.lookup import league_settings


def html_page(
    template: str,
    css: str,
    status: int,
    *,
    frame_ancestors: str,
    forms: str = "'none'",
    script: str = "",
    **context: Any,
) -> Response:
    """The template rendered with its stylesheet; `frame_ancestors` says who may frame it, and
    `forms` where its forms may post. A page with a `script` (the template writes it inline)
    runs that script alone (allowed by its hash), which may ask this site and no other."""
    response = Response(
        render_template(template, css=Markup(css), script=Markup(script), **context),
        status=status,
        mimetype="text/html",
    )
    scripts = f"script-src {css_hash(script)}; connect-src 'self'; " if script else ""
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; style-src {css_hash(css)}; {scripts}img-src data:; base-uri 'none'; "
        f"form-action {forms}; frame-ancestors {frame_ancestors}"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def framed_page(
    template: str, theme: str, status: int = 200, ancestors: str | None = None, **context: Any
) -> Response:
    """A page in a theme, framed by the sites the league allows (league settings) unless told.
    A page made where the database cannot answer (an error's) lets any site frame it."""
    if ancestors is None:
        try:
            ancestors = league_settings(db.session()).embed_frame_ancestors
        except Exception:  # noqa: BLE001 - an error page must still be made
            ancestors = ANY_SITE
    return html_page(template, stylesheet(theme), status, frame_ancestors=ancestors, theme=theme, **context)


def error_page(problem: dict[str, Any], status: int) -> Response:
    """A problem said as a page, for the embeddable pages and the console alike."""
    theme = request.args.get("theme", "light")
    # The console is never framed (its forms act for the signed-in user).
    ancestors = "'none'" if request.path.startswith("/console/") else None
    return framed_page(
        "embed/error.html", theme if theme in THEMES else "light", status, ancestors, problem=problem
    )
