"""League-wide settings (one row): R15's minimum suspension lengths, the most entrants a report
may have, who may frame the embeddable pages, the league's zone and name, and retention (R21)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, CheckConstraint, DateTime, Integer, String, true
from sqlalchemy.orm import Mapped, mapped_column

from models.entities.base import Base
from models.infra.clock import default_zone, utcnow
from models.rules.framing import ANY_SITE
from models.rules.people_dates import DEFAULT_DATE_FORMAT, DEFAULT_LOCALE, DateWords
from models.rules.sanctions import Minimums
from models.rules.site import DEFAULT_ACCENT, Site

DEFAULT_MINIMUMS = Minimums()
# The most entrants a report may have unless the office says otherwise: a pub's big night is a
# few dozen; a region's final a few hundred. The office may set 50 to 10,000.
DEFAULT_MAX_ENTRANTS, LEAST_MAX_ENTRANTS, MOST_MAX_ENTRANTS = 500, 50, 10_000
# The league's name until the office gives its own (the league setting `name`).
DEFAULT_LEAGUE_NAME = "Poker League"


class LeagueSettings(Base):
    """League-wide settings (one row): the minimum suspension lengths of R15, the most entrants a
    report may have, which sites may frame the embeddable pages, the league's zone and name."""

    __tablename__ = "league_settings"
    __table_args__ = (
        CheckConstraint("id = 1", name="single_row"),
        CheckConstraint("min_suspension_days >= 0", name="min_suspension_days"),
        CheckConstraint("min_outside_alcohol_months >= 0", name="min_outside_alcohol_months"),
    )

    id: Mapped[int] = mapped_column(primary_key=True, default=1)
    min_suspension_days: Mapped[int] = mapped_column(Integer, default=DEFAULT_MINIMUMS.suspension_days)
    min_outside_alcohol_months: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_MINIMUMS.outside_alcohol_months
    )
    max_entrants: Mapped[int] = mapped_column(
        Integer, default=DEFAULT_MAX_ENTRANTS, server_default=str(DEFAULT_MAX_ENTRANTS)
    )
    # Which sites may frame the embeddable pages (a CSP frame-ancestors source list).
    embed_frame_ancestors: Mapped[str] = mapped_column(
        String(2000), default=ANY_SITE, server_default=ANY_SITE
    )
    # R2a: the league's IANA zone; None: LEAGUE_TIMEZONE, else UTC (`zone`).
    timezone: Mapped[str | None] = mapped_column(String(64))
    # The league's name, as the front door (GET /) and its pages say it.
    name: Mapped[str] = mapped_column(
        String(120), default=DEFAULT_LEAGUE_NAME, server_default=DEFAULT_LEAGUE_NAME
    )
    # R21 retention: players with no result in this many months are erased by
    # `flask players erase-inactive` (run by cron); None: off (the default).
    erase_inactive_after_months: Mapped[int | None] = mapped_column(Integer)
    # R22: the structure a night plays where its venue names none (None: 001's, built in).
    structure_id: Mapped[int | None] = mapped_column(Integer)
    # R24: how dates read for people (a CLDR pattern or a named style) and in which locale.
    date_format: Mapped[str] = mapped_column(
        String(64), default=DEFAULT_DATE_FORMAT, server_default=DEFAULT_DATE_FORMAT
    )
    locale: Mapped[str] = mapped_column(String(32), default=DEFAULT_LOCALE, server_default=DEFAULT_LOCALE)
    # R24: the league's own site: on or off, its title (None: the league's name), a welcome text,
    # and the accent colour of its links and headings.
    site_enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    site_title: Mapped[str | None] = mapped_column(String(120))
    site_welcome: Mapped[str | None] = mapped_column(String(1000))
    site_accent: Mapped[str] = mapped_column(String(7), default=DEFAULT_ACCENT, server_default=DEFAULT_ACCENT)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)

    @property
    def zone(self) -> str:
        """The zone league-wide dates are read in (R2a)."""
        return self.timezone or default_zone()

    @property
    def dates(self) -> DateWords:
        """R24: how this league says dates and times to people, its instants on its clock (R2a)."""
        return DateWords(self.date_format, self.locale, self.zone)

    @property
    def site(self) -> Site:
        """R24: the league's own site as the office set it."""
        return Site(self.site_enabled, self.site_title, self.site_welcome, self.site_accent)

    @property
    def minimums(self) -> Minimums:
        return Minimums(self.min_suspension_days, self.min_outside_alcohol_months)
