"""Hand records and leaderboards (a later issue); the engine is in scoring/engine/."""
