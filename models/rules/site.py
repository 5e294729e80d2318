"""R24: the league's own site, as the office sets it: on or off, its title, a short welcome, and
an accent colour. The accent is the colour of links and headings on the site's white pages, so
it must be readable there: WCAG's contrast ratio of at least 4.5 to 1 against white."""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_ACCENT = "#1d4ed8"
LEAST_CONTRAST = 4.5
WELCOME_MOST = 1000
_HEX = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Site:
    """The site's settings: on (the default) or off, title (None: the league's name), welcome."""

    enabled: bool = True
    title: str | None = None
    welcome: str | None = None
    accent: str = DEFAULT_ACCENT


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a #rrggbb colour."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two #rrggbb colours: 1 (the same) to 21 (black on white)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def accent_problem(colour: str) -> str | None:
    """Why a colour cannot be the site's accent (None: it can)."""
    if not _HEX.fullmatch(colour):
        return f"{colour!r} is not a colour written as #rrggbb (for example {DEFAULT_ACCENT})."
    ratio = contrast(colour, "#ffffff")
    if ratio < LEAST_CONTRAST:
        return (
            f"{colour} on white has a contrast of {ratio:.1f} to 1; links and headings need at least "
            f"{LEAST_CONTRAST} to 1 to be read by everyone: choose a darker colour."
        )
    return None
