"""The audit log's keys (R21): a data key per player, wrapped by the master key (AUDIT_KEY), and
values sealed under it with AES-GCM (a fresh 96-bit nonce per value, stored before the
ciphertext). Deleting a player's wrapped key (crypto-shredding) leaves every value sealed under
it unreadable, without touching the entries that hold them."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy.engine import make_url

from models.infra.db import REPO_ROOT, normalise_url

ENVIRONMENT = "AUDIT_KEY"
INSTANCE_FILE = REPO_ROOT / "instance" / "audit_key"
NONCE_BYTES = 12


class MissingAuditKey(RuntimeError):
    """A database other than the embedded default, and no AUDIT_KEY: the service must not start
    (a key made on one machine would leave the log unreadable on every other)."""


class Unreadable(Exception):
    """A value sealed under a key that is gone (an erased player) or not this master key's."""


def made_once(path: Path) -> str:
    """A secret made once and kept in `path`: every worker on this machine reads the same."""
    for _ in range(50):
        try:
            secret = path.read_text().strip()
        except FileNotFoundError:
            path.parent.mkdir(exist_ok=True)
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                continue  # another worker is writing it
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_hex(32))
            continue
        if secret:
            return secret
        time.sleep(0.01)  # being written
    raise RuntimeError(f"could not read {path}")


def master_key_text(database_url: str, environ: Mapping[str, str] = os.environ) -> str:
    """AUDIT_KEY from the environment; for the embedded default (SQLite) made once into
    instance/audit_key; with any other database a MissingAuditKey saying why."""
    given = environ.get(ENVIRONMENT, "").strip()
    if given:
        return given
    if make_url(normalise_url(database_url)).get_backend_name() != "sqlite":
        raise MissingAuditKey(
            f"{ENVIRONMENT} is not set: with a database other than the embedded SQLite default, "
            "every process of the league must be given the same audit log master key (any long "
            f"random string, e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`); "
            "without it the audit log's personal values could not be read back (R21)."
        )
    return made_once(INSTANCE_FILE)


class Keyring:
    """The master key: wraps and unwraps the players' data keys."""

    def __init__(self, master_text: str) -> None:
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"league audit log master key")
        self._master = AESGCM(derived.derive(master_text.encode()))
        digests = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"league erased values")
        self._digest_key = digests.derive(master_text.encode())

    def digest(self, value: str) -> str:
        """A keyed digest of a value (an erased one, R21): equal values give equal digests, and
        without the master key a digest tells nothing of its value."""
        return hmac.new(self._digest_key, value.encode(), hashlib.sha256).hexdigest()

    def new_data_key(self, player_id: int) -> tuple[bytes, bytes]:
        """A fresh data key for a player, and the same wrapped for storage."""
        data_key = AESGCM.generate_key(bit_length=256)
        nonce = os.urandom(NONCE_BYTES)
        return data_key, nonce + self._master.encrypt(nonce, data_key, _bound(player_id))

    def unwrap(self, player_id: int, wrapped: bytes) -> bytes:
        try:
            return self._master.decrypt(wrapped[:NONCE_BYTES], wrapped[NONCE_BYTES:], _bound(player_id))
        except InvalidTag:
            raise Unreadable(f"player {player_id}'s key is not wrapped by this AUDIT_KEY") from None


def _bound(player_id: int) -> bytes:
    return f"player:{player_id}".encode()


def seal(data_key: bytes, player_id: int, plaintext: bytes) -> bytes:
    nonce = os.urandom(NONCE_BYTES)
    return nonce + AESGCM(data_key).encrypt(nonce, plaintext, _bound(player_id))


def unseal(data_key: bytes, player_id: int, sealed: bytes) -> bytes:
    try:
        return AESGCM(data_key).decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], _bound(player_id))
    except InvalidTag:
        raise Unreadable(f"a value not sealed under player {player_id}'s key") from None


def seal_value(keys: Mapping[int, bytes], owners: list[int], value: Any) -> str:
    """A JSON value sealed under each owner's key in turn (erasing any one of them shreds it)."""
    data = json.dumps(value).encode()
    for owner in owners:
        data = seal(keys[owner], owner, data)
    return base64.b64encode(data).decode()


def open_value(keys: Mapping[int, bytes], owners: list[int], token: str) -> Any:
    """The value `seal_value` sealed; Unreadable when an owner's key is missing."""
    data = base64.b64decode(token)
    for owner in reversed(owners):
        if owner not in keys:
            raise Unreadable(f"player {owner}'s key is gone")
        data = unseal(keys[owner], owner, data)
    return json.loads(data)


_CURRENT: list[Keyring] = []


def use(keyring: Keyring) -> None:
    """The process's keyring (create_app sets it from AUDIT_KEY)."""
    _CURRENT[:] = [keyring]


def current() -> Keyring:
    if not _CURRENT:
        raise MissingAuditKey(f"no audit log master key: create_app reads {ENVIRONMENT}")
    return _CURRENT[0]
