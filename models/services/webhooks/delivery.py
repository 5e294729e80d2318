"""R23: the delivery worker's work. It claims the deliveries that are due (a lease, in its own
short transaction: PostgreSQL's SKIP LOCKED lets several workers share the work), sends each
outside any transaction, signed as Standard Webhooks says, and records what happened: delivered;
or failed, to be tried again with exponential backoff until a day has passed; a subscription
that fails too many times in a row is paused, and its log says so. A worker killed mid-send
leaves its lease to lapse: the delivery is sent again (at least once; the receiver tells a retry
by its `webhook-id`).

No receiver holds up another: deliveries are sent at once on a bounded pool of threads
(`Senders`, WEBHOOKS_AT_ONCE), one at a time per subscription, each within its deadline
(WEBHOOK_DEADLINE_SECONDS, models/infra/http_guard.py); the threads only send, and the caller's
thread claims and records (`Deliveries`), so no session crosses threads."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import TracebackType

from sqlalchemy import exists, or_, select, update
from sqlalchemy.orm import Session, aliased

from models.entities import OutboxEvent, Webhook, WebhookDelivery
from models.infra.clock import utcnow
from models.infra.http_guard import (
    DEADLINE_SECONDS,
    Deadline,
    Late,
    Refused,
    guarded_client,
    post_json,
    signed_headers,
)
from models.rules.webhooks import formatted, next_try
from models.services import wall_clock
from models.services.webhooks.events import envelope

LEASE = timedelta(minutes=2)
BATCH = 20
# A subscription failing this many deliveries in a row is paused (the office resumes it).
PAUSE_AFTER = 15
# Deliveries sent at once, each to a subscription of its own.
AT_ONCE = 8
USER_AGENT = "pokerleague-webhooks/1"


@dataclass(frozen=True)
class Claimed:
    delivery_id: int
    webhook_id: int
    url: str
    secret: str
    format: str
    event_id: str
    kind: str
    body: dict[str, object]
    created: datetime
    attempts: int


@dataclass(frozen=True)
class Settings:
    """The worker's settings (app config): private targets allowed (tests, private installs),
    how long a claim holds, after how many failures in a row a subscription pauses, each
    delivery's deadline, and how many are sent at once."""

    allow_private: bool = False
    lease: timedelta = LEASE
    pause_after: int = PAUSE_AFTER
    deadline: float = DEADLINE_SECONDS
    at_once: int = AT_ONCE


def claim(
    session: Session,
    now: datetime,
    batch: int = BATCH,
    lease: timedelta = LEASE,
    busy: Collection[int] = (),
) -> list[Claimed]:
    """Due deliveries of subscriptions not paused, leased to this worker; committed by the caller.
    One a subscription, and none of a subscription already sending one (under a lease, or
    `busy` here): a slow receiver holds one sender, not all of them."""
    sending = aliased(WebhookDelivery)
    due = (
        select(WebhookDelivery.id, WebhookDelivery.webhook_id)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .where(
            WebhookDelivery.state == "pending",
            WebhookDelivery.next_attempt_at <= now,
            or_(WebhookDelivery.leased_until.is_(None), WebhookDelivery.leased_until < now),
            Webhook.paused.is_(False),
            ~exists().where(
                sending.webhook_id == WebhookDelivery.webhook_id,
                sending.state == "pending",
                sending.leased_until >= now,
            ),
        )
        .order_by(WebhookDelivery.next_attempt_at, WebhookDelivery.id)
        .limit(max(batch, BATCH))
    )
    if busy:
        due = due.where(WebhookDelivery.webhook_id.not_in(list(busy)))
    if session.get_bind().dialect.name == "postgresql":
        due = due.with_for_update(of=WebhookDelivery, skip_locked=True)
    first: dict[int, int] = {}  # subscription → its delivery due first
    for delivery_id, webhook_id in session.execute(due):
        if len(first) < batch:
            first.setdefault(webhook_id, delivery_id)
    ids = list(first.values())
    if not ids:
        return []
    session.execute(
        update(WebhookDelivery).where(WebhookDelivery.id.in_(ids)).values(leased_until=now + lease)
    )
    words = wall_clock.people_dates(session)  # R24: a chat message's dates, as the league says them
    rows = session.execute(
        select(WebhookDelivery, Webhook, OutboxEvent)
        .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
        .join(OutboxEvent, OutboxEvent.id == WebhookDelivery.event_id)
        .where(WebhookDelivery.id.in_(ids))
        .order_by(WebhookDelivery.id)
    )
    return [
        Claimed(
            d.id,
            w.id,
            w.url,
            w.secret,
            w.format,
            e.event_id,
            e.kind,
            formatted(w.format, e.kind, envelope(e), words),
            e.created_at,
            d.attempts,
        )
        for d, w, e in rows
    ]


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    status: int | None
    error: str | None


def send(claimed: Claimed, allow_private: bool, now: datetime, deadline: float = DEADLINE_SECONDS) -> Outcome:
    """One delivery, signed (webhook-id, webhook-timestamp, webhook-signature), within its
    deadline: a 2xx is delivered (its body unread); anything else, or no whole answer in time,
    is a failure, recorded with the first words of the answer."""
    body = json.dumps(claimed.body, separators=(",", ":"), default=str).encode()
    headers = {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "accept-encoding": "identity",  # an answer's words are read as sent, never unpacked
        **signed_headers(claimed.secret, claimed.event_id, now, body),
    }
    try:
        with guarded_client(allow_private, Deadline(deadline)) as client:
            answer = post_json(client, claimed.url, body, headers)
    except Refused as exc:
        return Outcome(False, None, f"Refused: {exc}")
    except Late as exc:
        return Outcome(False, None, str(exc))
    except Exception as exc:  # noqa: BLE001 - any network failure is the receiver's, to retry
        return Outcome(False, None, f"{type(exc).__name__}: {exc}"[:500])
    if 200 <= answer.status < 300:
        return Outcome(True, answer.status, None)
    said = f"HTTP {answer.status}" + (f" ({answer.cut})" if answer.cut else "")
    return Outcome(False, answer.status, f"{said}: {answer.start[:200]}")


def record_outcome(
    session: Session, claimed: Claimed, outcome: Outcome, now: datetime, pause_after: int = PAUSE_AFTER
) -> None:
    """What a try did, to its delivery and its subscription (paused after PAUSE_AFTER failures
    in a row)."""
    delivery = session.get(WebhookDelivery, claimed.delivery_id)
    if delivery is None or delivery.state != "pending":
        return
    webhook = session.get(Webhook, delivery.webhook_id)
    delivery.attempts += 1
    delivery.last_status, delivery.last_error, delivery.leased_until = outcome.status, outcome.error, None
    if outcome.delivered:
        delivery.state, delivery.delivered_at = "delivered", now
        if webhook is not None:
            webhook.failures_in_a_row = 0
        return
    retry = next_try(claimed.created, delivery.attempts, now)
    if retry is None:
        delivery.state = "gave_up"
        delivery.last_error = f"{outcome.error} (given up: tried for a day)"
    else:
        delivery.next_attempt_at = retry
    if webhook is not None:
        webhook.failures_in_a_row += 1
        if webhook.failures_in_a_row >= pause_after and not webhook.paused:
            webhook.paused = True
            webhook.paused_reason = (
                f"Paused by the league after {webhook.failures_in_a_row} failed deliveries in a row "
                f"(the last: {outcome.error}). Resume it once the receiver is fixed."
            )


def let_go(session: Session, delivery_ids: Collection[int]) -> None:
    """Claims given up unsent (a worker stopping): the deliveries are due again at once."""
    if delivery_ids:
        session.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id.in_(list(delivery_ids)), WebhookDelivery.state == "pending")
            .values(leased_until=None)
        )


Finished = tuple[Claimed, Outcome]


class Senders:
    """At most `most` deliveries sent at once, each on a thread of a pool that grows to `most`.
    The threads are daemons: a worker that stops does not wait for a send (its claim is let go,
    or lapses, and the delivery is sent again). Only the owner's thread starts sends and reads
    what finished (`finished`); `wake()` ends its wait, from any thread or a signal handler."""

    def __init__(self, most: int, send_one: Callable[[Claimed], Outcome]) -> None:
        self.most = max(1, most)
        self._send = send_one
        self._work: queue.SimpleQueue[Claimed | None] = queue.SimpleQueue()
        self._finished: queue.SimpleQueue[Finished | None] = queue.SimpleQueue()
        self._threads = 0
        self.sending: dict[int, Claimed] = {}  # by delivery id, as the owner's thread sees them

    @property
    def room(self) -> int:
        return self.most - len(self.sending)

    def start(self, item: Claimed) -> None:
        self.sending[item.delivery_id] = item
        if self._threads < min(len(self.sending), self.most):
            self._threads += 1
            threading.Thread(target=self._run, name="webhook sender", daemon=True).start()
        self._work.put(item)

    def _run(self) -> None:
        while (item := self._work.get()) is not None:
            try:
                outcome = self._send(item)
            except BaseException as exc:  # noqa: BLE001 - a sender never dies of one delivery
                outcome = Outcome(False, None, f"{type(exc).__name__}: {exc}"[:500])
            self._finished.put((item, outcome))

    def wake(self) -> None:
        self._finished.put(None)  # SimpleQueue.put is safe in a signal handler

    def finished(self, wait: float | None) -> list[Finished]:
        """The sends that finished: waiting up to `wait` seconds for one (None: as long as it
        takes), unless woken."""
        done: list[Finished | None] = []
        try:
            done.append(self._finished.get(timeout=wait if wait is None else max(wait, 0.0)))
            while True:
                done.append(self._finished.get_nowait())
        except queue.Empty:
            pass
        found = [item for item in done if item is not None]
        for claimed, _outcome in found:
            self.sending.pop(claimed.delivery_id, None)
        return found

    def close(self) -> None:
        """The threads end once idle (those sending, after their send)."""
        for _thread in range(self._threads):
            self._work.put(None)
        self._threads = 0


class Deliveries:
    """The caller's side of the senders: claims what is due (as much as there is room for) and
    records what finished, each in a short transaction of its own, in the caller's thread."""

    def __init__(
        self,
        sessions: Callable[[], AbstractContextManager[Session]],
        settings: Settings,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.sessions, self.settings, self.now = sessions, settings, now
        self.senders = Senders(
            settings.at_once, lambda item: send(item, settings.allow_private, now(), settings.deadline)
        )

    def __enter__(self) -> Deliveries:
        return self

    def __exit__(
        self, _type: type[BaseException] | None, _exc: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.senders.close()

    def start_due(self) -> int:
        """Claim as many due deliveries as there is room for, and start sending them."""
        room = self.senders.room
        if room <= 0:
            return 0
        busy = {item.webhook_id for item in self.senders.sending.values()}
        with self.sessions() as session, session.begin():
            claimed = claim(session, self.now(), room, self.settings.lease, busy)
        for item in claimed:
            self.senders.start(item)
        return len(claimed)

    def record_finished(self, wait: float | None = 0.0) -> int:
        """Record the sends that finished (waiting up to `wait` for one): how many."""
        finished = self.senders.finished(wait)
        if finished:
            with self.sessions() as session, session.begin():
                for item, outcome in finished:
                    record_outcome(session, item, outcome, self.now(), self.settings.pause_after)
        return len(finished)

    def let_go(self) -> None:
        """Stopping: record what finished, and let go of the claims still being sent."""
        self.record_finished()
        with self.sessions() as session, session.begin():
            let_go(session, list(self.senders.sending))


def deliver_due(
    sessions: Callable[[], AbstractContextManager[Session]],
    settings: Settings,
    now: Callable[[], datetime] = utcnow,
) -> int:
    """Everything due now, sent and recorded: how many deliveries were tried."""
    tried = 0
    with Deliveries(sessions, settings, now) as deliveries:
        while deliveries.start_due() or deliveries.senders.sending:
            tried += deliveries.record_finished(wait=None)
    return tried
