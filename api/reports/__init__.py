"""Result reports: hosts post (JSON, or a spreadsheet: CSV, .xlsx, .ods), retry safely, correct
and void (R2-R7, R17, R18)."""

from api.reports.routes import blp

__all__ = ["blp"]
