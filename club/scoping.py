"""Every query of a club's rows is about one club, or it fails.

An installation hosts many clubs. Rather than trusting each view to remember
`.filter(club=...)`, the models that hold a club's data get a manager that adds the filter
itself, for the club of the active *scope* (django-scopes, as pretix and pretalx use it):

- a request to a club's address runs inside `scope(club=that club)`
  (club/middleware.py), so `Member.objects.all()` there is that club's members and no other;
- a query with no club in scope raises `ScopeError` when it runs, instead of quietly
  reading every club's rows (a site-level page, a command or a thread that forgot);
- the few places that really mean "all clubs" (the operators' admin, whole-installation
  commands, migrations, the test suite's own set-up) say so with `scopes_disabled()`.

Related managers (`session.matches`) and prefetches go through the same managers, so they
are scoped too; following a foreign key (`hand.match`) uses the plain base manager, as it
reads one row already reached from a scoped one.
"""

from __future__ import annotations

from django.db import models
from django_scopes import ScopeError, get_scope, scope, scopes_disabled
from django_scopes.manager import DisabledQuerySet

__all__ = ["ClubScopedManager", "ScopeError", "club_scoped", "scope", "scopes_disabled"]


class ClubScopedManager(models.Manager):
    """Base of the managers `club_scoped` makes; `club_path` is how the model reaches its
    club ("club", or "match__club" for a model without its own club key)."""

    club_path = "club"
    unscoped_queryset_class: type[models.QuerySet] = DisabledQuerySet

    def get_queryset(self):
        current = get_scope()
        if not current.get("_enabled", True):
            return super().get_queryset()
        club = current.get("club")
        if club is None:
            # Lazy failure, as django-scopes does it: a form class may build its choices
            # at import time (no scope yet) and be given scoped ones before use; running
            # this queryset is what raises.
            return self.unscoped_queryset_class(self.model, using=self._db, missing_scopes=["club"])
        return super().get_queryset().filter(**{self.club_path: club})


def club_scoped(queryset_class: type[models.QuerySet] = models.QuerySet, path: str = "club"):
    """A manager for `queryset_class` whose every query is filtered to the club in scope."""
    # Unscoped, the model's own queryset methods (`Match.objects.in_play()`) must fail as
    # plainly as `.filter()` does, so the refusing queryset is also a `queryset_class`.
    # `.all()` is allowed: copying a form's field copies its queryset that way.
    # django-scopes' refusing queryset lets `exists()`, `contains()` and `explain()` run
    # over every club: they are refused here too.
    unscoped = type(
        f"Unscoped{queryset_class.__name__}",
        (DisabledQuerySet, queryset_class),
        {
            "all": lambda self: self._clone(),
            "exists": DisabledQuerySet.error,
            "contains": DisabledQuerySet.error,
            "explain": DisabledQuerySet.error,
        },
    )
    manager_base = models.Manager.from_queryset(queryset_class)
    return type(
        f"ClubScoped{queryset_class.__name__}Manager",
        (ClubScopedManager, manager_base),
        {"club_path": path, "unscoped_queryset_class": unscoped},
    )()


class ClubRowQuerySet(models.QuerySet):
    """For rows that carry their club's key as well as a parent's (a hand has its match's
    club): bulk inserts fill the key in from the parent, as `ClubRow.save()` does."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for obj in objs:
            obj.fill_club()
        return super().bulk_create(objs, *args, **kwargs)


class ClubRow(models.Model):
    """A row with its own copy of its parent's club key, for fast per-club queries (the
    standings read a club's results without joining through sessions). `club_parent` names
    the parent field; the copy is filled in on save and never differs from the parent's
    (tests/test_club_scoping.py checks every row)."""

    club_parent: str

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        self.fill_club()
        super().save(*args, **kwargs)

    def fill_club(self) -> None:
        if self.club_id is None:
            parent = getattr(self, self.club_parent)
            self.club_id = parent.club_id
