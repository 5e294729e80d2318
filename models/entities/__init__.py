"""ORM entities: SQLAlchemy 2 typed mappings of the league's records, and nothing else."""

from models.entities.api_keys import ROLES, ApiKey, ApiKeyVenue, ConsoleSignIn
from models.entities.audit import AuditEntry
from models.entities.base import Base
from models.entities.data_rights import ErasedValue, Erasure, PlayerKey
from models.entities.emails import (
    EMAIL_STATES,
    EmailConfirmation,
    EmailConsent,
    EmailMessage,
    EmailSubscriptionRequest,
)
from models.entities.freshness import DataVersion, ScopeVersion
from models.entities.idempotency import IdempotentRequest
from models.entities.league import (
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
from models.entities.league_settings import LeagueSettings
from models.entities.merges import PlayerMerge
from models.entities.nights import ENTRY_STATES, NIGHT_STATES, Night, NightAction, NightEntry, Structure
from models.entities.outbox import DELIVERY_STATES, WEBHOOK_FORMATS, OutboxEvent, Webhook, WebhookDelivery
from models.entities.players import DistinctPlayers, Player
from models.entities.qualifiers import Disqualification, QualifierPublication
from models.entities.ratings import PlayerRating, RatingPoint
from models.entities.reports import REPORT_KINDS, STATUSES, Report, Result
from models.entities.sanctions import Sanction
from models.entities.schedules import GameStamp, ScheduleException, VenueGame
from models.entities.standings import StandingLine

__all__ = [
    "CHART_KINDS",
    "DOUBLE_QUALIFIER_POLICIES",
    "ROLES",
    "SEASON_DEFAULTS",
    "STATUSES",
    "REPORT_KINDS",
    "ENTRY_STATES",
    "NIGHT_STATES",
    "ApiKey",
    "ApiKeyVenue",
    "AuditEntry",
    "Base",
    "ConsoleSignIn",
    "DataVersion",
    "Disqualification",
    "DistinctPlayers",
    "ErasedValue",
    "Erasure",
    "IdempotentRequest",
    "LeagueSettings",
    "Night",
    "NightAction",
    "NightEntry",
    "GameStamp",
    "OutboxEvent",
    "Player",
    "PlayerKey",
    "PlayerMerge",
    "PlayerRating",
    "PointsChart",
    "PointsChartBand",
    "QualifierPublication",
    "RatingPoint",
    "Region",
    "Result",
    "Season",
    "Sanction",
    "ScopeVersion",
    "Structure",
    "ScheduleException",
    "SeasonRegion",
    "StandingLine",
    "Report",
    "Venue",
    "VenueGame",
    "Webhook",
    "WebhookDelivery",
    "DELIVERY_STATES",
    "WEBHOOK_FORMATS",
    "EMAIL_STATES",
    "EmailConfirmation",
    "EmailConsent",
    "EmailMessage",
    "EmailSubscriptionRequest",
]
