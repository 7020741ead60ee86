"""Reading a hand posted at the table before the write that records it.

A posted form is read against every chair of the match (one query, no replay of its flow):
the write then checks the hand against the state it works out under the match's lock, and
only a refusal builds the table's board to show the form again with its real choices."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import table_rules
from scoring.models import Hand

DISCARDER_PAYS = Hand.DISCARDER_PAYS


@dataclass(frozen=True)
class EntrySeat:
    chair: int
    name: str
    wind: str = ""
    wind_word: str = ""
    dealer: bool = False
    sits_out: bool = False


@dataclass(frozen=True)
class Entry:
    """What the table's forms read a posted hand with (the board's fields they use)."""

    seats: list[EntrySeat]
    liability: bool
    unit: str
    hand: int | None = None  # a bound form carries its own

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def every_chair(match) -> Entry:
    """The match's chairs, each a possible choice, and its rules' liability and unit."""
    ruleset = table_rules.match_ruleset(match)
    return Entry(
        seats=[EntrySeat(chair.number, chair.member.table_name) for chair in match.chair_list()],
        liability=table_rules.has_liability(ruleset),
        unit=table_rules.unit(ruleset),
    )


# --- who won and who pays: one check for every way a win is entered ----------------------

NO_WINNER = "Choose who went out."
NO_HOW = "Choose how the winning tile came."
NO_DISCARDER = {
    "discard": "Choose who discarded the winning tile.",
    "robbing_kong": "Choose whose kong was robbed.",
}
WINNER_PAYS = "The winner cannot also be the one who pays for it."
WINNER_LIABLE = "The winner cannot pay for everyone: choose another player."
SITS_OUT = {
    "winner": "That player sits out this hand, so cannot have won it.",
    "discarder": "That player sits out this hand, so cannot have discarded.",
    "liable": "That player sits out this hand, so cannot pay for everyone.",
}


@dataclass(frozen=True)
class Refusal:
    """What is wrong with who won or who pays: the field it is about, in plain words."""

    field: str
    message: str


def who_pays(won_by: str | None, discarder: int | None) -> int | None:
    """The discarder that counts: nobody for a self-drawn win (a player tapped before
    changing "how" is dropped)."""
    return discarder if won_by in DISCARDER_PAYS else None


def check_win(
    winner: int | None,
    won_by: str | None,
    discarder: int | None = None,
    liable: int | None = None,
    *,
    sitting_out: int | None = None,
    complete: bool = True,
) -> list[Refusal]:
    """Every problem with who won (`winner`, how: `won_by`) and who pays (`discarder` for a
    win on a discard or a robbed kong, `liable` for fan's 9-piece penalty), chairs or None.
    `sitting_out` is the chair that sits this hand out, when the hand's state is known;
    `complete=False` (a tile picker still being filled in) leaves out what is not chosen yet.
    The table's forms, the coordinator's correction, the paper sheet and the recording
    functions all ask this, so a mistake reads the same wherever it is made."""
    refusals = []
    if winner is None:
        if complete:
            refusals.append(Refusal("winner", NO_WINNER))
    elif winner == sitting_out:
        refusals.append(Refusal("winner", SITS_OUT["winner"]))
    if not won_by:
        if complete:
            refusals.append(Refusal("won_by", NO_HOW))
    elif won_by in DISCARDER_PAYS:
        if discarder is None:
            if complete:
                refusals.append(Refusal("discarder", NO_DISCARDER[won_by]))
        elif discarder == winner:
            refusals.append(Refusal("discarder", WINNER_PAYS))
        elif discarder == sitting_out:
            refusals.append(Refusal("discarder", SITS_OUT["discarder"]))
    if liable is not None:
        if liable == winner:
            refusals.append(Refusal("liable", WINNER_LIABLE))
        elif liable == sitting_out:
            refusals.append(Refusal("liable", SITS_OUT["liable"]))
    return refusals


def check_form_win(form, winner, won_by, discarder, liable=None, complete=True) -> int | None:
    """Add check_win's refusals to a Django form (a field that already has an error, such
    as a required choice left empty, keeps just that one); returns the discarder that
    counts (see who_pays)."""
    for refusal in check_win(winner, won_by, discarder, liable, complete=complete):
        field = refusal.field if refusal.field in form.fields else None
        if field is None or field not in form.errors:
            form.add_error(field, refusal.message)
    return who_pays(won_by, discarder)


def device_checks(match) -> dict:
    """What the table page checks on the device before it keeps a hand to send later
    (static/js/outbox-queue.js), with this module's and the engine's own numbers and words, so
    a hand the server would refuse for who won, who pays or its total is refused offline
    too: the totals' limits (a goulash hand's too), and the refusals of check_win."""
    ruleset = table_rules.match_ruleset(match)
    return {
        "unit": ruleset.unit,
        "one": ruleset.amount(1),  # "1 point"
        "hand": table_rules.total_limits(match),
        "goulash": table_rules.total_limits(match, goulash=True)
        if table_rules.has_goulash(ruleset)
        else None,
        "words": {
            "no_winner": NO_WINNER,
            "no_how": NO_HOW,
            "no_discarder": NO_DISCARDER,
            "winner_pays": WINNER_PAYS,
            "winner_liable": WINNER_LIABLE,
            "sits_out": SITS_OUT,
        },
        "discarder_pays": sorted(DISCARDER_PAYS),
    }
