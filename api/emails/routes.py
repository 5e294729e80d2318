"""A player's consent to the weekly email (R23): recorded, read and withdrawn by the office, or by
a host of a venue where the player plays. Every change is audited without the address. And a
player's own request for it (public, no key): answered alike whether or not the address is a
player's (R19); a link to confirm goes to it if it is."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api import db, throttle
from api.auth import current_actor, host_or_office
from api.blueprint import Blueprint
from api.cache.views import DATA_VERSION, cached_by
from api.emails.schemas import EmailConsentIn, EmailConsentOut, EmailSubscriptionIn, EmailSubscriptionOut
from models.freshness.scopes import Scope
from models.infra.clock import utcnow
from models.services.emails.consents import ConsentState, consent_of, give_consent, withdraw_consent
from models.services.emails.subscriptions import ask_for_weekly_email

blp = Blueprint(
    "emails", __name__, description="The weekly email (R23): a player's consent, and their own request."
)

# The one answer to a request for the weekly email, whoever the address names (R19).
ASKED = "If this is a league player's address, we have sent a link to it to confirm the weekly email."


# Cached by the data version (who may read it: the player, their venues, the caller's key) and the
# `outbox` scope, which every change to a consent moves (migration 0033), whoever makes it: the
# API, the unsubscribe link, an erasure, a script.
@blp.route("/api/v1/players/<id:player_id>/email-consent")
@cached_by(
    DATA_VERSION,
    why="a consent is the outbox's; the player and their results, the league's",
    plus=(Scope.OUTBOX,),
)
class EmailConsentViews(MethodView):
    @blp.doc(operationId="get_email_consent")
    @host_or_office
    @blp.response(200, EmailConsentOut)
    def get(self, player_id: int) -> ConsentState:
        """Whether the player gets the weekly email (the office, or a host of their venues; R23)

        Since when, where they asked and who recorded it.
        """
        return consent_of(db.session(), current_actor(), player_id)

    @blp.doc(operationId="give_email_consent")
    @host_or_office
    @blp.arguments(EmailConsentIn, required=False)
    @blp.response(200, EmailConsentOut)
    def put(self, data: dict[str, Any], player_id: int) -> ConsentState:
        """Record that the player asked for the weekly email (office, or their venues' hosts; R23)

        Recorded with when and by whom; the audit entry holds no address. A player with no email
        cannot consent (422 naming `email`). Consent given already stands as first recorded.
        """
        return give_consent(db.session(), current_actor(), player_id, (data or {}).get("source"))

    @blp.doc(operationId="withdraw_email_consent")
    @host_or_office
    @blp.response(204)
    def delete(self, player_id: int) -> None:
        """Stop the player's weekly email (the office, or a host of their venues; R23, audited)

        Messages not yet sent are deleted. Withdrawn already: nothing changes.
        """
        withdraw_consent(db.session(), current_actor(), player_id)


@blp.route("/api/v1/email-subscriptions")
class EmailSubscriptionViews(MethodView):
    @blp.doc(operationId="ask_for_weekly_email")
    @blp.arguments(EmailSubscriptionIn)
    @blp.response(202, EmailSubscriptionOut)
    def post(self, data: dict[str, Any]) -> dict[str, str]:
        """Ask for the weekly email for an address (public, no key; R19, R23)

        If the address is a league player's, a link to confirm is sent to it; using it records
        the player's consent (source `self`). The answer is the same whether or not it is a
        player's, and so is the work done (the address is queued; the delivery worker decides),
        so neither the answer nor its time says whom the league knows. A player who consents
        already is sent nothing. Each request counts against the caller's address
        (`RATELIMIT_EMAIL_SUBSCRIPTIONS`, a 429 past it), known or not.
        """
        throttle.count_subscription_request()
        ask_for_weekly_email(db.session(), data["email"], utcnow())
        return {"message": ASKED}
