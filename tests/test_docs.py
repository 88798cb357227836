"""The docs a newcomer reads (issue 45): the README fits in two minutes' reading, and every
page of docs/ starts, under its title, with what its reader can do there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_is_short_and_leads_with_the_install():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    first_screen = "\n".join(text.splitlines()[:40])
    assert "pipx install scorekeeper-table" in first_screen and "scorekeeper web" in first_screen


def test_every_docs_page_says_first_what_its_reader_can_do_there():
    pages = sorted(ROOT.glob("docs/**/*.md"))
    assert len(pages) > 15
    openings = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8").split("\n\n")[1] for p in pages}
    assert {p: o[:60] for p, o in openings.items() if not re.match(r"Here (an?|the|anyone) ", o)} == {}


def test_every_link_of_the_readme_and_the_docs_leads_to_a_file_that_exists():
    broken = []
    for page in [ROOT / "README.md", *ROOT.glob("docs/**/*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)|src=\"([^\"]+)\"", page.read_text(encoding="utf-8")):
            link = next(t for t in target if t)
            if re.match(r"[a-z]+:", link):
                continue  # an address on the web
            if not (page.parent / link).exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
    assert broken == []
