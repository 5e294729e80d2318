"""Outbound HTTP that cannot be aimed at the service's own machine or network (R23: server-side
request forgery). Every connection, a redirect's too, resolves the host itself and refuses when
any of its addresses is loopback, private, link-local or otherwise not public, then connects to
the address it checked (so a name cannot resolve one way when checked and another way when
used). `allow_private` (the WEBHOOKS_ALLOW_PRIVATE setting) lifts it, for tests and installs on
a private network."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Iterable
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx
from standardwebhooks.webhooks import Webhook as Signer

TIMEOUT = httpx.Timeout(10.0, connect=5.0)
MOST_REDIRECTS = 3


def refused_address(address: str) -> str | None:
    """Why a delivery may not reach this IP address (loopback, private, link-local, …), or None."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return f"{address!r} is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for why, flag in (
        ("a loopback address", ip.is_loopback),
        ("a link-local address", ip.is_link_local),
        ("a private address", ip.is_private),
        ("an unspecified address", ip.is_unspecified),
        ("a multicast address", ip.is_multicast),
        ("a reserved address", ip.is_reserved),
    ):
        if flag:
            return f"{ip} is {why}"
    if not ip.is_global:
        return f"{ip} is not a public address"
    return None


class Refused(Exception):
    """The target is one a delivery may not reach; the message says why."""


class Unresolved(Refused):
    """The host does not resolve (now): a delivery fails and is tried again later."""


def addresses_of(host: str, port: int) -> list[str]:
    """Every address the host resolves to (an IP literal: itself)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise Unresolved(f"{host} does not resolve: {exc.strerror or exc}") from None
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def check_host(host: str, port: int, allow_private: bool) -> list[str]:
    """The host's addresses, or Refused naming the first that may not be reached."""
    host = host.strip("[]")
    addresses = addresses_of(host, port)
    if not allow_private:
        for address in addresses:
            why = refused_address(address)
            if why is not None:
                raise Refused(why if host == address else f"{host} resolves to {address}, and {why}")
    return addresses


def check_url(url: str, allow_private: bool) -> None:
    """R23: a subscription's URL, checked when saved: http(s), a host, and no address that is not
    public. A host that does not resolve now is taken (it is checked again at each delivery)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused("The URL must be http:// or https:// with a host.")
    if parts.username or parts.password:
        raise Refused("The URL may not carry a user name or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("The URL's port is not a number from 1 to 65535.") from None
    with contextlib.suppress(Unresolved):
        check_host(parts.hostname, port, allow_private)


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's network backend, checking each address before it connects to it."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = check_host(host, port, self.allow_private)
        return super().connect_tcp(addresses[0], port, timeout, local_address, socket_options)


def guarded_client(allow_private: bool) -> httpx.Client:
    """An HTTP client whose every connection is checked (redirects followed by hand, each hop
    through the same check). No proxies from the environment: a proxy would connect for us."""
    transport = httpx.HTTPTransport(trust_env=False)
    transport._pool = httpcore.ConnectionPool(  # the one way to give httpx a network backend
        ssl_context=httpx.create_ssl_context(trust_env=False),
        network_backend=GuardedBackend(allow_private),
    )
    return httpx.Client(transport=transport, timeout=TIMEOUT, follow_redirects=False, trust_env=False)


def post_json(client: httpx.Client, url: str, body: bytes, headers: dict[str, str]) -> httpx.Response:
    """POST, following at most MOST_REDIRECTS redirects (307 and 308 keep the POST; the others
    are answers), each hop's address checked again as it connects."""
    for _hop in range(MOST_REDIRECTS + 1):
        answer = client.post(url, content=body, headers=headers)
        if answer.status_code not in (307, 308) or "location" not in answer.headers:
            return answer
        url = str(answer.url.join(answer.headers["location"]))
        if urlsplit(url).scheme not in ("http", "https"):
            raise Refused(f"A redirect to {url!r}: only http and https are followed.")
    raise Refused(f"More than {MOST_REDIRECTS} redirects.")


def signed_headers(secret: str, message_id: str, now: datetime, body: bytes) -> dict[str, str]:
    """Standard Webhooks' headers for one delivery: its id, when, and the HMAC-SHA256 signature
    of both with the body under the subscription's secret (`whsec_…`)."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Signer(secret).sign(message_id, now, body),
    }
