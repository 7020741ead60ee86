"""A module that says it is plain Python (imports no Django) is held to it: it is among the
source modules of pyproject.toml's import contract that forbids Django (`lint-imports`,
`make lint`, CI), so the claim cannot go stale without the build failing."""

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("config", "club", "games", "scoring", "front")
# A module's docstring saying it imports no Django: "Plain Python, no Django", "plain Python
# (no Django)", "A pure module with no Django imports", "imports no Django".
CLAIM = re.compile(
    r"(plain python|pure module)[^.]{0,40}?(no|without) django|imports no django", re.I | re.S
)


def pure_cores() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [
        c for c in contracts if c["type"] == "forbidden" and "django" in c["forbidden_modules"]
    ]
    return contract["source_modules"]


def modules_claiming_no_django() -> dict[str, str]:
    """Module name -> the words of its docstring that claim it (list items that describe
    other modules, "- `planner/`: ... plain Python without Django", are not its claim)."""
    claims = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            own = "\n".join(line for line in doc.splitlines() if not line.startswith("- "))
            if found := CLAIM.search(own):
                parts = path.relative_to(ROOT).with_suffix("").parts
                name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                claims[name] = found.group()
    return claims


def test_every_module_that_says_it_imports_no_django_is_under_the_pure_core_contract():
    cores = pure_cores()
    claims = modules_claiming_no_django()
    outside = [
        f"{name} ({words!r})"
        for name, words in claims.items()
        if not any(name == core or name.startswith(core + ".") for core in cores)
    ]
    assert outside == [], (
        "These say they import no Django but are not in the pure cores' contract in "
        "pyproject.toml [tool.importlinter]: add them, or stop saying so:\n" + "\n".join(outside)
    )
    # The search finds the claims it is for (the engine's, the picker's, the dice's ...).
    assert {"scoring.engine", "scoring.picker", "games.dice", "club.csv_export"} <= set(claims)


def test_the_claim_is_found_in_the_ways_the_code_words_it():
    for words in (
        "Plain Python, no Django.",
        "plain Python (no Django): the forms wrap it",
        "A pure module with no Django imports, so",
        "The engine imports no Django.",
    ):
        assert CLAIM.search(words), words
    assert not CLAIM.search("Plain Python apart from the queries in `room_session`.")
