"""League-wide settings: anyone reads them; the office changes them, audited (R15, R18)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db
from api.auth import current_actor, office_only
from api.blueprint import Blueprint
from api.cache.views import cached_by, the_league
from api.league_settings.schemas import LeagueSettingsOut, LeagueSettingsPatch
from models.entities import LeagueSettings
from models.services.league_settings.writes import update_league_settings
from models.services.lookup import league_settings

blp = Blueprint(
    "league_settings", __name__, url_prefix="/api/v1/league-settings", description="League settings (R15)."
)


@blp.route("")
@cached_by(the_league)
class LeagueSettingsViews(MethodView):
    @blp.doc(operationId="get_league_settings")
    @blp.response(200, LeagueSettingsOut)
    def get(self) -> LeagueSettings:
        """The league-wide settings"""
        return league_settings(db.session())

    @blp.doc(operationId="update_league_settings")
    @office_only
    @blp.arguments(LeagueSettingsPatch)
    @blp.response(200, LeagueSettingsOut)
    def patch(self, changes: dict[str, Any]) -> LeagueSettings:
        """Change league-wide settings (office; audited); sanctions already issued keep their terms"""
        return update_league_settings(db.session(), current_actor(), changes)
