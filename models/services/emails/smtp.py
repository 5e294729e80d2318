"""R23: talking to the mail server: `SMTP_URL` read (`smtp://host:port`, `smtps://` for TLS from the
first byte, an optional `user:password@`), and one message handed over. On `smtp://` the
connection is upgraded with STARTTLS whenever the server offers it (its certificate checked).
What went wrong is said without the recipient's address: the error is kept with the message."""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage as Mime
from urllib.parse import unquote, urlsplit

TIMEOUT_SECONDS = 30
DEFAULT_PORTS = {"smtp": 25, "smtps": 465}


class BadSmtpUrl(ValueError):
    """SMTP_URL is not one this service reads; the message says what to give instead."""


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    tls: bool  # smtps: TLS from the first byte
    user: str | None
    password: str | None


def smtp_server(url: str) -> SmtpServer:
    """The server SMTP_URL names, or BadSmtpUrl."""
    parts = urlsplit(url.strip())
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise BadSmtpUrl(
            "SMTP_URL must look like smtp://host:port or smtps://user:password@host:port "
            f"(it starts {url.strip()[:8]!r})."
        )
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise BadSmtpUrl("SMTP_URL's port is not a number from 1 to 65535.") from None
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return SmtpServer(parts.hostname, port, parts.scheme == "smtps", user, password)


@dataclass(frozen=True)
class Handed:
    """What the server said: accepted, or an error and whether trying again could help."""

    sent: bool
    error: str | None = None
    permanent: bool = False


def hand_over(server: SmtpServer, message: Mime) -> Handed:
    """Send one message; a 5xx refusal is permanent, anything else may pass on a later try."""
    try:
        _send(server, message)
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _said in exc.recipients.values()]
        said = "; ".join(f"{code} {_text(text)}" for code, text in exc.recipients.values())
        return Handed(False, f"Recipient refused: {said}"[:500], all(500 <= c < 600 for c in codes))
    except smtplib.SMTPResponseException as exc:
        return Handed(
            False, f"SMTP {exc.smtp_code}: {_text(exc.smtp_error)}"[:500], 500 <= exc.smtp_code < 600
        )
    except (smtplib.SMTPException, OSError) as exc:
        return Handed(False, f"{type(exc).__name__}: {exc}"[:500])
    return Handed(True)


def _text(said: bytes | str) -> str:
    return said.decode("utf-8", "replace") if isinstance(said, bytes) else said


def _send(server: SmtpServer, message: Mime) -> None:
    context = ssl.create_default_context()
    client: smtplib.SMTP
    if server.tls:
        client = smtplib.SMTP_SSL(server.host, server.port, timeout=TIMEOUT_SECONDS, context=context)
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT_SECONDS)
    with client:
        client.ehlo()
        if not server.tls and client.has_extn("starttls"):
            client.starttls(context=context)
            client.ehlo()
        if server.user:
            client.login(server.user, server.password or "")
        client.send_message(message)
