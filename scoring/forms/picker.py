"""The tile picker: the hand being built as hidden steps, how it was won, and the tap just
made; subclasses say who won and the winds (from the match's state at a table in
scoring/forms/table.py, chosen by hand for practice in `PracticeForm`). `Preview` is what the
picker shows under the hand."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.flow import WIND_WORDS
from scoring.engine.result import Result
from scoring.engine.tiles import WINDS
from scoring.models import Hand
from scoring.picker import FACES, ROWS, Draft, Face, PickerError
from scoring.picker_words import item_in_words

WIND_CHOICES = list(WIND_WORDS.items())
INVALID_CHOICE = "That answer is not one of those offered: choose one of them."
UNIT_WORDS = {"points": ("point", "points"), "faan": ("faan", "faan"), "fan": ("fan", "fan")}


def _amount(value: int, unit: str) -> str:
    one, many = UNIT_WORDS.get(unit, (unit, unit))
    return f"{value} {one if value == 1 else many}"


def item_words(item: dict) -> str:
    """One breakdown line's value in words: "20 points", "1 doubling", "3 faan"."""
    words = []
    for key in ("points", "faan", "fan"):
        if item.get(key) is not None:
            words.append(_amount(item[key], key))
    if item.get("doublings") is not None:
        n = item["doublings"]
        words.append(f"{n} doubling{'' if n == 1 else 's'}")
    return ", ".join(words)


def _tile_button(face: Face, used_up: bool) -> str:
    number = format_html('<span class="face-number">{}</span>', face.number) if face.number else ""
    return format_html(
        '<button type="submit" name="tap" value="{code}" id="tap-{code}" '
        'class="tile-button tile-{kind}"{disabled}><span class="face-glyph" '
        'aria-hidden="true">{number}{glyph}</span><span class="face-label">{caption}{gone}'
        "</span></button>",
        code=face.code,
        kind=face.kind,
        disabled=mark_safe(" disabled") if used_up else "",
        number=number,
        glyph=face.glyph,
        caption=face.caption,
        gone=mark_safe(' <span class="used-up">(all used)</span>') if used_up else "",
    )


# Every tile's button, free and used up, built once: the rows are redrawn on every tap.
TILE_BUTTONS = {
    code: {used: _tile_button(face, used) for used in (False, True)} for code, face in FACES.items()
}


# Every tile small (its glyph and number: the words are beside it), for the hand so far.
MINI_TILES = {
    code: format_html(
        '<span class="mini-tile tile-{}"><span class="face-glyph">{}{}</span></span>',
        face.kind,
        format_html('<span class="face-number">{}</span>', face.number) if face.number else "",
        face.glyph,
    )
    for code, face in FACES.items()
}


def mini_tiles(faces: list[Face]) -> str:
    return mark_safe("".join(MINI_TILES[face.code] for face in faces))


@dataclass
class Preview:
    """What the picker shows under the hand: what is still missing or wrong, or the score."""

    empty: bool = False
    to_choose: list[str] = field(default_factory=list)
    needs: int = 0  # tiles still to tap before the hand can be a winning one
    status: str = ""  # how far the hand is, when nothing is wrong yet (needs more tiles)
    error: str = ""  # what is wrong, in a player's words
    reason: str = ""  # the engine's own message behind `error`, for the command line's users
    complete: bool = False  # the tiles make a winning hand (the score waits for choices)
    result: dict | None = None
    lines: list[tuple[str, str]] = field(default_factory=list)
    total: str = ""
    payments: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """How far the hand is, in a few words, for the summary kept in view on a phone."""
        if self.empty:
            return "no tiles yet"
        if self.needs:
            return f"needs {self.needs} more tile{'s' if self.needs > 1 else ''}"
        if self.error:
            return "cannot be scored yet: see The score"
        if self.result:
            below = "" if self.result["allowed"] else " (below the minimum)"
            return f"{self.total}{below}"
        if self.to_choose:
            return f"still to choose {', '.join(self.to_choose)}"
        return "a complete hand"


class PickerForm(forms.Form):
    steps = forms.CharField(required=False, max_length=400, widget=forms.HiddenInput)
    winning = forms.CharField(required=False, max_length=4, widget=forms.HiddenInput)
    won_by = forms.ChoiceField(
        label="How did the winning tile come?",
        choices=Hand.WonBy.choices,
        widget=forms.RadioSelect,
        required=False,
    )
    last_tile = forms.BooleanField(
        label="With the last tile of the wall, or the discard after it", required=False
    )
    first_turn = forms.BooleanField(
        label="On the first turn (heavenly or earthly hand)", required=False
    )

    discarder_label = "Who discarded the winning tile (or whose kong was robbed)?"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for form_field in self.fields.values():
            if isinstance(form_field, forms.ChoiceField):
                form_field.error_messages["invalid_choice"] = INVALID_CHOICE
        self.draft = Draft()
        self.notice = ""
        self.chosen_winning = ""

    # -- the hand being built -------------------------------------------------------------

    def build(self) -> Draft:
        """Replay the posted steps, then the tap just made (add a tile or declare a set,
        undo, start again, mark the winning tile). A refused tap leaves the hand as it was
        and says why in `notice`."""
        self.is_valid()
        data = getattr(self, "cleaned_data", {})
        steps = data.get("steps", "") if "steps" not in self.errors else ""
        self.draft, self.notice = Draft.replay(steps)
        self.chosen_winning = (data.get("winning") or "").lower()
        if not self.is_bound:
            return self.draft
        post = self.data
        if "undo" in post:
            self.draft, _ = Draft.replay(" ".join(self.draft.steps[:-1]))
        elif "clear" in post:
            self.draft, self.chosen_winning = Draft(), ""
        elif "win" in post:
            self.chosen_winning = str(post["win"]).lower()[:4]
        elif "tap" in post:
            try:
                self.draft.take(str(post["tap"]))
            except PickerError as error:
                self.notice = str(error)
        return self.draft

    @property
    def winning_tile(self) -> str | None:
        return self.draft.winning_tile(self.chosen_winning)

    def hand_tiles(self) -> str:
        """The concealed tiles, small, sorted (HTML)."""
        return mini_tiles(self.draft.hand_faces())

    def summary_tiles(self) -> list[str]:
        """Every tile of the hand, small, in groups (HTML each): the concealed tiles, each
        declared set, the flowers and seasons."""
        return [mini_tiles(group) for group in self.draft.summary_groups()]

    def rows(self) -> list[tuple[str, str]]:
        """Each row's title and its tile buttons' HTML (a used-up tile greyed out)."""
        gone = self.draft.used_up()
        return [
            (title, mark_safe("".join(TILE_BUTTONS[code][code in gone] for code in codes)))
            for title, codes in ROWS
        ]

    # -- how it was won -------------------------------------------------------------------

    def choice(self, name: str):
        return self.cleaned_data.get(name) if hasattr(self, "cleaned_data") else None

    def missing(self) -> list[str]:
        """What the player still has to choose before the hand can be scored."""
        missing = []
        won_by = self.choice("won_by")
        if not won_by:
            missing.append("how the winning tile came")
        elif won_by in Hand.DISCARDER_PAYS and self.choice("discarder") in (None, ""):
            missing.append("who discarded it" if won_by == "discard" else "whose kong was robbed")
        return missing

    def tile_problem(self) -> str:
        """What is wrong with the tiles that the picker sees itself (the count, a robbed
        kong's tile held twice), in a player's words; "" when nothing is."""
        _, problem = self.draft.count_problem()
        if not problem and self.choice("won_by") == "robbing_kong":
            problem = self.draft.robbed_kong_problem(self.winning_tile)
        return problem

    def hand_fields(self) -> dict:
        """The contract's fields besides the tiles (subclasses add winds and discarder)."""
        fields = {"won_by": self.choice("won_by")}
        if self.choice("last_tile"):
            fields["last_tile"] = True
        if self.choice("first_turn"):
            fields["first_turn"] = True
        return fields


class PracticeForm(PickerForm):
    """Practice outside a match: the winds are chosen by hand."""

    seat_wind = forms.ChoiceField(
        label="Your seat wind", choices=WIND_CHOICES, widget=forms.RadioSelect, initial="E"
    )
    prevailing_wind = forms.ChoiceField(
        label="The round's (prevailing) wind",
        choices=WIND_CHOICES,
        widget=forms.RadioSelect,
        initial="E",
    )
    dealer = forms.ChoiceField(
        label="Who dealt (East unless your club moves the deal without the winds)",
        choices=WIND_CHOICES,
        widget=forms.RadioSelect,
        initial="E",
    )
    discarder = forms.ChoiceField(
        label=PickerForm.discarder_label,
        choices=WIND_CHOICES,
        widget=forms.RadioSelect,
        required=False,
    )

    def clean(self):
        cleaned = super().clean()
        for name in ("seat_wind", "prevailing_wind", "dealer"):
            if cleaned.get(name) not in WINDS:
                cleaned[name] = "E"
        if cleaned.get("won_by") not in Hand.DISCARDER_PAYS:
            cleaned["discarder"] = None
        elif cleaned.get("discarder") and cleaned["discarder"] == cleaned["seat_wind"]:
            self.add_error(
                "discarder",
                "The winner cannot also be the one who discarded: choose another player's wind.",
            )
        return cleaned

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("seat_wind", "prevailing_wind", "dealer"):
            self.fields[name].required = False

    def hand_fields(self) -> dict:
        fields = super().hand_fields()
        fields["seat_wind"] = self.choice("seat_wind") or "E"
        fields["prevailing_wind"] = self.choice("prevailing_wind") or "E"
        fields["dealer"] = self.choice("dealer") or "E"
        if self.choice("discarder"):
            fields["discarder"] = self.choice("discarder")
        return fields


def result_preview(preview: Preview, result: Result, unit: str, payments: list[str]) -> Preview:
    """Fill `preview` with the engine's itemised score and the payments in words."""
    data = result.to_dict()
    preview.complete = True
    preview.result = data
    preview.lines = [(item_in_words(item["name"]), item_words(item)) for item in data["breakdown"]]
    preview.total = _amount(data["total"], unit)
    preview.payments = payments
    return preview
