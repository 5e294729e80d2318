"""The embeddable pages' two themes, as CSS written once per theme. Colours are chosen for WCAG AA
in both: body text 4.5:1 or more on the background, and every charted player's colour too (their
names are written in it), so lines and labels read on a phone in the sun and in print."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Theme:
    name: str
    background: str
    text: str
    muted: str  # secondary text: captions, axis labels
    rule: str  # table rules and grid lines (decoration, not information)
    stripe: str  # every other table row
    series: tuple[str, ...]  # one colour per charted player, in rank order


THEMES = {
    "light": Theme(
        "light",
        background="#ffffff",
        text="#1b1f24",
        muted="#4a5360",
        rule="#d5d9de",
        stripe="#f3f5f7",
        series=(
            "#1558b0",
            "#a14400",
            "#1d7336",
            "#7b2fa3",
            "#b0203a",
            "#006d77",
            "#6b4f1d",
            "#9c2a70",
            "#4a4a4a",
            "#5a6b00",
        ),
    ),
    "dark": Theme(
        "dark",
        background="#14171b",
        text="#e8ebee",
        muted="#aab2bd",
        rule="#3a4048",
        stripe="#1c2025",
        series=(
            "#7db3ff",
            "#ffa366",
            "#6fd08c",
            "#d29cf5",
            "#ff8597",
            "#4fd1dc",
            "#e0bd7a",
            "#ff8fcf",
            "#c8c8c8",
            "#c9d65a",
        ),
    ),
}
MOST_SERIES = len(THEMES["light"].series)
# Dash patterns, so that lines differ by more than colour (and in grey print).
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 4", "1 3", "12 4", "5 2 1 2", "3 6", "8 2")


def _variables(theme: Theme) -> str:
    colours = [
        f"--bg:{theme.background}",
        f"--fg:{theme.text}",
        f"--muted:{theme.muted}",
        f"--rule:{theme.rule}",
        f"--stripe:{theme.stripe}",
    ]
    colours += [f"--s{i}:{colour}" for i, colour in enumerate(theme.series)]
    return ";".join(colours)


BASE_CSS = """
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;padding:12px;background:var(--bg);color:var(--fg);
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
h1{font-size:1.15rem;margin:0 0 2px}
h2{font-size:1rem;margin:18px 0 6px}
p{margin:0 0 8px}
.meta,.note,caption,figcaption{color:var(--muted);font-size:.85rem}
caption{text-align:left;padding:0 0 6px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 8px;border-bottom:1px solid var(--rule);text-align:left;vertical-align:top}
thead th{font-size:.8rem;text-transform:uppercase;letter-spacing:.03em;color:var(--muted)}
tbody tr:nth-child(even){background:var(--stripe)}
td.n,th.n{text-align:right}
tbody th{font-weight:600}
.flag{display:inline-block;border:1px solid var(--rule);border-radius:3px;padding:0 4px;margin:0 4px 2px 0;
font-size:.75rem;color:var(--fg)}
.status{display:inline-block;font-weight:600}
figure{margin:14px 0 0}
svg{display:block;width:100%;height:auto;max-height:70vh}
svg text{fill:var(--muted);font-size:12px}
svg .grid{stroke:var(--rule);stroke-width:1}
svg .axis{stroke:var(--muted);stroke-width:1}
svg .line{fill:none;stroke-width:2.5;stroke-linejoin:round;stroke-linecap:round}
svg .name{font-size:12.5px;font-weight:600}
details{margin-top:8px}
summary{cursor:pointer;color:var(--fg)}
.empty{padding:16px 0;color:var(--muted)}
code{overflow-wrap:anywhere}
table.ratings abbr{text-decoration:none}
table.ratings .short{display:none}
svg.narrow{display:none;max-width:420px}
.live{text-align:center}
.live .level{font-size:clamp(1.2rem,4vw,3rem);margin:0}
.live .blinds,.live .left{font-weight:700;font-variant-numeric:tabular-nums}
.live .blinds{font-size:clamp(2.4rem,11vw,9rem);line-height:1.05;margin:0}
.live .left{font-size:clamp(3rem,16vw,14rem);line-height:1;margin:4px 0}
.live .next{font-size:clamp(1rem,3vw,2.2rem);color:var(--muted)}
.live .figures{display:flex;flex-wrap:wrap;justify-content:center;gap:8px 32px;margin:12px 0;
font-size:clamp(1rem,3vw,2.2rem)}
.live .figures strong{font-variant-numeric:tabular-nums}
.live .tables{display:flex;flex-wrap:wrap;justify-content:center;gap:12px 32px;align-items:flex-start}
.live table{max-width:760px;margin:0;text-align:left}
.live .projected .tonight th{font-weight:700}
.live table.seats{font-size:clamp(1rem,1.6vw,1.5rem)}
.live table.seats caption{font-size:1.2em;font-weight:700;color:var(--fg)}
.live .in,.live .move{color:var(--muted);font-size:.85em}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.offline .live::before{content:"Offline: showing the last state received";display:block;color:var(--muted)}
@media (max-width:520px){
body{padding:8px;font-size:14px}
th,td{padding:5px 6px}
svg.wide{display:none}
svg.narrow{display:block}
svg.sparkline{width:44px;height:auto}
table.ratings th,table.ratings td{padding:5px 4px}
table.ratings thead th{letter-spacing:0}
table.ratings .long{display:none}
table.ratings .short{display:inline}
table.ratings tbody th{overflow-wrap:anywhere}
}
"""


def _series_css(count: int) -> str:
    rules = []
    for i in range(count):
        rules.append(f"svg .s{i}{{stroke:var(--s{i})}}")
        rules.append(f"svg .f{i}{{fill:var(--s{i})}}")
        rules.append(f".k{i}{{color:var(--s{i})}}")
    return "\n".join(rules)


@cache
def stylesheet(theme_name: str) -> str:
    """The whole <style> of a page in a theme; print always uses the light colours."""
    theme = THEMES[theme_name]
    return (
        f":root{{{_variables(theme)}}}"
        + BASE_CSS
        + _series_css(MOST_SERIES)
        + f"\n@media print{{:root{{{_variables(THEMES['light'])}}}body{{padding:0}}"
        + "svg{max-height:none}svg.wide{display:block}svg.narrow{display:none}details{display:block}}\n"
    )


@cache
def css_hash(css: str) -> str:
    """A stylesheet's CSP hash source ('sha256-…')."""
    return f"'sha256-{base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()}'"
