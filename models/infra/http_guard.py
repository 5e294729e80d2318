"""Outbound HTTP that cannot be aimed at the service's own machine or network (R23: server-side
request forgery). Every connection, a redirect's too, resolves the host itself and refuses when
any of its addresses is loopback, private, link-local or otherwise not public, then connects to
the address it checked (so a name cannot resolve one way when checked and another way when
used). `allow_private` (the WEBHOOKS_ALLOW_PRIVATE setting) lifts it, for tests and installs on
a private network.

A receiver cannot hold or swell the worker either: each delivery has a deadline of its own
(`Deadline`: every read and write of its connections is given what is left of it, so a trickle
is cut off too, where httpx's timeouts are per read), and of an answer only a few KB are read
(`ANSWER_BYTES`; a 2xx's body not at all)."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

import httpcore
import httpx
from standardwebhooks.webhooks import Webhook as Signer

TIMEOUT = httpx.Timeout(10.0, connect=5.0)
MOST_REDIRECTS = 3
# A delivery's whole time by default (the WEBHOOK_DEADLINE_SECONDS setting), redirects included.
DEADLINE_SECONDS = 10.0
# How much of an answer is read: enough for an error's first words.
ANSWER_BYTES = 4096

T = TypeVar("T")


# IPv6 prefixes that carry an IPv4 address in their last 32 bits: NAT64's well-known prefix
# (RFC 6052) and the deprecated IPv4-compatible addresses (RFC 4291: ::a.b.c.d).
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
# NAT64 prefixes a network chooses for itself (RFC 8215): where the IPv4 address sits depends on
# the prefix's length, so nothing in them is taken to be public.
LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")


def carried_ipv4(ip: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address carries, each with how: IPv4-mapped, IPv4-compatible,
    6to4 (2002::/16), Teredo (2001::/32: its server and its client) and NAT64 (64:ff9b::/96). A
    packet sent to it can end at that IPv4 address, so each is checked as the address itself."""
    carried: list[tuple[str, ipaddress.IPv4Address]] = []
    last32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.ipv4_mapped is not None:
        carried.append(("IPv4-mapped", ip.ipv4_mapped))
    if ip in IPV4_COMPATIBLE and int(ip) > 1:  # not :: nor ::1, judged as themselves
        carried.append(("IPv4-compatible", last32))
    if ip.sixtofour is not None:
        carried.append(("6to4", ip.sixtofour))
    if ip.teredo is not None:
        server, client = ip.teredo
        carried += [("Teredo server", server), ("Teredo client", client)]
    if ip in NAT64:
        carried.append(("NAT64", last32))
    return carried


def _not_public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
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


def refused_address(address: str) -> str | None:
    """Why a delivery may not reach this IP address (loopback, private, link-local, …, or an
    IPv6 address carrying such an IPv4 address: `carried_ipv4`), or None."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return f"{address!r} is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in LOCAL_NAT64:
            return f"{ip} is in {LOCAL_NAT64}, a NAT64 prefix of a local network"
        for how, inner in carried_ipv4(ip):
            why = _not_public(inner)
            if why is not None:
                return f"{ip} carries {inner} ({how}), and {why}"
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
    return _not_public(ip)


class Refused(Exception):
    """The target is one a delivery may not reach; the message says why."""


class Malformed(Refused):
    """The URL is not one a delivery is sent to, whatever its host's addresses: not http(s), a
    user name, a port not from 1 to 65535, a host that is not a host name or an IP address."""


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
    if "%" in host:
        raise Malformed(f"{host!r} carries an IPv6 zone (%…): a zone names this machine's own interfaces.")
    addresses = addresses_of(host, port)
    if not allow_private:
        for address in addresses:
            why = refused_address(address)
            if why is not None:
                raise Refused(why if host == address else f"{host} resolves to {address}, and {why}")
    return addresses


# A host name's label (RFC 1123; `_` as some DNS names have it), once in ASCII (IDNA).
LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")


def _host_problem(host: str, bracketed: bool) -> str | None:
    """Why a URL's host is neither an IP address nor a host name, or None."""
    if "%" in host:
        what = "an IPv6 zone (%…)" if bracketed else "a %-escape"
        return f"The URL's host carries {what}: give a host name or a public IP address."
    if bracketed:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return f"The URL's host [{host}] is not an IPv6 address."
        return None
    with contextlib.suppress(ValueError):
        ipaddress.IPv4Address(host)
        return None
    try:
        ascii_host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        ascii_host = ""
    labels = ascii_host.rstrip(".").split(".")
    if not ascii_host or len(ascii_host) > 253 or not all(LABEL.fullmatch(label) for label in labels):
        return f"The URL's host {host!r} is not a host name: letters, digits, '-' and dots only."
    return None


def check_url(url: str, allow_private: bool) -> None:
    """R23: a subscription's URL, checked when saved: http(s), a host that is a host name or an IP
    address (no space, no IPv6 zone), a port from 1 to 65535, and no address that is not public
    (nor an IPv6 one carrying such an IPv4 address). A host that does not resolve now is taken
    (it is checked again at each delivery)."""
    if any(char.isspace() or not char.isprintable() for char in url):
        raise Malformed("The URL may not contain spaces or control characters.")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Malformed("The URL must be http:// or https:// with a host.")
    if parts.username or parts.password:
        raise Malformed("The URL may not carry a user name or password.")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0:
        raise Malformed("The URL's port is not a number from 1 to 65535.")
    host = parts.netloc.rpartition("@")[2]
    bracketed = host.startswith("[")
    problem = _host_problem(parts.hostname, bracketed)
    if problem is not None:
        raise Malformed(problem)
    with contextlib.suppress(Unresolved):
        check_host(parts.hostname, port or (443 if parts.scheme == "https" else 80), allow_private)


class Late(Exception):
    """A delivery's deadline passed before its answer was whole."""


class Deadline:
    """One delivery's whole time, from its first connection to the end of its answer, every
    redirect included."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def late(self) -> Late:
        return Late(f"no full answer within {self.seconds:g} s")

    def within(self, timeout: float | None, operation: Callable[[float], T]) -> T:
        """The operation (a connect, a read, a write, a TLS handshake), given its own timeout or
        what is left of the deadline, whichever is shorter; Late when the deadline ends it."""
        left = self.ends - time.monotonic()
        if left <= 0:
            raise self.late()
        if timeout is not None and timeout < left:
            return operation(timeout)
        try:
            return operation(left)
        except httpcore.TimeoutException:
            raise self.late() from None


class DeadlineStream(httpcore.NetworkStream):
    """A connection whose every read and write (TLS's too) ends by the deadline: a receiver
    sending its answer a byte at a time gets each read done within httpx's timeout, but never
    past the deadline."""

    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline) -> None:
        self.stream = stream
        self.deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self.deadline.within(timeout, lambda left: self.stream.read(max_bytes, left))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self.deadline.within(timeout, lambda left: self.stream.write(buffer, left))

    def close(self) -> None:
        self.stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        tls = self.deadline.within(
            timeout, lambda left: self.stream.start_tls(ssl_context, server_hostname, left)
        )
        return DeadlineStream(tls, self.deadline)

    def get_extra_info(self, info: str) -> Any:
        return self.stream.get_extra_info(info)


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's network backend, checking each address before it connects to it, and holding
    every connection to the deadline when there is one."""

    def __init__(self, allow_private: bool, deadline: Deadline | None = None) -> None:
        self.allow_private = allow_private
        self.deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = check_host(host, port, self.allow_private)
        connect = super().connect_tcp
        if self.deadline is None:
            return connect(addresses[0], port, timeout, local_address, socket_options)
        stream = self.deadline.within(
            timeout, lambda left: connect(addresses[0], port, left, local_address, socket_options)
        )
        return DeadlineStream(stream, self.deadline)


def guarded_client(allow_private: bool, deadline: Deadline | None = None) -> httpx.Client:
    """An HTTP client whose every connection is checked (redirects followed by hand, each hop
    through the same check) and, given a deadline, ends by it. No proxies from the environment:
    a proxy would connect for us."""
    transport = httpx.HTTPTransport(trust_env=False)
    transport._pool = httpcore.ConnectionPool(  # the one way to give httpx a network backend
        ssl_context=httpx.create_ssl_context(trust_env=False),
        network_backend=GuardedBackend(allow_private, deadline),
    )
    return httpx.Client(transport=transport, timeout=TIMEOUT, follow_redirects=False, trust_env=False)


@dataclass(frozen=True)
class Answer:
    """What a receiver answered: its status; and, but for a 2xx (whose body is not read), the
    start of its body and, when that is all that was read, why (`cut`)."""

    status: int
    start: str = ""
    cut: str | None = None


def read_start(answer: httpx.Response) -> Answer:
    """The first ANSWER_BYTES of an answer's body, as sent (never decompressed: a small answer
    may unpack into gigabytes), in words that hold no control character."""
    kept, cut = bytearray(), None
    try:
        for chunk in answer.iter_raw():
            kept += chunk[: ANSWER_BYTES + 1 - len(kept)]
            if len(kept) > ANSWER_BYTES:
                cut = f"answer too large: stopped after {ANSWER_BYTES // 1024} KB"
                break
    except (Late, httpx.TransportError) as exc:
        cut = str(exc) or type(exc).__name__
    try:
        text = bytes(kept[:ANSWER_BYTES]).decode(answer.charset_encoding or "utf-8", errors="replace")
    except LookupError:
        text = bytes(kept[:ANSWER_BYTES]).decode("utf-8", errors="replace")
    return Answer(answer.status_code, "".join(c if c.isprintable() else " " for c in text), cut)


def post_json(client: httpx.Client, url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST, following at most MOST_REDIRECTS redirects (307 and 308 keep the POST; the others
    are answers), each hop's address checked again as it connects. The answer is streamed: a
    2xx's body is not read, another's only its first ANSWER_BYTES; the connection is then
    closed."""
    for _hop in range(MOST_REDIRECTS + 1):
        with client.stream("POST", url, content=body, headers=headers) as answer:
            if answer.status_code not in (307, 308) or "location" not in answer.headers:
                return Answer(answer.status_code) if answer.is_success else read_start(answer)
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
