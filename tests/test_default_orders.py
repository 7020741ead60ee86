"""No model's default order sorts through a chain of joins (issue 28).

A hand's default order was its match ("match"), and a match's is its session's date: every
read of hands that did not give its own order joined the matches and their sessions to sort
them, and a few matches' hands were sorted by walking every session the club held. The rows
under a match (hands, kong chips, sent writes, chairs) sort by the match's key instead. An
order may follow one relation to a field that means something there (a match by its
session, a seat by its table's number); it may not follow a relation whose own default
order follows another.
"""

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist

OURS = ("club", "games", "scoring", "front")


def _relations_sorted_through(model) -> list:
    """The related models `model`'s default order sorts by their own default order (an
    order naming a relation itself, "match" or "-match", not "match_id" or "match__x")."""
    related = []
    for item in model._meta.ordering:
        if not isinstance(item, str):
            continue
        name = item.lstrip("-")
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        if field.is_relation and field.name == name and field.related_model is not None:
            related.append(field.related_model)
    return related


def _named_relations(model) -> list:
    return [
        model._meta.get_field(item.lstrip("-").split("__")[0])
        for item in model._meta.ordering
        if isinstance(item, str) and "__" in item
    ]


def test_no_default_order_sorts_through_two_joins():
    chained = []
    for model in apps.get_models():
        if model._meta.app_label not in OURS:
            continue
        for target in _relations_sorted_through(model):
            if _relations_sorted_through(target) or _named_relations(target):
                chained.append(
                    f"{model._meta.label} by {target._meta.label} {target._meta.ordering}"
                )
    assert not chained, chained
