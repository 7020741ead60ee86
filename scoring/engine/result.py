"""Scoring results and their contract JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring as _quote  # the C string escaper json.dumps uses

from .tiles import WINDS


@dataclass(frozen=True, slots=True, init=False)
class Item:
    """One line of the breakdown, with the units the rule set uses."""

    name: str  # the seed's name, e.g. "Concealed pong of minor tiles (c5)"
    points: int | None = None
    doublings: int | None = None
    faan: int | None = None
    fan: int | None = None

    def __init__(
        self,
        name: str,
        points: int | None = None,
        doublings: int | None = None,
        faan: int | None = None,
        fan: int | None = None,
    ) -> None:
        # Written out: slot setters cost half of frozen dataclass assignment, and rule
        # sets build several items per hand.
        _set_item_name(self, name)
        _set_item_points(self, points)
        _set_item_doublings(self, doublings)
        _set_item_faan(self, faan)
        _set_item_fan(self, fan)

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


@dataclass(frozen=True, slots=True, init=False)
class Result:
    rules: str
    total: int
    limit: bool
    allowed: bool
    breakdown: tuple[Item, ...]
    payments: Mapping[str, int]  # {"E":..,"S":..,"W":..,"N":..}, sums to zero

    def __init__(
        self,
        rules: str,
        total: int,
        limit: bool,
        allowed: bool,
        breakdown: tuple[Item, ...],
        payments: Mapping[str, int],
    ) -> None:
        _set_result_rules(self, rules)
        _set_result_total(self, total)
        _set_result_limit(self, limit)
        _set_result_allowed(self, allowed)
        _set_result_breakdown(self, breakdown)
        _set_result_payments(self, payments)

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


def _number(value: object) -> str:
    return str(value) if type(value) is int else json.dumps(value, ensure_ascii=False)


def _flag(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return json.dumps(value, ensure_ascii=False)


# Slot setters for the written-out __init__s (they bypass the frozen __setattr__).
_set_item_name = Item.__dict__["name"].__set__
_set_item_points = Item.__dict__["points"].__set__
_set_item_doublings = Item.__dict__["doublings"].__set__
_set_item_faan = Item.__dict__["faan"].__set__
_set_item_fan = Item.__dict__["fan"].__set__
_set_result_rules = Result.__dict__["rules"].__set__
_set_result_total = Result.__dict__["total"].__set__
_set_result_limit = Result.__dict__["limit"].__set__
_set_result_allowed = Result.__dict__["allowed"].__set__
_set_result_breakdown = Result.__dict__["breakdown"].__set__
_set_result_payments = Result.__dict__["payments"].__set__


# The JSON text of each distinct item: rule sets repeat the same few hundred items.
_ITEM_JSON: dict[tuple, str] = {}


def _item_json(item: Item) -> str:
    key = (item.name, item.points, item.doublings, item.faan, item.fan)
    text = _ITEM_JSON.get(key)
    if text is None:
        text = '{"name": ' + _quote(item.name)
        if item.points is not None:
            text += ', "points": ' + _number(item.points)
        if item.doublings is not None:
            text += ', "doublings": ' + _number(item.doublings)
        if item.faan is not None:
            text += ', "faan": ' + _number(item.faan)
        if item.fan is not None:
            text += ', "fan": ' + _number(item.fan)
        text += "}"
        if len(_ITEM_JSON) > 50_000:  # bounded, whatever the rule sets name
            _ITEM_JSON.clear()
        _ITEM_JSON[key] = text
    return text


def result_json(result: Result) -> str:
    """`json.dumps(result.to_dict(), ensure_ascii=False)`, byte for byte, about twice as fast:
    the CLI writes one per hand."""
    get = result.payments.get
    e, s, w, n = get("E", 0), get("S", 0), get("W", 0), get("N", 0)
    total = result.total
    if (
        type(total) is int
        and type(e) is int
        and type(s) is int
        and type(w) is int
        and type(n) is int
    ):
        numbers = f'"total": {total}, '
        payments = f'{{"E": {e}, "S": {s}, "W": {w}, "N": {n}}}}}'
    else:
        numbers = f'"total": {_number(total)}, '
        payments = (
            f'{{"E": {_number(e)}, "S": {_number(s)}, "W": {_number(w)}, "N": {_number(n)}}}}}'
        )
    return (
        '{"ok": true, "rules": '
        + _quote(result.rules)
        + ", "
        + numbers
        + '"limit": '
        + _flag(result.limit)
        + ', "allowed": '
        + _flag(result.allowed)
        + ', "breakdown": ['
        + ", ".join([_item_json(item) for item in result.breakdown])
        + '], "payments": '
        + payments
    )


def error_dict(rules: str, message: str) -> dict:
    return {"ok": False, "rules": rules, "error": message}


def error_json(rules: str, message: str) -> str:
    """`json.dumps(error_dict(rules, message), ensure_ascii=False)`, byte for byte."""
    return '{"ok": false, "rules": ' + _quote(rules) + ', "error": ' + _quote(message) + "}"
