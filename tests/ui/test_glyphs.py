"""On the phone alone a name its one font cannot draw is refused where it is typed
(scorekeeper/ui/shell/glyphs.py); the laptop's app takes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfours.form import FoursNewMatchForm
from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
from scorekeeper.ui.events.new_event import EventsModel
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.shell import glyphs

ROOT = Path(__file__).resolve().parents[2]


def test_the_ranges_are_the_installed_fonts() -> None:
    """tools/font_coverage.py reads the font flet-web ships (with fontTools, a test extra)."""
    done = subprocess.run(
        [sys.executable, "-m", "tools.font_coverage"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    printed: dict[str, object] = {}
    exec(done.stdout, printed)
    assert len(glyphs.ROBOTO) > 50 and printed["ROBOTO"] == glyphs.ROBOTO


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("Zoë", None),
        ("Łukasz", None),
        ("Σοφία", None),
        ("Жанна", None),
        ("Nguyễn", None),
        ("Ann 🎲", "🎲"),
        ("李娜", "李"),
        ("سارا", "س"),
        ("प्रिया", "प"),
        ("Ann\u200d", None),
    ],
)
def test_what_the_font_draws(name: str, char: str | None) -> None:
    assert glyphs.undrawn(name) == char


@pytest.mark.parametrize("form_of", [NewMatchForm, FoursNewMatchForm, BroadwayNewMatchForm])
def test_a_new_match_on_the_phone_refuses_a_name_it_cannot_show(shared, form_of) -> None:
    shared.font_only = True
    form = form_of(shared, names=["Ann", "Ben 🎲"])
    assert form.start() is None
    assert form.error is not None and "'Ben 🎲' cannot be shown on this phone" in form.error
    assert "U+1F3B2" in form.error and shared.store.list() == []
    form.set_name(1, "Ben")
    assert form.start() is not None and len(shared.store.list()) == 1


def test_the_laptops_app_takes_every_name_the_text_rule_takes(shared) -> None:
    form = NewMatchForm(shared, names=["Ann", "Ben 🎲"])
    assert form.start() is not None and shared.font_only is False


def test_a_rename_and_an_event_on_the_phone_are_refused_alike(shared) -> None:
    shared.font_only = True
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    assert form.start() is not None
    players = PlayersModel(shared)
    assert players.rename("ann", "Ann 🎲") is None
    assert players.error is not None and "'Ann 🎲' cannot be shown" in players.error
    event = EventsModel(shared)
    event.set("name", "Club night")
    event.set("players", "Ann, Ben, 李娜, Di")
    assert event.create() is None
    assert event.error is not None and "'李娜' cannot be shown" in event.error
    assert shared.events.events() == []
