"""Scoring's forms, one module per job: `picker` (the tile picker and practice),
`liability` (fan's 9-piece penalty), `correction` (correcting a hand), `paper_sheet`
(typing in a paper score sheet), `table` (the table page's entry: a quick win, kong
chips, the tile picker at a table; import those from `scoring.forms.table`). The names below are the public API: import them from
`scoring.forms`.
"""

from scoring.forms.correction import TOTAL_MESSAGE, CorrectionForm
from scoring.forms.liability import LiabilityForm
from scoring.forms.paper_sheet import (
    DRAW_LETTERS,
    HOW_LETTERS,
    BasePaperSheet,
    PaperRowForm,
    PaperSheet,
    who,
)
from scoring.forms.picker import (
    INVALID_CHOICE,
    MINI_TILES,
    TILE_BUTTONS,
    UNIT_WORDS,
    WIND_CHOICES,
    PickerForm,
    PracticeForm,
    Preview,
    item_words,
    mini_tiles,
    result_preview,
)

__all__ = [
    "BasePaperSheet",
    "CorrectionForm",
    "DRAW_LETTERS",
    "HOW_LETTERS",
    "INVALID_CHOICE",
    "LiabilityForm",
    "MINI_TILES",
    "PaperRowForm",
    "PaperSheet",
    "PickerForm",
    "PracticeForm",
    "Preview",
    "TILE_BUTTONS",
    "TOTAL_MESSAGE",
    "UNIT_WORDS",
    "WIND_CHOICES",
    "item_words",
    "mini_tiles",
    "result_preview",
    "who",
]
