"""Tables' matches, rounds, hands and dealer rotation (a later issue)."""
