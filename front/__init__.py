"""The front of the house: the pages that draw on all three apps (club, games, scoring).

The apps depend one way, club <- games <- scoring <- front (pyproject.toml's import-linter
contracts); a page that needs all of them lives here rather than pulling an upper app into a
lower one."""
