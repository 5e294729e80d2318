"""R18: the office reads and filters the append-only audit log."""

from api.audit_log.routes import blp

__all__ = ["blp"]
