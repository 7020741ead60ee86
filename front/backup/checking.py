"""Checking a backup before anything is written: every row's fields, its references and
whether the installation can take it (`BackupCheck`)."""

from __future__ import annotations

import array
import bisect
import collections

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models

from club.scoping import ClubRow
from front.backup.format import (
    FILLED_FROM,
    MODELS,
    NAMED_BY_NATURAL_KEY,
    RULE_FIELDS,
    _dumps,
    _model,
)
from front.backup.reading import _refusal, backup_rows
from scoring.engine import EngineError
from scoring.rules import build_ruleset, rule_set_choices


def _noun(model) -> str:
    return str(model._meta.verbose_name)


def _has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    return False


def _plain(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


class _Ids:
    """The ids read so far of one model, each with its place among them (the n-th row of
    the model has place n): a sorted array while they come in ascending order, as the
    export writes them (8 bytes an id), a dict if they stop doing so."""

    def __init__(self):
        self.ascending: array.array | None = array.array("q")
        self.unordered: dict[int, int] | None = None

    def __len__(self) -> int:
        return len(self.ascending) if self.unordered is None else len(self.unordered)

    def __contains__(self, pk) -> bool:
        return self.place(pk) is not None

    def place(self, pk) -> int | None:
        if self.unordered is not None:
            return self.unordered.get(pk)
        at = bisect.bisect_left(self.ascending, pk)
        return at if at < len(self.ascending) and self.ascending[at] == pk else None

    def add(self, pk: int) -> None:
        if self.unordered is not None:
            self.unordered[pk] = len(self.unordered)
        elif not self.ascending or pk > self.ascending[-1]:
            self.ascending.append(pk)
        else:
            self.unordered = {old: place for place, old in enumerate(self.ascending)}
            self.unordered[pk] = len(self.unordered)
            self.ascending = None


class BackupCheck:
    """The validation pass: what the rows read so far hold, to check each row's shape and
    that what it refers to came before it. Keeps ids only (and the few usernames and
    group names), never rows.

    `skip_unknown` (bringing one evening back, front/evening_import.py): rows of a model
    this app does not restore, and fields a model here does not have, are counted in
    `skipped` and `skipped_fields` rather than refused; a reference to such a row, where
    it may be empty, is let through (it is emptied). A file from an installation that
    keeps more than this one (a hall laptop's table keys, say) still brings its evening."""

    def __init__(self, skip_unknown: bool = False):
        self.skip_unknown = skip_unknown
        self.skipped: collections.Counter[str] = collections.Counter()
        self.skipped_fields: collections.Counter[tuple[str, str]] = collections.Counter()
        self.ids: dict[str, _Ids] = {label: _Ids() for label in MODELS}
        self.usernames: dict[str, int] = {}
        self.passwords: dict[str, str] = {}
        self.groups: set[str] = set()
        self._choices: dict[models.Field, list] = {}  # each field's choices, read once
        self.club: dict = {}
        self.counts = dict.fromkeys(MODELS, 0)
        self.permissions = {
            permission.natural_key()
            for permission in _model("auth.permission").objects.select_related("content_type")
        }

    def row(self, number: int, row) -> None:
        if not isinstance(row, dict):
            raise _refusal(f"Line {number} of this backup is not a row (it should be {{…}}).")
        label = row.get("model")
        if label not in MODELS and self.skip_unknown and isinstance(label, str) and label:
            self.skipped[label] += 1
            return
        if label not in MODELS:
            raise _refusal(
                f"Line {number} of this backup holds a row of “{label}”, which this app does "
                "not restore."
            )
        model = _model(label)
        where = f"Line {number} of this backup ({_noun(model)}"
        fields = row.get("fields")
        if not isinstance(fields, dict):
            raise _refusal(f"{where}) has no fields.")
        if label in NAMED_BY_NATURAL_KEY:
            name = fields.get("name")
            if not isinstance(name, str) or not name or _has_nul(name):
                raise _refusal(f"{where}) has no name.")
            if name in self.groups:
                raise _refusal(f"{where} “{name}”) repeats a group named before it.")
            where += f" “{name}”"
        else:
            pk = row.get("pk")
            if type(pk) is not int or pk < 1:
                raise _refusal(f"{where}) has no id: its “pk” should be a whole number.")
            self._validate(model._meta.pk, pk, f"{where} {pk}): its id")
            if pk in self.ids[label]:
                raise _refusal(
                    f"{where} {pk}) repeats the id of an earlier {_noun(model)}: two rows "
                    "cannot have the same id."
                )
            where += f" {pk}"
        where += ")"
        for name, value in fields.items():
            self._field(model, name, value, where)
        self._rules(label, fields, where)
        for field in model._meta.local_concrete_fields:
            missing = field.name not in fields and not field.primary_key
            # Version 1 rows have no club key of their own: the file's one club fills it.
            filled = field.name == "club" and issubclass(model, ClubRow)
            # A field newer than the file, filled from another of the row's (made_for_here).
            filled = filled or (label, field.name) in FILLED_FROM
            if missing and not (
                filled or field.null or field.has_default() or field.empty_strings_allowed
            ):
                raise _refusal(f"{where} has no “{field.name}”.")
        if label == "club.club":
            if self.club:
                raise _refusal(
                    f"{where} is a second club: a backup holds one club, so this file was "
                    "not written by export_club."
                )
            self.club = dict(fields)
        if label in NAMED_BY_NATURAL_KEY:
            self.groups.add(fields["name"])
        else:
            self.ids[label].add(row["pk"])
        if label == "auth.user":
            username = fields.get("username")
            if username in self.usernames:
                raise _refusal(f"{where} repeats the username “{username}” of an earlier login.")
            self.usernames[username] = row["pk"]
            self.passwords[username] = fields.get("password", "")
        self.counts[label] += 1

    def _field(self, model, name: str, value, where: str) -> None:
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            field = None
        if field is None and self.skip_unknown:
            self.skipped_fields[model._meta.label_lower, name] += 1
            return
        if field is None or not (field.concrete or field.many_to_many) or field.primary_key:
            raise _refusal(f"{where} has a field “{name}” that a {_noun(model)} does not have.")
        if field.many_to_many:
            if not isinstance(value, list):
                raise _refusal(f"{where}: its “{name}” should be a list.")
            for item in value:
                self._reference(field, item, f"{where}: its “{name}”")
            return
        if value is None:
            if not field.null:
                raise _refusal(f"{where}: its “{name}” cannot be empty.")
            return
        if field.is_relation:
            self._reference(field, value, f"{where}: its “{name}”")
            return
        if _has_nul(value):
            raise _refusal(
                f"{where}: its “{name}” holds a NUL character, which no club's data has."
            )
        if isinstance(field, models.CharField | models.TextField) and not isinstance(value, str):
            raise _refusal(f"{where}: its “{name}” should be text, not {_dumps(value)[:40]}.")
        if isinstance(field, models.JSONField):
            self._shape(field, value, f"{where}: its “{name}”")
        self._validate(field, value, f"{where}: its “{name}”", convert=True)
        if field.choices:
            chosen = field.to_python(value)
            allowed = self._choices.get(field)
            if allowed is None:
                allowed = self._choices[field] = [key for key, _ in field.flatchoices]
            if chosen not in allowed and not (field.blank and chosen in field.empty_values):
                raise _refusal(
                    f"{where}: its “{name}” is {_dumps(value)[:40]}, which is not one of "
                    f"{', '.join(_dumps(key) for key in allowed)}."
                )

    @staticmethod
    def _shape(field, value, what: str) -> None:
        """A JSON field holds an object or a list as its default does: the code that reads
        it (the rules, the flow, the scoresheet) expects that shape."""
        default = field.get_default()
        for shape, noun in ((dict, "an object {…}"), (list, "a list […]")):
            if isinstance(default, shape) and not isinstance(value, shape):
                raise _refusal(f"{what} should be {noun}, not {_dumps(value)[:40]}.")

    def _rules(self, label: str, fields: dict, where: str) -> None:
        """A club's or a match's rule set is one this app has, with options and values it
        takes (the file's other checks see only a name and two objects there; a name this
        app does not know would stop the import, or the club's pages, later)."""
        names = RULE_FIELDS.get(label)
        if names is None:
            return
        name_field, options_field, values_field = names
        name = fields.get(name_field, _model(label)._meta.get_field(name_field).get_default())
        known = [key for key, _ in rule_set_choices()]
        if name not in known:
            raise _refusal(
                f"{where}: its “{name_field}” is {_dumps(name)[:40]}, a rule set this app "
                f"does not have (it has {', '.join(known)})."
            )
        try:
            build_ruleset(name, fields.get(options_field) or None, fields.get(values_field) or None)
        except (EngineError, TypeError, ValueError) as error:
            raise _refusal(f"{where}: its rule settings are wrong: {error}") from None

    def _validate(self, field, value, what: str, convert: bool = False) -> None:
        try:
            if convert:
                value = field.to_python(value)
            if isinstance(field, models.JSONField):
                return
            field.run_validators(value)
        except ValidationError as error:
            raise _refusal(f"{what} is wrong: {_plain(error)}") from None
        except (TypeError, ValueError):
            raise _refusal(f"{what} is wrong: {_dumps(value)[:40]} is not what it holds.") from None

    def _reference(self, field, value, what: str) -> None:
        target = field.remote_field.model._meta.label_lower
        if target == "auth.user" and isinstance(value, list):
            if len(value) == 1 and value[0] in self.usernames:
                return
            raise _refusal(
                f"{what} names the login {_dumps(value)[:60]}, which is not among the logins "
                "before it."
            )
        if target == "auth.group" and isinstance(value, list):
            if len(value) == 1 and value[0] in self.groups:
                return
            raise _refusal(
                f"{what} names the group {_dumps(value)[:60]}, which is not in the backup."
            )
        if target == "auth.permission":
            if isinstance(value, list) and tuple(value) in self.permissions:
                return
            raise _refusal(
                f"{what} names the permission {_dumps(value)[:80]}, which this app does not have."
            )
        if target not in self.ids and self.skip_unknown and field.null:
            return  # a row this app does not restore: the reference is emptied
        if type(value) is not int:
            raise _refusal(
                f"{what} should be the id of a {target.split('.')[1]}, not {_dumps(value)[:40]}."
            )
        if target not in self.ids or value not in self.ids[target]:
            noun = _noun(field.remote_field.model)
            raise _refusal(
                f"{what} refers to {noun} {value}, which is not among the rows before it."
            )

    def finish(self) -> None:
        """After the last row: refuses a backup that held no club."""
        if not self.counts["club.club"]:
            raise _refusal("This backup has no club in it, so there is nothing to restore.")


def _check(file) -> BackupCheck:
    check = BackupCheck()
    for number, row in backup_rows(file):
        check.row(number, row)
    check.finish()
    return check
