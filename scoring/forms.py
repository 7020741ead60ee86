"""Scoring's forms: the tile picker (the hand being built as hidden steps, how it was won,
and the tap just made; subclasses say who won and the winds: from the match's state at a
table in games/forms.py, chosen by hand for practice in PracticeForm), correcting a hand,
and typing in a paper score sheet."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from club.numbers import WHOLE_NUMBER, WholeNumberField
from games.flow import WIND_WORDS
from scoring.corrections import REASON_MAX, Draw, Void
from scoring.engine.result import Result
from scoring.engine.rulesets.base import MAX_TOTAL
from scoring.engine.tiles import WINDS
from scoring.hand_entry import check_form_win, check_win
from scoring.models import Hand
from scoring.picker import FACES, ROWS, Draft, Face, PickerError
from scoring.picker_words import item_in_words
from scoring.recording import Win

WIND_CHOICES = list(WIND_WORDS.items())
TOTAL_MESSAGE = f"The total must be a whole number from 0 to {MAX_TOTAL:,}."
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


# --- Corrections and paper sheets ---------------------------------------------------


class LiabilityForm(forms.Form):
    """Fan's 9-piece penalty: the player whose discard let the winner finish a pure hand
    pays for everyone. Offered only where the match's rules have it; "Nobody" by default."""

    liable = forms.TypedChoiceField(
        label="9-piece penalty: does one player pay for everyone?",
        help_text="Only when a discard gave the winner a pure hand. Otherwise leave “Nobody”.",
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )

    def offer_liability(self, liability: bool, players) -> None:
        if liability:
            self.fields["liable"].choices = [("", "Nobody"), *players]
            self.initial.setdefault("liable", "")
        else:
            del self.fields["liable"]

    def liable_chair(self) -> int | None:
        """The chair that pays for everyone, or None."""
        data = getattr(self, "cleaned_data", {})
        return data.get("liable") if "liable" in self.fields else None


class CorrectionForm(LiabilityForm):
    """What hand `number` should say, and why. The players offered are those who played
    that hand (East first)."""

    WHAT = [
        ("win", "Someone went out (a win)"),
        ("draw", "Nobody went out (a draw)"),
        ("void", "This hand should not be in the record (void it)"),
    ]

    hand_id = forms.IntegerField(widget=forms.HiddenInput)
    what = forms.ChoiceField(
        label="What happened in this hand?",
        choices=WHAT,
        widget=forms.RadioSelect,
        error_messages={"required": "Choose whether it was a win, a draw, or to void it."},
    )
    winner = forms.TypedChoiceField(
        label="Who won?", coerce=int, required=False, empty_value=None, widget=forms.RadioSelect
    )
    won_by = forms.ChoiceField(
        label="How?", choices=Hand.WonBy.choices, required=False, widget=forms.RadioSelect
    )
    discarder = forms.TypedChoiceField(
        label="Who discarded the winning tile (or whose kong was robbed)?",
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    total = WholeNumberField(
        required=False,
        min_value=0,
        max_value=MAX_TOTAL,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
        error_messages={
            "invalid": "Type the total as a whole number, digits only.",
            "min_value": TOTAL_MESSAGE,
            "max_value": TOTAL_MESSAGE,
        },
    )
    reason = forms.CharField(
        label="Why is it being corrected?",
        max_length=REASON_MAX,
        error_messages={"required": "Say why the hand is being corrected."},
    )

    def __init__(
        self, *args, players: list[tuple[int, str]], unit: str, liability: bool = False, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = players
        self.fields["discarder"].choices = players
        self.offer_liability(liability, players)
        self.fields["total"].label = f"Total ({unit})"

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("what") != "win":
            return cleaned
        cleaned["discarder"] = check_form_win(
            self,
            cleaned.get("winner"),
            cleaned.get("won_by"),
            cleaned.get("discarder"),
            self.liable_chair(),
        )
        if cleaned.get("total") is None and "total" not in self.errors:
            self.add_error("total", "Type the hand's total.")
        return cleaned

    def change(self):
        data = self.cleaned_data
        if data["what"] == "void":
            return Void()
        if data["what"] == "draw":
            return Draw()
        return Win(
            data["winner"], data["won_by"], data["discarder"], data["total"], self.liable_chair()
        )

    @staticmethod
    def initial_for(hand: Hand) -> dict:
        return {
            "hand_id": hand.pk,
            "what": "draw" if hand.is_draw else "win",
            "winner": hand.winner,
            "won_by": hand.won_by,
            "discarder": hand.discarder,
            "liable": "" if hand.liable is None else hand.liable,
            "total": hand.total,
        }


# --- a paper score sheet ----------------------------------------------------------------

# Plain strings: the flow checks the type exactly.
HOW_LETTERS = {
    "w": Hand.WonBy.WALL.value,
    "r": Hand.WonBy.REPLACEMENT.value,
    "d": Hand.WonBy.DISCARD.value,
    "k": Hand.WonBy.ROBBING_KONG.value,
}
DRAW_LETTERS = {"x", "-", "draw"}


def who(text: str, names: list[str], role: str) -> int:
    """A player typed by chair number (1 upwards) or by the start of their name."""
    text = text.strip()
    if WHOLE_NUMBER.fullmatch(text):
        chair = int(text) - 1
        if 0 <= chair < len(names):
            return chair
        raise forms.ValidationError(
            f"There is no chair {text} for the {role}: type 1 to {len(names)}, or a name."
        )
    matches = [i for i, name in enumerate(names) if name.lower().startswith(text.lower())]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise forms.ValidationError(
            f"Nobody at this table is called “{text}” (the {role}): type a chair number "
            "or the start of a name."
        )
    both = " or ".join(names[i] for i in matches)
    raise forms.ValidationError(
        f"“{text}” could be {both}: type more of the name, or the chair number."
    )


class PaperRowForm(forms.Form):
    """One row of a paper sheet: who won, how (one letter), who discarded, the total; or
    a draw (x in the "how" column)."""

    winner = forms.CharField(required=False, max_length=40)
    how = forms.CharField(required=False, max_length=10)
    discarder = forms.CharField(required=False, max_length=40)
    total = forms.CharField(required=False, max_length=10)

    def __init__(self, *args, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.names = names

    @property
    def is_blank(self) -> bool:
        data = getattr(self, "cleaned_data", {})
        return not any((data.get(name) or "").strip() for name in self.fields)

    def clean(self):
        cleaned = super().clean()
        if self.is_blank:
            cleaned["row"] = None
            return cleaned
        how = (cleaned.get("how") or "").strip().lower()
        if how in DRAW_LETTERS:
            if (cleaned.get("winner") or "").strip() or (cleaned.get("total") or "").strip():
                raise forms.ValidationError(
                    "A draw (x) has no winner and no total: clear them, or choose how they won."
                )
            cleaned["row"] = Draw()
            return cleaned
        if how not in HOW_LETTERS:
            raise forms.ValidationError(
                f"How they won must be w (wall), r (replacement tile), d (discard), "
                f"k (robbing a kong) or x (a draw), not “{how or 'nothing'}”."
            )
        if not (cleaned.get("winner") or "").strip():
            raise forms.ValidationError("Type who won (a chair number or a name).")
        winner = who(cleaned["winner"], self.names, "winner")
        won_by = HOW_LETTERS[how]
        discarder = None
        typed = (cleaned.get("discarder") or "").strip()
        if won_by in Hand.DISCARDER_PAYS:
            discarder = who(typed, self.names, "discarder") if typed else None
        elif typed:
            raise forms.ValidationError(
                "Only a win on a discard (d) or robbing a kong (k) has a discarder: clear it."
            )
        if refusals := check_win(winner, won_by, discarder):
            raise forms.ValidationError(refusals[0].message)
        total = (cleaned.get("total") or "").strip()
        if not WHOLE_NUMBER.fullmatch(total):
            raise forms.ValidationError(
                f"Type the total as a whole number, not “{total}”."
                if total
                else "Type the hand's total."
            )
        if int(total) > MAX_TOTAL:
            raise forms.ValidationError(TOTAL_MESSAGE)
        cleaned["row"] = Win(winner, won_by, discarder, int(total))
        return cleaned


class BasePaperSheet(forms.BaseFormSet):
    def rows(self) -> list:
        """The typed rows in order, blank rows at the end left out. Call after is_valid()."""
        rows = [form.cleaned_data.get("row") for form in self.forms]
        while rows and rows[-1] is None:
            rows.pop()
        return rows

    def clean(self):
        if any(self.errors):
            return
        rows = [form.cleaned_data.get("row") for form in self.forms]
        while rows and rows[-1] is None:
            rows.pop()
        for number, row in enumerate(rows, start=1):
            if row is None:
                self.forms[number - 1].add_error(
                    None, "This row is empty but later rows are not: fill it in or move them up."
                )


PaperSheet = forms.formset_factory(
    PaperRowForm, formset=BasePaperSheet, extra=0, max_num=200, absolute_max=200
)
