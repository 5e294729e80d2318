"""Exact arithmetic for the rules (decimals, never binary floating point)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def round_half_up(value: Decimal) -> int:
    """Round to the nearest integer, a half up: 1.5 -> 2, 4.5 -> 5 (never banker's rounding)."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def to_decimal(value: Decimal | int | float | str) -> Decimal:
    """A Decimal of what a person wrote: 0.3 stays 0.3, not 0.299999…"""
    if isinstance(value, Decimal):
        return value
    return Decimal(str(value))
