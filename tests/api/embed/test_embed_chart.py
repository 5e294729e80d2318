"""The embeddable pages' chart geometry and colours, without a database: axis scales, labels
that never overlap, ties marked T, and WCAG AA contrast in both themes."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.embed.chart import LABEL_GAP, NARROW, WIDE, nice_ceiling, race_chart, rank_label
from api.embed.theme import MOST_SERIES, THEMES, stylesheet
from models.rules.race import Race
from models.rules.standings import Row

pytestmark = pytest.mark.rules


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of #rrggbb."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_colour_that_writes_text_meets_wcag_aa_on_its_background(name):
    """Body text, secondary text and each player's colour (their name is written in it, their
    line drawn in it) reach 4.5:1 on the background, in both themes, so also 3:1 for lines."""
    theme = THEMES[name]
    assert len(theme.series) == MOST_SERIES
    for colour in (theme.text, theme.muted, *theme.series):
        assert contrast(colour, theme.background) >= 4.5, (name, colour)
    assert contrast(theme.text, theme.stripe) >= 4.5 and contrast(theme.muted, theme.stripe) >= 4.5
    assert len(set(theme.series)) == MOST_SERIES


def test_print_uses_the_light_colours_whatever_the_theme():
    light = THEMES["light"]
    assert f"@media print{{:root{{--bg:{light.background}" in stylesheet("dark")
    assert "</style" not in stylesheet("dark") and "</style" not in stylesheet("light")


@given(st.integers(min_value=0, max_value=100_000))
def test_the_points_axis_covers_the_top_in_two_to_five_round_steps(top):
    ceiling, step = nice_ceiling(top)
    assert ceiling >= max(top, 1) and ceiling % step == 0 and 2 <= ceiling // step <= 5
    assert str(step).strip("0") in ("1", "2", "5")


def row(player_id: int, rank: int, tied: bool = False, name: str = "") -> Row:
    return Row(player_id, name or f"P{player_id}", 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, rank=rank, tied=tied)


def test_ranks_are_written_as_the_table_writes_them_r11():
    assert [rank_label(r) for r in (row(1, 1, True), row(2, 1, True), row(3, 3))] == ["T1", "T1", "3"]


@given(
    st.lists(
        st.lists(st.integers(min_value=0, max_value=500), min_size=3, max_size=3), min_size=1, max_size=10
    )
)
def test_a_line_per_player_through_every_day_and_names_never_overlap(figures):
    days = [date(2026, 3, 2) + timedelta(days=7 * i) for i in range(3)]
    points = {i: sorted(line) for i, line in enumerate(figures, start=1)}
    rows = [row(i, i, name="A rather long display name") for i in points]
    for frame in (WIDE, NARROW):
        chart = race_chart(Race(days, points), rows, "The Crown", "Spring", frame)
        assert [s.player_id for s in chart.series] == list(points)
        for s in chart.series:
            assert s.path.count("M") == 1 and s.path.count("L") == 2 and len(s.dots) == 3
            assert all(chart.left <= x <= chart.right and chart.top <= y <= chart.bottom for x, y in s.dots)
            assert len(s.short_name) <= frame.name_chars
        labels = sorted(s.label_y for s in chart.series)
        assert all(b - a >= LABEL_GAP - 0.11 for a, b in zip(labels, labels[1:], strict=False))
        assert len(chart.x_ticks) <= frame.dates_shown
        assert "3 tournaments" in chart.summary and "The Crown" in chart.summary


def test_the_consoles_buttons_links_and_errors_meet_wcag_aa():
    """The console draws with the light theme: white on a button's blue, links in that blue, and
    refusals in the red, each 4.5:1 or more where they sit (the background, a notice's stripe)."""
    light = THEMES["light"]
    blue, red = light.series[0], light.series[4]
    assert contrast("#ffffff", blue) >= 4.5
    for colour in (blue, red, light.text):
        assert contrast(colour, light.background) >= 4.5 and contrast(colour, light.stripe) >= 4.5
