"""The site's one stylesheet (R24), phone-first, in the league's accent colour (checked for
contrast on white when the office sets it: models/rules/site.py). Written into each page and
allowed by its hash, as the other pages' are: the page loads nothing from anywhere."""

from __future__ import annotations

from functools import cache

TEXT, MUTED, RULE, STRIPE = "#1b1f24", "#4a5360", "#d5d9de", "#f3f5f7"


@cache
def site_css(accent: str) -> str:
    return f"""
:root {{ --accent: {accent}; }}
* {{ box-sizing: border-box; }}
html {{ -webkit-text-size-adjust: 100%; }}
body {{ margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: {TEXT};
  background: #fff; }}
a {{ color: var(--accent); text-underline-offset: 2px; }}
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible,
  .scroll:focus-visible {{
  outline: 3px solid var(--accent); outline-offset: 2px; }}
.skip {{ position: absolute; left: -9999px; }}
.skip:focus {{ left: 8px; top: 8px; background: #fff; padding: 8px; z-index: 2; }}
header.site {{ border-bottom: 4px solid var(--accent); padding: 10px 16px; }}
header.site .brand {{ font-weight: 700; font-size: 1.15rem; color: {TEXT}; text-decoration: none; }}
nav.site ul {{ list-style: none; margin: 6px 0 0; padding: 0; display: flex; flex-wrap: wrap;
  gap: 4px 16px; }}
nav.site a {{ display: inline-block; padding: 6px 0; }}
main {{ max-width: 60rem; margin: 0 auto; padding: 12px 16px 40px; }}
h1 {{ font-size: 1.6rem; line-height: 1.2; margin: 12px 0 6px; color: var(--accent); }}
h2 {{ font-size: 1.25rem; margin: 28px 0 8px; }}
h3 {{ font-size: 1.05rem; margin: 20px 0 6px; }}
p.meta, .muted {{ color: {MUTED}; }}
.live {{ display: inline-block; background: #b0203a; color: #fff; font-weight: 700; font-size: .8rem;
  padding: 1px 6px; border-radius: 3px; letter-spacing: .03em; }}
.scroll {{ overflow-x: auto; max-width: 100%; }}
table {{ border-collapse: collapse; width: 100%; margin: 6px 0 12px; }}
caption {{ text-align: left; color: {MUTED}; font-size: .9rem; padding: 4px 0; }}
th, td {{ text-align: left; padding: 6px 8px; border-bottom: 1px solid {RULE}; vertical-align: top; }}
thead th {{ font-size: .85rem; color: {MUTED}; }}
tbody tr:nth-child(even) {{ background: {STRIPE}; }}
.n {{ text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }}
ul.plain {{ list-style: none; padding: 0; margin: 0; }}
ul.plain li {{ padding: 6px 0; border-bottom: 1px solid {RULE}; }}
.cards {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 12px; }}
.card {{ border: 1px solid {RULE}; border-radius: 6px; padding: 10px 12px; }}
form.inline {{ display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; margin: 8px 0 16px; }}
label {{ display: block; font-weight: 600; font-size: .95rem; }}
input, select, button {{ font: inherit; padding: 8px 10px; border: 1px solid {MUTED}; border-radius: 4px;
  max-width: 100%; }}
button {{ background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }}
svg.chart {{ width: 100%; height: auto; max-width: 44rem; display: block; }}
svg.chart text {{ font-size: 12px; fill: {MUTED}; }}
svg.chart .grid {{ stroke: {RULE}; stroke-width: 1; }}
svg.chart .axis {{ stroke: {MUTED}; stroke-width: 1; }}
svg.chart .line {{ fill: none; stroke-width: 2.5; }}
svg.chart .name {{ font-size: 12px; font-weight: 600; }}
svg.chart.narrow {{ display: none; }}
@media (max-width: 40rem) {{ svg.chart.wide {{ display: none; }} svg.chart.narrow {{ display: block; }}
  th, td {{ padding: 6px 5px; }} }}
footer.site {{ color: {MUTED}; font-size: .9rem; border-top: 1px solid {RULE}; padding: 12px 16px;
  text-align: center; }}
""".strip()
