"""Points charts (R7): which places score and how much, and a preview for any field size."""

from api.points_charts.routes import blp

__all__ = ["blp"]
