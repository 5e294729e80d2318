"""The domain: ORM entities, the pure rules (models.rules) and the services that join them."""

from models.access import ROLES, ApiKey, ApiKeyVenue
from models.audit import AuditEntry
from models.base import Base
from models.league import (
    CHART_KINDS,
    DOUBLE_QUALIFIER_POLICIES,
    SEASON_DEFAULTS,
    PointsChart,
    PointsChartBand,
    Region,
    Season,
    SeasonRegion,
    Venue,
)
from models.players import Player
from models.tournaments import STATUSES, TOURNAMENT_KINDS, IdempotentRequest, Result, Tournament

__all__ = [
    "CHART_KINDS",
    "DOUBLE_QUALIFIER_POLICIES",
    "ROLES",
    "SEASON_DEFAULTS",
    "STATUSES",
    "TOURNAMENT_KINDS",
    "ApiKey",
    "ApiKeyVenue",
    "AuditEntry",
    "Base",
    "IdempotentRequest",
    "Player",
    "PointsChart",
    "PointsChartBand",
    "Region",
    "Result",
    "Season",
    "SeasonRegion",
    "Tournament",
    "Venue",
]
