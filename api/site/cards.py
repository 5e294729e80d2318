"""The image cards chat apps show when a page of the site is shared (R24: Open Graph), drawn by
the service with Pillow: a venue's standings and a night's result, 1200 × 630. Public (display
names only, R19), cached like the page they stand for. Pillow's own scalable font draws them, so
every machine draws the same card; it covers Latin letters without accents, so a name is written
without its accents on a card ("Zoë" as "Zoe") and anything else as "?"."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT, MARGIN = 1200, 630, 56
TEXT, MUTED, RULE = "#1b1f24", "#4a5360", "#d5d9de"


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def plain(text: str) -> str:
    """Text the card's font can draw: accents taken off, other letters as "?"."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c if c.isascii() else ("" if unicodedata.combining(c) else "?") for c in folded)


def _fit(
    draw: ImageDraw.ImageDraw, text: str, size: int, width: int
) -> tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]:
    """The text in the largest size up to `size` that fits `width`, shortened with "..." if even
    the smallest does not."""
    text = plain(text)
    for step in range(size, 27, -4):
        font = _font(step)
        if draw.textlength(text, font=font) <= width:
            return text, font
    font = _font(28)
    while text and draw.textlength(text + "...", font=font) > width:
        text = text[:-1]
    return text + "...", font


def card(site: str, accent: str, title: str, subtitle: str, rows: Sequence[tuple[str, str, str]]) -> bytes:
    """A PNG: the site's name, a title and a subtitle, and up to five rows of (place, name,
    figure), on white with the league's accent."""
    image = Image.new("RGB", (WIDTH, HEIGHT), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 14), fill=accent)
    inner = WIDTH - 2 * MARGIN
    text, font = _fit(draw, site, 30, inner)
    draw.text((MARGIN, 40), text, font=font, fill=MUTED)
    text, font = _fit(draw, title, 64, inner)
    draw.text((MARGIN, 84), text, font=font, fill=accent)
    text, font = _fit(draw, subtitle, 34, inner)
    draw.text((MARGIN, 166), text, font=font, fill=MUTED)
    top = 232
    for n, (place, name, figure) in enumerate(rows[:5]):
        y = top + n * 72
        draw.line((MARGIN, y - 10, WIDTH - MARGIN, y - 10), fill=RULE, width=2)
        draw.text((MARGIN, y), plain(place), font=_font(40), fill=MUTED)
        shown, font = _fit(draw, name, 44, inner - 360)
        draw.text((MARGIN + 120, y), shown, font=font, fill=TEXT)
        figure_font = _font(44)
        draw.text(
            (WIDTH - MARGIN - draw.textlength(plain(figure), font=figure_font), y),
            plain(figure),
            font=figure_font,
            fill=TEXT,
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
