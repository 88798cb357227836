"""The game decides its deal (issue 44): the rules a preset gives a match of so many players
(its hand size included) come from one function, :func:`registry.rules_for`, and an event's
match and a New match made with the same preset have the same rules -- for every preset (and
no preset) of every game, at every number of players the game allows. An event seats two at
a singles table and four at a doubles one; the other numbers are a New match's only.

No store and no browser: the forms are given a stand-in for the app's shared state (they
only ask it for earlier players' names)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from scorekeeper import registry
from scorekeeper.allfives.record import load
from scorekeeper.errors import RulesError
from scorekeeper.events import new_event
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfours.form import FoursNewMatchForm
from scorekeeper.ui.broadway.form import BroadwayNewMatchForm

from .toygame.game import GAME as TOY

NAMES = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]
#: Nobody played before: the forms' earlier players.
NOBODY = SimpleNamespace(names=lambda: [])


def new_match_rules(game_id: str, preset: str | None, players: int) -> dict[str, Any]:
    """The rules of the record the game's New match form makes with ``preset`` (None: the
    form's first choice) for ``players`` players."""
    names = NAMES[:players]
    if game_id == "all-fives":
        form: Any = NewMatchForm(NOBODY, names=names)
        if preset is not None:
            form.set_preset(preset)
    elif game_id == "all-fours":
        form = FoursNewMatchForm(NOBODY, names=names)
        if preset is not None:
            form.set_variant(preset)
    else:
        assert game_id == "broadway" and preset is None
        form = BroadwayNewMatchForm(NOBODY, names=names)
    return dict(form.record().get("rules", {}))


def event_match_rules(game_id: str, preset: str | None, players: int) -> dict[str, Any]:
    """The rules of the match an event made with ``preset`` gives a table of ``players``:
    a round robin's for two, a league's doubles game for four."""
    if players == 2:
        event = new_event("e", "Night", "round-robin", game_id, preset=preset, players=NAMES[:2])
    else:
        teams = {"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]}
        event = new_event("e", "Night", "league", game_id, preset=preset, teams=teams, singles=0, doubles=1, legs=1)
    record = event.record_for(1, 1)
    assert len(record["players"]) == players
    return dict(record.get("rules", {}))


def cases() -> list[tuple[str, str | None, int]]:
    out = []
    for game in registry.games():
        counts = registry.player_counts(game)
        assert counts, f"{game.id} says how many players a match may have"
        for preset in (None, *(p.id for p in registry.presets_of(game))):
            out += [(game.id, preset, n) for n in counts]
    return out


@pytest.mark.parametrize(("game_id", "preset", "players"), cases())
def test_a_new_match_has_the_rules_the_game_gives_its_preset(game_id, preset, players):
    assert new_match_rules(game_id, preset, players) == registry.rules_for(game_id, preset, players)


@pytest.mark.parametrize(("game_id", "preset", "players"), [c for c in cases() if c[2] in (2, 4)])
def test_an_events_match_and_a_new_match_of_the_preset_have_the_same_rules(game_id, preset, players):
    assert event_match_rules(game_id, preset, players) == new_match_rules(game_id, preset, players)


def test_every_game_is_played_at_an_events_table():
    seated = {g for g, _, n in cases() if n in (2, 4)}
    assert seated == set(registry.ids())


def test_fives_and_threes_two_handed_is_dealt_seven_at_an_event():
    event = new_event(
        "e", "Night", "round-robin", "all-fives", preset="fives-threes", players=["Ann", "Ben"], target=31
    )
    record = event.record_for(1, 1)
    assert load({**record, "hands": []}).rules.hand_size == 7 and record["rules"]["target"] == 31
    four = event_match_rules("all-fives", "sniff", 4)
    assert four["hand_size"] == 5 and four["spinner"] == "sniff"


def test_the_hand_size_table_stays_an_override_on_the_presets_deal():
    form = NewMatchForm(NOBODY, names=NAMES[:3])
    form.set_preset("fives-threes")
    form.set_hand_sizes("european")
    assert form.rules().hand_size == 5 and form.record()["rules"]["count"] == "fives-and-threes"
    form.set_hand_sizes("default")
    form.set_rule("target", "31")
    form.set_count(2)  # the deal follows the players; the target typed stays
    assert (form.rules().hand_size, form.rules().target) == (7, 31)


def test_a_game_may_deal_its_own_way_and_an_unknown_preset_is_said():
    short = registry.Preset("short", "Short", {"target": 20})
    game = dataclasses.replace(TOY, presets=(short,), deal=lambda p, n: {**p.rules, "seats": n})
    assert registry.rules_for(game, None, 3) == {"target": 20, "seats": 3}
    assert registry.rules_for(TOY, None, 2) == {}
    with pytest.raises(RulesError, match=r"^preset: All Fives has no preset 'pub' \(presets: all-fives, muggins"):
        registry.rules_for("all-fives", "pub", 2)
