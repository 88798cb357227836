"""The audit's reproductions in the app's view-models (issue 17): History -> Import of
a hostile record ends with a message in place and the session alive; a change the
full disk refused leaves the screen showing what the file holds; the Score screen
draws any match the engine accepts."""

from __future__ import annotations

import copy
import errno
import json

import pytest
from support import RECORDS

from scorekeeper import registry
from scorekeeper.allfives.simulate import random_record as fives_record
from scorekeeper.errors import ScorekeeperError
from scorekeeper.tally.svg import chart_svg, pegboard_svg, tally_svg
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.history.model import HistoryModel
from scorekeeper.ui.score.model import score_displays

WORKED = json.loads((RECORDS / "worked-example.json").read_text(encoding="utf-8"))
ALL_FOURS = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben"],
    "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben", "low": "Ann", "game": {"Ann": 40, "Ben": 2}}],
}


def with_(rec: dict, path: tuple, value: object) -> dict:
    out = copy.deepcopy(rec)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


HOSTILE = {
    "game a list": json.dumps(with_(WORKED, ("game",), ["all-fives"])),
    "game an object": json.dumps(with_(WORKED, ("game",), {"all-fives": 1})),
    "variant a list": json.dumps(with_(ALL_FOURS, ("rules",), {"variant": ["trinidad"]})),
    "variant an object": json.dumps(with_(ALL_FOURS, ("rules",), {"variant": {"v": 1}})),
    "penalty type a list": json.dumps(with_(ALL_FOURS, ("hands", 0, "penalties"), [{"type": ["revoke"], "by": "Ann"}])),
    "penalty type an object": json.dumps(
        with_(ALL_FOURS, ("hands", 0, "penalties"), [{"type": {"t": 1}, "by": "Ann"}])
    ),
    "nested 1,000 deep": "[" * 1000 + "]" * 1000,
    "nested 1,000 deep in a turn": json.dumps(WORKED).replace('{"play": "3-2"}', "[" * 1000 + "]" * 1000),
    "target of 400 digits": json.dumps(with_(WORKED, ("rules",), {"target": 1})).replace(
        '"target": 1', '"target": ' + "9" * 400
    ),
    "a key twice": '{"format": "scorekeeper/1", "format": "scorekeeper/1"}',
    "a name with a newline": json.dumps(with_(WORKED, ("players",), ["Ann\nBen", "Ben"])),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_import_is_refused_in_place_and_stores_nothing(shared, name):
    hist = HistoryModel(shared)
    assert hist.import_text(HOSTILE[name]) is None
    assert hist.error and "\n" not in hist.error and "internal error" not in hist.error, hist.error
    assert len(hist.error) < 600
    assert shared.store.count() == 0
    # the session goes on: a good record imports after it
    assert hist.import_text(json.dumps(WORKED)) is not None, hist.error


def test_a_file_too_large_is_refused_before_it_is_read(shared):
    hist = HistoryModel(shared)
    assert hist.import_file("huge.json", b" " * 3_000_000 + b"{}") is None
    assert hist.error == "huge.json: not a match record: it is larger than 2 MB"


def test_a_full_disk_leaves_the_screen_showing_what_the_file_holds(shared):
    hist = HistoryModel(shared)
    mid = hist.import_text(json.dumps(with_(WORKED, ("hands", 0, "turns"), WORKED["hands"][0]["turns"][:2])))
    assert mid, hist.error
    table = TableModel(shared, mid)
    before = table.match.to_record()
    count_before, scores_before = table.match.hands[-1].count, list(table.match.scores)

    storage = shared.store._open_matches[mid].storage

    def full(_data: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    storage.write = full
    table.play.tap("4-2")
    if table.play.choosing:
        table.play.choose("2-2")
    assert table.error == "could not save: the disk is full; nothing was changed"
    assert table.match.to_record() == before  # not the tile played ...
    assert table.match.hands[-1].count == count_before and list(table.match.scores) == scores_before  # ... nor scored
    assert shared.store.record(mid) == before


def largest(game: str, target: int) -> dict:
    """A match of ``game`` played a while toward ``target``."""
    if game == "all-fives":
        return fives_record(7, 2, max_hands=12, scale=5, target=target)
    return with_(ALL_FOURS, ("rules",), {"target": target})


@pytest.mark.parametrize("game", ["all-fives", "all-fours"])  # Broadway has no target: it plays its hands
def test_the_score_screen_draws_the_largest_target_the_engine_accepts(game):
    g = registry.get(game)
    with pytest.raises(ScorekeeperError, match="rules.target"):
        g.load(largest(game, 10_000))
    displays = score_displays(g, g.load(largest(game, 9_999)))
    assert displays.timeline.target == 9_999
    for side in displays.sides:
        if side.tally is not None:
            assert tally_svg(side.tally, previous=side.previous, title=side.name).startswith("<svg")
    if displays.pegboard is not None:
        assert pegboard_svg(displays.pegboard).startswith("<svg")
    assert chart_svg(displays.timeline).startswith("<svg")


def test_the_score_screen_of_a_broadway_match_in_fives_has_no_pegboard():
    """Broadway's penalty in fives (scale 5) has no target, so no game hole: scores, no board."""
    from scorekeeper.broadway.simulate import random_record as broadway_record

    g = registry.get("broadway")
    rec = broadway_record(5, rules={"unplayed_penalty": "to-opponents"}, max_hands=2)
    displays = score_displays(g, g.load(rec))
    assert displays.pegboard is None and displays.timeline.scale == 5
    assert chart_svg(displays.timeline).startswith("<svg")
