"""The README and docs/ name only files that exist, and send the reader nowhere outside the
repository: a page that names a moved or deleted file (a template, a test, a module) fails
here instead of misleading the next reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Every page that may send a reader somewhere: the docs and the engine's design notes.
LINKING = [*DOCS, ROOT / "scoring" / "engine" / "DESIGN.md"]
# A word in backticks is taken for a path in the repository when it starts with one of these.
ROOTS = ("club", "games", "scoring", "front", "config", "templates", "static", "tests", "bench")
ROOTS += ("docs", ".ci")

FENCED = re.compile(r"^```.*?^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"^(?:" + "|".join(re.escape(r) for r in ROOTS) + r")/[\w./*-]*$")
# The folder a checkout would have beside this one, named without writing it out here.
OUTSIDE = "shared" + "/"


def _text(page: Path) -> str:
    return FENCED.sub("", page.read_text(encoding="utf-8"))


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces
    to hyphens."""
    headings = re.findall(r"^#+ (.+)$", _text(page), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def named_paths(page: Path) -> list[str]:
    """Every word inside inline backticks that names a path under one of ROOTS."""
    found = []
    for span in INLINE.findall(_text(page)):
        for word in span.split():
            word = word.rstrip(".,;:)")
            if PATH.match(word):
                found.append(word)
    return found


def _exists(path: str) -> bool:
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_page_names_exists(page):
    missing = sorted({path for path in named_paths(page) if not _exists(path)})
    assert not missing, f"{page.relative_to(ROOT)} names files that do not exist: {missing}"


@pytest.mark.parametrize("page", LINKING, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository_and_arrives(page):
    problems = []
    for target in LINK.findall(_text(page)):
        path, _, anchor = target.partition("#")
        if not path:
            if anchor not in anchors(page):
                problems.append(f"{target}: no such heading")
            continue
        if ":" in path:
            problems.append(f"{target} leaves the repository")
            continue
        resolved = (page.parent / path).resolve()
        if not resolved.is_relative_to(ROOT):
            problems.append(f"{target} leaves the repository")
        elif not resolved.exists():
            problems.append(f"{target} does not exist")
        elif anchor and anchor not in anchors(resolved):
            problems.append(f"{target}: no such heading")
    assert not problems, f"{page.relative_to(ROOT)}: {problems}"


@pytest.mark.parametrize("page", LINKING, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_sends_the_reader_outside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    assert OUTSIDE not in text and "`../" not in text, (
        f"{page.relative_to(ROOT)} points at a file outside the repository"
    )


def test_the_check_sees_a_missing_file_and_a_link_out(tmp_path):
    """The checks above would catch the kinds of slip they are for."""
    page = tmp_path / "page.md"
    page.write_text(
        "See `templates/club/tonight_results.html` and `scoring/engine/`.\n"
        "```\n`bench/not_checked_in_a_code_block.py`\n```\n"
    )
    assert named_paths(page) == ["templates/club/tonight_results.html", "scoring/engine/"]
    assert not _exists("templates/club/tonight_results.html")
    assert _exists("scoring/engine/") and _exists("docs/rules/*.md")
    page.write_text("# Playing: each table's page\n")
    assert anchors(page) == {"playing-each-tables-page"}


def test_the_readme_stays_short():
    """A newcomer reads it in five minutes; the rest lives in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 160, f"README.md has {lines} lines; move detail into docs/"
