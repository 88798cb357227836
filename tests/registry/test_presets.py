"""Each game says its presets through its ``GameSpec`` (issue 28): the rules they set make
matches its engine takes, and the new-match forms offer them as the registry has them."""

from __future__ import annotations

import pytest
from support import ROOT

from scorekeeper import registry
from scorekeeper.envelope import new_record
from scorekeeper.ui.allfives.form import PRESETS, NewMatchForm
from scorekeeper.ui.allfours.form import VARIANT_CHOICES, FoursNewMatchForm

from .toygame.game import GAME as TOY

PLAYERS = ["Ann", "Ben", "Cy"]


def every_preset() -> list[tuple[str, registry.Preset]]:
    return [(game.id, p) for game in registry.games() for p in registry.presets_of(game)]


def test_the_games_with_presets_and_a_game_without():
    assert {g for g, _ in every_preset()} == {"all-fives", "all-fours"}
    assert registry.presets_of(registry.get("broadway")) == () == registry.presets_of(TOY)
    for game in registry.games():
        ids = [p.id for p in registry.presets_of(game)]
        assert len(ids) == len(set(ids)), game.id


@pytest.mark.parametrize(("game_id", "preset"), every_preset(), ids=lambda x: getattr(x, "id", x))
@pytest.mark.parametrize("players", [2, 3])
def test_a_preset_makes_a_match_its_game_takes(game_id, preset, players):
    rules = registry.rules_for(game_id, preset.id, players)  # the preset's rules and its deal
    assert rules == {
        **preset.rules,
        **({"hand_size": preset.hand_sizes[players]} if players in preset.hand_sizes else {}),
    }
    game = registry.get(game_id)
    match = game.load({**new_record(game_id, PLAYERS[:players], rules=rules), "hands": []})
    assert match.scores == [0] * players


def test_the_all_fives_form_offers_the_games_presets_and_titles_the_match_by_them(shared):
    offered = registry.presets_of(registry.get("all-fives"))
    assert list(PRESETS.values()) == list(offered)
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    assert form.preset == offered[0].id and form.record()["title"] == "All Fives"
    form.set_preset("teesdale")
    rec = form.record()
    assert rec["title"] == "Teesdale League"
    assert rec["rules"] == {**PRESETS["teesdale"].rules, "hand_size": 9}


def test_the_all_fours_form_offers_each_variant_as_a_preset(shared):
    offered = registry.presets_of(registry.get("all-fours"))
    assert VARIANT_CHOICES == [(p.title, p.id) for p in offered]
    assert [p.rules for p in offered] == [{"variant": p.id} for p in offered]
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_variant("seven-up")
    assert form.record()["title"] == "All Fours - Seven Up"


def preset_table() -> str:
    """docs/events.md's table of the games' presets, as the registry has them."""
    rows = [
        "| game (`--game`) | preset (`--preset`) | its name in the app | tiles dealt each, by players at the table |",
        "| --- | --- | --- | --- |",
    ]
    for game in (registry.get(g) for g in registry.BUILTIN):
        presets = registry.presets_of(game)
        if not presets:
            rows.append(f"| `{game.id}` | (none) | {game.title}'s own rules | the game's |")
        for i, p in enumerate(presets):
            deal = ", ".join(f"{size} at {n}" for n, size in sorted(p.hand_sizes.items())) or "the game's"
            rows.append(f"| `{game.id}` | `{p.id}`{' (the default)' if i == 0 else ''} | {p.title} | {deal} |")
    return "\n".join(rows) + "\n"


def test_the_events_doc_lists_every_preset_by_its_id_beside_its_name():
    doc = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    table = preset_table()
    assert table in doc, f"docs/events.md should hold this table, as the registry has it:\n{table}"
