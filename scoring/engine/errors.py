"""The one exception bad input may raise."""


class EngineError(ValueError):
    """Bad input: a hand, option or rule set name that cannot be scored.

    ``str(error)`` is one sentence a club member understands, naming the offending tile,
    meld, field or option.
    """
