"""The one exception the seating module raises for bad input or impossible requests."""


class SeatingError(ValueError):
    """Bad input or an impossible request.

    ``str(error)`` is one sentence a club coordinator understands, naming the player, table or
    setting at fault, so the web layer can show it as it is.
    """
