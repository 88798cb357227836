"""The game contract: what the store, History, the statistics and the CSV export rely on
of a game, checked for every game of the registry -- the toy game of the tests included,
registered as a plug-in would be -- on each sample record the game gives
(``GameSpec.samples``: a finished match, one stopped mid-hand, one with partners ...).

A new game is its package plus one line in ``registry.BUILTIN``; this suite then says
what it breaks. A failing test's name is the check, ``[game:sample]`` the game and
the sample, and its message what differs. Per sample:

- ``load(record).to_record()`` is the record (a sample is written as its game writes it);
- the scored result is JSON with the common part (:class:`scorekeeper.scored.Scored`);
- entered one entry at a time through a ``Store``, it is the same record and the same
  match; each entry undone gives the record and the match before it; redone, the record;
- the ``--text`` names every side; History shows it;
- the timeline's last step is the scores; the CSV rows add up to them;
- the statistics count every player of it;
- the scores carried in, the hands entered as points and the adjustments it holds are in
  the scored result in their places, and the scores are the start plus what each added.

Per game: a finished and a mid-hand sample (and, for a game built in, one carried on from
paper: a start, a hand entered as points, an adjustment), and an event's match of each of its presets
dealt as :func:`registry.rules_for` deals it and taken by its engine. That a New match
form deals as ``rules_for`` does (every door of a preset) is ``test_deal_contract.py``'s.

Small samples, one store per sample: the whole suite runs in a few seconds.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from support import ROOT

from scorekeeper import registry
from scorekeeper.codec import record_after
from scorekeeper.points import item_kind
from scorekeeper.stats.csv_rows import match_rows, to_csv
from scorekeeper.stats.facts import match_facts
from scorekeeper.store import Store, entries_of
from scorekeeper.ui.shell.screens import history_blocks

from .test_deal_contract import event_match_rules
from .toygame.game import GAME as TOY


@contextmanager
def toy_registered() -> Iterator[None]:
    """The toy game in the registry (``registry.register``: the plug-in's one line)."""
    added = TOY.id not in registry.ids()
    if added:
        registry.register(TOY)
    try:
        yield
    finally:
        if added:
            registry.unregister(TOY.id)


with toy_registered():
    GAMES = list(registry.ids())
    CASES = [(game.id, name) for game in registry.games() for name in registry.samples_of(game)]
#: Each case's test id: ``all-fives:partners``.
CASE_IDS = [f"{game_id}:{name}" for game_id, name in CASES]


@pytest.fixture(scope="module", autouse=True)
def _toy() -> Iterator[None]:
    with toy_registered():
        yield


def sample(game_id: str, name: str) -> tuple[registry.Game, dict[str, Any]]:
    game = registry.get(game_id)
    return game, registry.samples_of(game)[name]


def shown(record: dict[str, Any]) -> str:
    return json.dumps(record)[:2000]


# ---------------------------------------------------------------- the tree
def test_every_game_package_is_registered_and_type_checked_strictly():
    """A package with a ``game.py`` is a game: it is in ``BUILTIN``, and ``make lint``'s
    strict paths (``tools/strict_paths.py``, from ``BUILTIN``) hold it."""
    spec = importlib.util.spec_from_file_location("strict_paths", ROOT / "tools" / "strict_paths.py")
    assert spec is not None and spec.loader is not None
    strict_paths = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strict_paths)
    in_tree = {str(p.parent.relative_to(ROOT)) for p in (ROOT / "scorekeeper").glob("*/game.py")}
    registered = {"/".join(reg.engine.split(".")[:-1]) for reg in registry.BUILTIN.values()}
    assert in_tree == registered, "a game package not in registry.BUILTIN, or a registration without its package"
    assert registered <= set(strict_paths.strict_paths()), "a game package left out of mypy --strict"


# ---------------------------------------------------------------- per game
@pytest.mark.parametrize("game_id", GAMES)
def test_the_game_gives_a_finished_and_a_mid_hand_sample(game_id):
    game = registry.get(game_id)
    samples = registry.samples_of(game)
    assert samples, f"{game_id} gives no sample records: give its GameSpec samples (see scorekeeper/*/samples.py)"
    scored = [game.result(game.load(record)) for record in samples.values()]
    assert any(s["winner"] is not None for s in scored), f"{game_id}: no sample is a finished match (a winner)"
    assert any(s["winner"] is None and s["hands"] and s["hands"][-1]["end"] == "open" for s in scored), (
        f"{game_id}: no sample is a match stopped mid-hand (no winner, the last hand open)"
    )


@pytest.mark.parametrize("game_id", list(registry.BUILTIN))
def test_a_game_built_in_gives_a_sample_carried_on_from_paper(game_id):
    """Every game takes scores carried in, hands entered as points and adjustments
    (``scorekeeper/points.py``): a sample has all three, so every check below runs on them."""
    kinds = [
        {item_kind(h) for h in record.get("hands", [])} | ({"start"} if "start" in record else set())
        for record in registry.samples_of(registry.get(game_id)).values()
    ]
    assert any({"start", "points", "adjust"} <= k for k in kinds), (
        f"{game_id}: no sample carries scores in, enters a hand as points and adjusts a score"
    )


@pytest.mark.parametrize("game_id", GAMES)
def test_an_events_match_of_each_preset_is_dealt_as_rules_for_says_and_taken_by_the_engine(game_id):
    game = registry.get(game_id)
    counts = registry.player_counts(game) or (2, 4)
    for preset in (None, *(p.id for p in registry.presets_of(game))):
        for players in (n for n in (2, 4) if n in counts):
            rules = event_match_rules(game_id, preset, players)
            assert rules == registry.rules_for(game_id, preset, players), (
                f"{game_id}: an event's match of preset {preset} for {players} has other rules than rules_for's"
            )
            record = {
                "format": "scorekeeper/1",
                "game": game_id,
                "players": ["Ann", "Ben", "Cy", "Di"][:players],
                "hands": [],
            }
            if players == 4:
                record["teams"] = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
            if rules:
                record["rules"] = rules
            assert game.load(record).scores == [0, 0], f"{game_id}: preset {preset} for {players}"


# ---------------------------------------------------------------- per sample
@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_load_then_to_record_gives_the_record_back(game_id, name):
    game, record = sample(game_id, name)
    back = game.load(record).to_record()
    assert back == record, f"{game_id}:{name}: to_record(load(record)) is not the sample {shown(record)}"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_the_scored_result_is_json_with_the_common_part(game_id, name):
    game, record = sample(game_id, name)
    match = game.load(record)
    scored = game.result(match)
    where = f"{game_id}:{name}: the scored result"
    assert json.loads(json.dumps(scored)) == scored, f"{where} is not plain JSON (a tuple, a number key?)"
    sides = list(match.setup.sides)
    assert scored["game"] == game_id, where
    assert scored["sides"] == sides, f"{where}: sides are not the setup's"
    assert scored["scores"] == dict(zip(sides, match.scores, strict=True)), f"{where}: scores are not the match's"
    winner = None if match.winner is None else sides[match.winner]
    assert scored["winner"] == winner, f"{where}: winner is not the match's"
    hands = scored["hands"]
    numbered = [h["number"] for h in hands if h["end"] != "adjust"]  # an adjustment is not a hand
    assert numbered == list(range(1, len(numbered) + 1)), f"{where}: hands are not numbered from 1"
    for h in hands:
        what = f"hand {h['number']}" if "number" in h else "an adjustment"
        assert isinstance(h["end"], str) and list(h["scores"]) == sides, f"{where}: {what}"
        assert set(h.get("settlement", {})) <= set(sides), f"{where}: {what} settles no side"
    if hands:
        assert hands[-1]["scores"] == scored["scores"], f"{where}: the last hand's scores are not the scores"
    if "target" in scored:
        assert type(scored["target"]) is int, f"{where}: target"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_entered_undone_and_redone_entry_by_entry_through_the_store(game_id, name, tmp_path):
    """The store checks every entry through the game's engine (its entry codec) and keeps
    the match in memory: after each entry, undo and redo, the record and the match are
    what loading the record of that moment gives."""
    game, record = sample(game_id, name)
    entries = entries_of(record)
    assert entries, f"{game_id}:{name}: the sample has no entries"
    with Store(tmp_path / "db") as st:
        mid = st.create(record_after(record, 0))
        for n, entry in enumerate(entries, 1):
            st.append(mid, entry)
            assert st.record(mid) == record_after(record, n), f"{game_id}:{name}: after entry {n} {entry}"
        assert st.record(mid) == record, f"{game_id}:{name}: entered one by one, the record differs"
        assert game.result(st.match(mid)) == game.result(game.load(record)), f"{game_id}:{name}: the match differs"
        (listed,) = st.list()
        assert listed["scores"] == game.result(st.match(mid))["scores"], f"{game_id}:{name}: the list's scores"
        for n in range(len(entries), 0, -1):
            assert st.undo(mid) == entries[n - 1], f"{game_id}:{name}: undo of entry {n}"
            before = record_after(record, n - 1)
            assert st.record(mid) == before, f"{game_id}:{name}: the record after undoing entry {n}"
            assert game.result(st.match(mid)) == game.result(game.load(before)), (
                f"{game_id}:{name}: the match after undoing entry {n} is not the one before it"
            )
        for n in range(1, len(entries) + 1):
            assert st.redo(mid) == entries[n - 1], f"{game_id}:{name}: redo of entry {n}"
        assert st.record(mid) == record, f"{game_id}:{name}: undone and redone, the record differs"
        assert game.result(st.match(mid)) == game.result(game.load(record)), f"{game_id}:{name}: redone, the match"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_the_text_and_history_name_every_side(game_id, name):
    game, record = sample(game_id, name)
    scored = game.result(game.load(record))
    text = game.render(scored)
    missing = [side for side in scored["sides"] if side not in text]
    assert missing == [], f"{game_id}:{name}: the --text does not name {missing}:\n{text}"
    blocks = history_blocks(scored)
    assert blocks and all(isinstance(b, str) for b in blocks), f"{game_id}:{name}: History shows nothing"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_the_timelines_last_step_is_the_score(game_id, name):
    game, record = sample(game_id, name)
    match = game.load(record)
    scored = game.result(match)
    timeline = game.timeline(match)
    assert list(timeline.sides) == scored["sides"], f"{game_id}:{name}: the timeline's sides"
    totals = tuple(scored["scores"][s] for s in scored["sides"])
    assert timeline.scores == totals, f"{game_id}:{name}: the timeline ends at {timeline.scores}, not {totals}"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_the_csv_rows_add_up_to_the_scores(game_id, name):
    game, record = sample(game_id, name)
    match = game.load(record)
    scored = game.result(match)
    sides, rows = match_rows(record, match)
    assert sides == scored["sides"], f"{game_id}:{name}: the CSV's sides"
    added = dict.fromkeys(sides, 0)
    for row in rows:
        assert row.side in added or (row.side == "" and row.points == 0), f"{game_id}:{name}: {row}"
        if row.side:
            added[row.side] += row.points
    assert added == scored["scores"], f"{game_id}:{name}: the CSV rows add up to {added}, not {scored['scores']}"
    numbers = [h["number"] for h in scored["hands"] if "number" in h]
    assert sorted({row.hand for row in rows if row.hand is not None}) == numbers, (
        f"{game_id}:{name}: every hand has its rows"
    )
    assert to_csv([[row.entry, row.points] for row in rows]), f"{game_id}:{name}: no CSV"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_the_statistics_count_every_player(game_id, name):
    game, record = sample(game_id, name)
    facts = match_facts(record)
    players = record["players"]
    where = f"{game_id}:{name}: the statistics' facts"
    assert facts["players"] == players and len(facts["per"]) == len(players) == len(facts["best"]), where
    assert facts["kind"] in [k.id for k in registry.kinds_of(game)], f"{where}: kind {facts['kind']!r}"
    assert facts["scores"] == game.load(record).scores, f"{where}: scores"


@pytest.mark.parametrize(("game_id", "name"), CASES, ids=CASE_IDS)
def test_the_scores_are_the_start_plus_every_hand_and_adjustment_in_its_place(game_id, name):
    game, record = sample(game_id, name)
    scored = game.result(game.load(record))
    sides = scored["sides"]
    where = f"{game_id}:{name}"
    start = record.get("start")
    assert scored.get("start") == start, f"{where}: the scored result's start is not the record's"
    items = record.get("hands", [])
    assert [h["end"] for h in scored["hands"] if h["end"] in ("points", "adjust")] == [
        item_kind(h) for h in items if item_kind(h)
    ], f"{where}: the hands entered as points and the adjustments are not in their places"
    before = dict(start or dict.fromkeys(sides, 0))
    for h in scored["hands"]:
        if h["end"] == "adjust":
            assert "number" not in h and h["why"], f"{where}: an adjustment is numbered or says not why"
            assert h["scores"] == {s: before[s] + h["adjust"].get(s, 0) for s in sides}, f"{where}: {h}"
        if h["end"] == "points":
            voided = set(h.get("voided_sides", ()))
            counted = {s: 0 if s in voided else h["points"][s] for s in sides}
            assert h["scores"] == {s: before[s] + counted[s] for s in sides}, f"{where}: hand {h['number']}"
        before = h["scores"]
    assert before == scored["scores"], f"{where}: the scores are not the start plus every entry"
