"""Indexes that lead with the club (issue 28).

A row that carries its club's key and its session's or match's is looked up by both
(`club_id = ... AND session_id IN (...)`: the club's scope and the page's keys). With the
club's key indexed alone, PostgreSQL beside hundreds of clubs chose that index and read all
of one club's rows to find a few sessions' (the latest evening: 32 -> 204 rows, the
attendance register, a table's hands; `make history-bench`). An index on (club, parent)
answers both conditions at once, and answers the club alone as well, so the lone index is
dropped wherever an index leads with the club: it can only be the wrong choice.
"""

from __future__ import annotations

from django.apps import apps
from django.db import models

PARENTS = ("session", "match")


def _leading(model) -> list[tuple[str, ...]]:
    """The field names of each index and unique constraint of `model`, in order; not of
    a partial one (`condition`), which answers only the rows it covers."""
    found = [tuple(index.fields) for index in model._meta.indexes if index.condition is None]
    found += [
        tuple(constraint.fields)
        for constraint in model._meta.constraints
        if isinstance(constraint, models.UniqueConstraint)
        and constraint.fields
        and constraint.condition is None
    ]
    return found


def _club_keyed_models():
    for model in apps.get_models():
        if model._meta.app_label not in {"club", "games", "scoring"}:
            continue
        if model.__name__.startswith("Historical"):  # django-simple-history's copies
            continue
        try:
            club = model._meta.get_field("club")
        except Exception:  # noqa: BLE001,S112 - a model without a club key
            continue
        if club.many_to_one:
            yield model, club


def test_a_session_s_or_match_s_rows_are_indexed_by_club_then_parent():
    missing = []
    for model, _ in _club_keyed_models():
        names = {field.name for field in model._meta.concrete_fields}
        # The nearest parent the rows are looked up by: a result has its session's and
        # its match's keys, and the pages read a session's results.
        for parent in [p for p in PARENTS if p in names][:1]:
            if not any(fields[:2] == ("club", parent) for fields in _leading(model)):
                missing.append(f"{model._meta.label}: no index on (club, {parent})")
    assert not missing, "\n".join(missing)


def test_the_club_s_key_is_not_indexed_alone_where_an_index_leads_with_it():
    doubled = [
        model._meta.label
        for model, club in _club_keyed_models()
        if club.db_index and any(fields[0] == "club" for fields in _leading(model))
    ]
    assert not doubled, doubled
