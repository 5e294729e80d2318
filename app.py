"""The league service: create_app(config=None) builds the Flask app from the environment."""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from pathlib import Path
from typing import Any

import swagger_ui_bundle
from flask import Flask, Response, has_request_context, request, send_from_directory
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix

import api
from api.cache.refresher import ENVIRON_FLAG as REFRESHER_FLAG
from api.cli import register_cli
from api.site.reads import SITE_FLAG
from models.infra import clock, sealing
from models.infra.db import REPO_ROOT, default_database_url

TRUE_WORDS = {"1", "true", "yes", "on"}


class _SessionCookies(SecureCookieSessionInterface):
    """Flask's session cookie (the console's CSRF secret), Secure whenever the request came over
    HTTPS, as the console's own cookie is."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


def config_from_env(environ: dict[str, str] | os._Environ[str] = os.environ) -> dict[str, Any]:
    """Everything configurable comes from the environment (README "Configuration")."""
    return {
        "DATABASE_URL": environ.get("DATABASE_URL") or default_database_url(),
        "MAX_CONTENT_LENGTH": int(environ.get("MAX_CONTENT_LENGTH", 2 * 1024 * 1024)),
        "RATELIMIT_ENABLED": environ.get("RATELIMIT_ENABLED", "1").lower() in TRUE_WORDS,
        "RATELIMIT_STORAGE_URI": environ.get("RATELIMIT_STORAGE_URI", "memory://"),
        "RATELIMIT_DEFAULT": environ.get("RATELIMIT_DEFAULT", "600 per minute"),
        # Wrong API keys per address (tighter: guessing keys must be slow), and writes per key.
        "RATELIMIT_AUTH_FAILURES": environ.get("RATELIMIT_AUTH_FAILURES", "20 per 10 minutes"),
        "RATELIMIT_WRITES": environ.get("RATELIMIT_WRITES", "120 per minute"),
        # Per key, a report's emails and membership numbers that named no player (R19): honest
        # typos stay far below it; a sweep of membership numbers cannot.
        "RATELIMIT_UNKNOWN_IDENTIFIERS": environ.get("RATELIMIT_UNKNOWN_IDENTIFIERS", "20 per 10 minutes"),
        # Per address, the requests to subscribe an email to the weekly email (R19, R23), the
        # API's and the page's alike, whether or not the email is a player's.
        "RATELIMIT_EMAIL_SUBSCRIPTIONS": environ.get("RATELIMIT_EMAIL_SUBSCRIPTIONS", "20 per hour"),
        "RATELIMIT_HEADERS_ENABLED": True,
        # Before every limit's key in the storage: services sharing one Redis keep their own counts.
        "RATELIMIT_KEY_PREFIX": environ.get("RATELIMIT_KEY_PREFIX", ""),
        "LOG_LEVEL": environ.get("LOG_LEVEL", "INFO").upper(),
        # Cached answers (api/cache/), shared by every worker: in the Redis CACHE_URL names, else in
        # the directory CACHE_DIR (default: beside the SQLite file), at most CACHE_DISK_BYTES;
        # entries expire after CACHE_TTL_SECONDS. Each worker keeps at most CACHE_MAX_BYTES of
        # them in its own memory too.
        "CACHE_URL": environ.get("CACHE_URL", ""),
        "CACHE_DIR": environ.get("CACHE_DIR", ""),
        "CACHE_DISK_BYTES": int(environ.get("CACHE_DISK_BYTES", 512 * 1024 * 1024)),
        "CACHE_MAX_BYTES": int(environ.get("CACHE_MAX_BYTES", 32 * 1024 * 1024)),
        "CACHE_TTL_SECONDS": int(environ.get("CACHE_TTL_SECONDS", 24 * 3600)),
        # How long a read waits for another computing the same answer before computing it itself.
        "CACHE_FLIGHT_WAIT_SECONDS": float(environ.get("CACHE_FLIGHT_WAIT_SECONDS", 10)),
        # How often a worker tells the shared store, in one write, which answers it was asked for
        # (the refresher computes again only those); 0: at once.
        "CACHE_NOTE_EVERY_SECONDS": float(environ.get("CACHE_NOTE_EVERY_SECONDS", 2)),
        # Signs the console's CSRF tokens; every process of a league must share it.
        # Unset: made once and kept in instance/secret_key (create_app), unless the caller gives one.
        "SECRET_KEY": environ.get("SECRET_KEY", ""),
        # R21: the audit log's master key, which wraps every player's key. Unset: made once and
        # kept in instance/audit_key for the embedded SQLite default; any other database refuses
        # to start without it (create_app).
        "AUDIT_KEY": environ.get("AUDIT_KEY", ""),
        "CONSOLE_SESSION_HOURS": int(environ.get("CONSOLE_SESSION_HOURS", 12)),
        # Flask's own signed cookie holds only the console's CSRF secret: sent to the console alone.
        "SESSION_COOKIE_NAME": "league_csrf",
        "SESSION_COOKIE_PATH": "/console/",
        "SESSION_COOKIE_SAMESITE": "Lax",
        # Proxies in front of the service (a load balancer, TLS ending there) whose X-Forwarded-*
        # headers are believed: the client's address (rate limits) and scheme (Secure cookies).
        "TRUSTED_PROXIES": int(environ.get("TRUSTED_PROXIES", 0)),
        # R23: webhooks may reach private, loopback and link-local addresses only when this is
        # set (tests, installs on a private network); otherwise they are refused (SSRF).
        "WEBHOOKS_ALLOW_PRIVATE": environ.get("WEBHOOKS_ALLOW_PRIVATE", "").lower() in TRUE_WORDS,
        # R23: the delivery worker's pause between passes that found nothing to send.
        "DELIVER_EVERY_SECONDS": float(environ.get("DELIVER_EVERY_SECONDS", 2)),
        # How often the same worker looks for writes whose retired answers it must compute again
        # (api/cache/refresher.py): a reader faster than it computes the answer itself, once.
        "REFRESH_EVERY_SECONDS": float(environ.get("REFRESH_EVERY_SECONDS", 0.2)),
        # R23: the mail server the weekly emails go through (smtp://host:port, smtps:// for TLS,
        # optionally user:password@); unset, nothing is sent and the messages wait. MAIL_FROM is
        # their sender, PUBLIC_URL where their links lead (this service as players reach it).
        "SMTP_URL": environ.get("SMTP_URL", ""),
        "MAIL_FROM": environ.get("MAIL_FROM", ""),
        "PUBLIC_URL": environ.get("PUBLIC_URL", ""),
        # R23: how long a worker's claim on a delivery holds (a worker killed mid-send leaves it
        # to lapse, and the delivery is sent again), and after how many failures in a row a
        # subscription is paused.
        "DELIVERY_LEASE_SECONDS": float(environ.get("DELIVERY_LEASE_SECONDS", 120)),
        "WEBHOOKS_PAUSE_AFTER": int(environ.get("WEBHOOKS_PAUSE_AFTER", 15)),
        # R23: each delivery's whole time (connecting, sending, the answer, redirects), however
        # slowly a receiver answers; and how many deliveries are sent at once (one a subscription).
        "WEBHOOK_DEADLINE_SECONDS": float(environ.get("WEBHOOK_DEADLINE_SECONDS", 10)),
        "WEBHOOKS_AT_ONCE": int(environ.get("WEBHOOKS_AT_ONCE", 8)),
    }


def instance_secret() -> str:
    """A secret made once and kept in instance/secret_key, beside the embedded database: every
    worker on this machine reads the same. (Several machines: set SECRET_KEY on each.)"""
    return sealing.made_once(REPO_ROOT / "instance" / "secret_key")


SPEC_CONFIG: dict[str, Any] = {
    "API_TITLE": "Poker League Points and Standings",
    "API_VERSION": "1.0.0",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    # Served from the swagger-ui-bundle package: the docs page works with no internet.
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",
}


def _rate_limit_key() -> str:
    """Count per API key when one is sent (hosts share pub Wi-Fi), else per address. Under
    /embed/ no key is read, so any header sent there is no one's: per address."""
    header = request.headers.get("Authorization", "")
    if header and not request.path.startswith("/embed/"):
        return "key:" + hashlib.sha256(header.encode()).hexdigest()[:32]
    return "ip:" + (get_remote_address() or "unknown")


class _JsonLines(logging.StreamHandler):
    """Lines on whatever stderr is when each is written (a test runner swaps it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def _request_log_as_json_lines() -> None:
    """The request log (api: one JSON object per request) on stderr as bare JSON lines, so that
    a log shipper reads each line as one record."""
    requests = logging.getLogger("league.requests")
    if not any(isinstance(h, _JsonLines) for h in requests.handlers):
        handler = _JsonLines()
        handler.setFormatter(logging.Formatter("%(message)s"))
        requests.addHandler(handler)
        requests.propagate = False
    requests.setLevel(logging.INFO if os.environ.get("REQUEST_LOG", "1") != "0" else logging.WARNING)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_path=str(Path(__file__).resolve().parent / "instance"))
    app.config.update(SPEC_CONFIG)
    app.config.update(config_from_env())
    app.config.update(config or {})
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret()
    try:
        # R21: the same key as the migrations read (AUDIT_KEY, else instance/audit_key for SQLite).
        audit_key = sealing.master_key_text(
            app.config["DATABASE_URL"], {sealing.ENVIRONMENT: app.config.get("AUDIT_KEY") or ""}
        )
    except sealing.MissingAuditKey as exc:
        raise RuntimeError(str(exc)) from None
    sealing.use(sealing.Keyring(audit_key))
    try:
        clock.check_zone(clock.default_zone())  # R2a: LEAGUE_TIMEZONE names an IANA zone
    except clock.UnknownZone as exc:
        raise RuntimeError(f"{clock.ZONE_ENVIRONMENT}: {exc}") from None
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False  # answers keep their schemas' field order
    logging.basicConfig(
        level=app.config["LOG_LEVEL"], format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    _request_log_as_json_lines()

    @app.after_request
    def retry_after_only_when_refused(response: Response) -> Response:
        """Flask-Limiter stamps Retry-After (its window's reset) on every answer; it means "wait"
        only on a 429 or a 503. (Registered before the limiter, so it runs after it.)"""
        if response.status_code not in (429, 503):
            response.headers.pop("Retry-After", None)
        return response

    app.session_interface = _SessionCookies()
    proxies = int(app.config.get("TRUSTED_PROXIES", 0))
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]

    limiter = Limiter(
        _rate_limit_key,
        app=app,
        # The refresher's own requests (in-process only: no HTTP request can set this flag).
        # The site's own reads of the API are exempt too: the page that made them was counted.
        default_limits_exempt_when=lambda: (
            not (request.path.startswith(("/api/", "/embed/")) or request.blueprint == "site")
            or bool(request.environ.get(REFRESHER_FLAG))
            or bool(request.environ.get(SITE_FLAG))
        ),
    )
    app.extensions["league_limiter"] = limiter
    api.init_app(app)

    assets = swagger_ui_bundle.swagger_ui_path

    @app.get("/docs/assets/<path:filename>")
    def docs_assets(filename: str) -> Any:
        return send_from_directory(assets, filename, max_age=86400)

    register_cli(app)
    return app
