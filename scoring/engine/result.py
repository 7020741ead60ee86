"""Scoring results and their contract JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .tiles import WINDS


@dataclass(frozen=True, slots=True)
class Item:
    """One line of the breakdown, with the units the rule set uses."""

    name: str  # the seed's name, e.g. "Concealed pong of minor tiles (c5)"
    points: int | None = None
    doublings: int | None = None
    faan: int | None = None
    fan: int | None = None

    def to_dict(self) -> dict:
        out: dict = {"name": self.name}
        if self.points is not None:
            out["points"] = self.points
        if self.doublings is not None:
            out["doublings"] = self.doublings
        if self.faan is not None:
            out["faan"] = self.faan
        if self.fan is not None:
            out["fan"] = self.fan
        return out


@dataclass(frozen=True, slots=True)
class Result:
    rules: str
    total: int
    limit: bool
    allowed: bool
    breakdown: tuple[Item, ...]
    payments: Mapping[str, int]  # {"E":..,"S":..,"W":..,"N":..}, sums to zero

    def to_dict(self) -> dict:
        """Contract JSON, "ok": true first."""
        payments = self.payments
        return {
            "ok": True,
            "rules": self.rules,
            "total": self.total,
            "limit": self.limit,
            "allowed": self.allowed,
            "breakdown": [item.to_dict() for item in self.breakdown],
            "payments": {seat: payments.get(seat, 0) for seat in WINDS},
        }


def error_dict(rules: str, message: str) -> dict:
    return {"ok": False, "rules": rules, "error": message}
