"""R23, pure: an unsubscribe link names the player, when it was issued and the consent its
message was sent under, and withdraws that consent only; a link made before links named their
consent holds for a consent given no later than it was issued."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from models.rules.emails import (
    TOKEN_SALT,
    BadToken,
    LinkToken,
    _b64,
    _signature,
    read_token,
    sent_under,
    unsubscribe_token,
)

SECRET = "the league's secret"
SENT = datetime(2026, 12, 14, 8, 5, 0, 250_000)
GIVEN = datetime(2026, 12, 1, 19, 30, 12, 123_456)


def test_r23_a_link_names_the_consent_it_was_sent_under() -> None:
    link = read_token(SECRET, unsubscribe_token(SECRET, 7, SENT, GIVEN), SENT)
    assert (link.player_id, link.consented) == (7, 1_796_153_412_123_456)
    assert sent_under(link, GIVEN)
    # A consent given again after a withdrawal is another one, however close in time.
    assert not sent_under(link, GIVEN + timedelta(microseconds=1))
    assert not sent_under(link, SENT + timedelta(days=1))
    # Aware or naive UTC: the same consent.
    assert read_token(SECRET, unsubscribe_token(SECRET, 7, SENT, GIVEN.replace(tzinfo=UTC)), SENT) == link


def test_r23_a_link_made_before_links_named_their_consent_holds_for_an_earlier_consent() -> None:
    payload = _b64(f"7.{int(SENT.replace(tzinfo=UTC).timestamp())}".encode())
    old = read_token(SECRET, f"{payload}.{_b64(_signature(SECRET, payload, TOKEN_SALT))}", SENT)
    assert old == LinkToken(7, int(SENT.replace(tzinfo=UTC).timestamp()), None)
    assert sent_under(old, GIVEN) and sent_under(old, SENT)
    assert not sent_under(old, SENT + timedelta(seconds=1))


def test_r23_a_damaged_link_is_refused() -> None:
    token = unsubscribe_token(SECRET, 7, SENT, GIVEN)
    payload = _b64(b"7.x.1")
    for bad in (token + "x", f"{payload}.{_b64(_signature(SECRET, payload, TOKEN_SALT))}", "a.b"):
        with pytest.raises(BadToken):
            read_token(SECRET, bad, SENT)
