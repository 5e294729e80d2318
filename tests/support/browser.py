"""The browser tests' Chromium (Debian's package, driven by Playwright) and the players they need."""

from __future__ import annotations

import shutil

from tests.support.servers import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags for a machine without a network: no background connections, no sandbox as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def players_named(server: Server, names: tuple[str, ...], surname: str) -> list[int]:
    """Ann and Bob (the served league's) and a new player for each name; their ids, in order."""
    players = [server.ann, server.bob]
    for name in names:
        status, _headers, body = server.request(
            "POST",
            "/api/v1/players",
            {
                "full_name": f"{name} {surname}",
                "display_name": name,
                "email": f"{name}.{surname}@example.org".lower(),
            },
            Authorization=f"Bearer {server.office}",
        )
        assert status == 201, body
        players.append(body["id"])
    return players
