"""The events' view-models without a browser: New event, an event's page (opening a round,
"I'm Ann" and the phone's own table, the next round, what a watcher may not do), the
standings and a result sheet (only a team's captain confirms it), and the hub's channel
that tells the events' screens of a change of any match."""

from __future__ import annotations

import pytest
from events.helpers import won_record

from scorekeeper.ui.access.gate import Codes, Gate
from scorekeeper.ui.events.model import EventModel, EventsModel, StandingsModel
from scorekeeper.ui.events.night_model import NightModel
from scorekeeper.ui.events.sheet_model import SheetModel
from scorekeeper.ui.live.hub import ANY, Hub
from scorekeeper.ui.server.shared import open_shared


@pytest.fixture
def gated(tmp_path):
    s = open_shared(str(tmp_path / "db"), gate=Gate(Codes("482913", "771204")))
    yield s
    s.close()


def phone(shared, code, address="192.168.1.20"):
    view = shared.visit(address)
    assert view.visitor.join(code)
    return view


def make(shared, **fields):
    vm = EventsModel(shared)
    for k, v in {"name": "Club night", "players": "Ann, Ben, Cy, Di", **fields}.items():
        vm.set(k, v)
    eid = vm.create()
    assert eid is not None, vm.error
    return eid


def test_new_event_from_the_form_and_its_errors_in_place(shared):
    vm = EventsModel(shared)
    assert vm.create() is None and vm.error == "name: an event's name must be a non-empty string, not ''"
    vm.set("name", "Night")
    vm.set("players", "Ann\nann")
    assert vm.create() is None and vm.error.startswith("players: 'Ann' and 'ann' are the same name")
    vm.set("players", "Ann, Ben")
    vm.set("target", "x")
    assert vm.create() is None and vm.error == "the points to win a match must be a whole number (or left empty)"
    vm.set("target", "5")
    eid = vm.create()
    assert vm.error is None and [e.id for e in vm.events()] == [eid]
    assert vm.preset == "all-fives"  # the game's usual rules, chosen with it
    vm.set("game", "all-fours")
    assert vm.preset == "trinidad" and vm.presets()[0] == ("Trinidad", "trinidad")
    vm.set("game", "broadway")  # no presets: its rules as they are
    assert vm.preset is None and vm.presets() == [("Its usual rules", None)]


def test_a_league_from_the_form(shared):
    eid = make(shared, format="league", teams="Reds: Ann, Cy\nBlues: Ben, Di\n", players="")
    event = EventModel(shared, eid).event()
    assert [t.name for t in event.teams] == ["Reds", "Blues"] and event.scoring.preset == "league-2-1"


def test_a_partners_league_from_the_form_with_every_option_and_its_sheet_in_play(shared):
    """Issue 44: New event offers what ``event new`` does -- doubles games, legs, a league's
    scoring, the preset and the points to win -- states the tie-breaks, and the event's
    matches are dealt the preset's hands for their tables; the sheet says which game is in
    play (its score so far) and which has no match yet."""
    vm = EventsModel(shared)
    assert vm.tie_breaks().startswith("Ranked by score, then points difference") and vm.scorings() == [
        ("a point a match won", "singles")
    ]
    vm.set("format", "league")
    assert "games difference" in vm.tie_breaks() and vm.scoring_chosen == "league-2-1"
    typed = {"name": "Pairs league", "teams": "Reds: Ann, Cy (vice)\nBlues: Ben, Di", "singles": "1"}
    typed |= {"doubles": "1", "legs": 1, "scoring": "league-3-1", "preset": "sniff", "target": ""}
    for k, v in typed.items():
        vm.set(k, v)
    eid = vm.create()
    assert vm.error is None
    (event,) = vm.events()
    assert (event.id, event.sheet.singles, event.sheet.doubles, event.legs) == (eid, 1, 1, 1)
    assert (event.teams[0].vice, event.scoring.preset, event.preset) == ("Cy", "league-3-1", "sniff")
    singles, doubles = (event.record_for(1, n) for n in (1, 2))
    assert (singles["rules"]["hand_size"], doubles["rules"]["hand_size"]) == (7, 5)  # the sniff's deal
    assert {frozenset(side) for side in doubles["teams"].values()} == {
        frozenset(("Ann", "Cy")),
        frozenset(("Ben", "Di")),
    }
    assert vm.line(event) == "League · All Fives: Sniff · to 200 · 1 round · 2 teams"
    page = EventModel(shared, eid)
    assert page.heading(event) == "League · All Fives: Sniff · to 200 · 1 round · 3 a win, 1 for a 5-4 loss"
    home = event.table(1, 1).sides[0][0]
    playing = dict(singles, rules={"target": 15}, hands=[{"leader": home, "turns": [{"play": "5-0"}]}])
    with shared.lock:
        shared.store.import_record(playing)
    sheet = SheetModel(shared, eid, 1, 1).sheet()
    assert [g.state for g in sheet.games] == ["in play (5 - 0)", "not started"]


def test_the_forms_errors_are_in_its_own_words(shared):
    """No error of New event names a command line's flag (``--doubles``)."""
    vm = EventsModel(shared)
    vm.set("name", "League")
    vm.set("format", "league")
    steps = [
        ({}, "teams: a league needs at least 2 teams, not 0"),
        (
            {"teams": "Reds: Ann\nBlues: Ben", "doubles": "2"},
            "doubles: doubles games need at least 2 players in every team",
        ),
        ({"doubles": "x"}, "a fixture's doubles games must be a whole number (or left empty)"),
        ({"doubles": "", "singles": "0"}, "singles: a fixture has 1 to 30 games, not 0"),
        ({"singles": "31"}, "singles: must be 0 to 30, not 31"),
        ({"singles": "", "game": "broadway"}, "game: Broadway cannot be played 1 v 1 at a table ("),
        (
            {"game": "all-fives", "format": "swiss", "players": "Ann, Ben", "rounds": "2"},
            "rounds: must be 1 to 1, not 2",
        ),
    ]
    for fields, said in steps:
        for k, v in fields.items():
            vm.set(k, v)
        assert vm.create() is None
        assert vm.error.startswith(said) and "--" not in vm.error, vm.error


def test_opening_a_round_and_the_phones_own_table(shared):
    eid = make(shared, target="5")
    page = EventModel(shared, eid)
    event = page.event()
    assert {t.status for t in page.tables(event)} == {"not opened"}
    page.open_round(1)
    assert page.note == "round 1 is open: 2 tables ready" and page.error is None
    page.tick(page)  # its own change, told back: the note stays
    assert page.note == "round 1 is open: 2 tables ready"
    page.tick(object())  # a change made elsewhere (a table's play): the note is out of date
    assert page.note is None
    assert page.my_table(event) is None
    page.iam("Di")
    mine = page.my_table(event)
    assert (mine.round, mine.number, mine.status) == (1, 1, "in play") and "Di" in mine.title
    page.sit(mine)
    assert shared.visitor.seat(mine.match) == "Di"
    with shared.lock:
        shared.store.import_record(won_record(event, 1, 1, winner=1))  # Di wins table 1 again, imported
    assert page.current(event, page.tables(event)) == 1
    rows = StandingsModel(shared, eid).rows()[1]
    assert [(r.name, r.won) for r in rows][0] == ("Di", 1)


def test_next_round_of_a_swiss_is_refused_until_the_round_is_finished(shared):
    eid = make(shared, format="swiss", rounds="2")
    page = EventModel(shared, eid)
    page.next_round()
    assert page.error == "round 1 is not finished: no result yet at table 1, 2"
    event = page.event()
    with shared.lock:
        for t in event.rounds[0].tables:
            shared.store.import_record(won_record(event, 1, t.number, winner=0))
    page.next_round()
    assert page.error is None and page.note == "round 2 is drawn" and len(page.event().rounds) == 2


def test_a_watcher_opens_no_round_and_confirms_no_sheet(gated):
    eid = make(gated, format="league", teams="Reds: Ann\nBlues: Ben", players="")
    watcher = phone(gated, "771204")
    page = EventModel(watcher, eid)
    page.open_round(1)
    assert page.error == "this phone is watching: it cannot change the match"
    assert EventsModel(watcher).create() is None
    sheet = SheetModel(watcher, eid, 1, 1)
    sheet.confirm("Reds")
    assert sheet.error == "this phone is watching: it cannot change the match"


def test_only_the_captain_confirms_on_their_own_phone(gated):
    eid = make(gated, format="league", teams="Reds: Ann, Cy\nBlues: Ben, Di", players="")
    event = EventModel(gated, eid).event()
    with gated.lock:
        for n in (1, 2, 3, 4, 5, 6, 7, 8, 9):
            gated.store.import_record(won_record(event, 1, n, winner=0))
    cy, ann = phone(gated, "482913", "192.168.1.21"), phone(gated, "482913", "192.168.1.22")
    sheet = SheetModel(cy, eid, 1, 1)
    sheet.confirm("Reds")
    assert sheet.error == "say who you are on the event's page first (I'm ...): a team's captain confirms its sheet"
    EventModel(cy, eid).iam("Cy")
    assert not sheet.can_confirm("Reds")
    sheet.confirm("Reds")
    assert sheet.error == "only Reds's captain (Ann), on the phone holding that seat, or the host confirms Reds's sheet"
    EventModel(ann, eid).iam("Ann")
    mine = SheetModel(ann, eid, 1, 1)
    assert mine.can_confirm("Reds") and not mine.can_confirm("Blues")
    mine.confirm("Reds")
    assert mine.error is None and mine.note.startswith("confirmed for Reds by Ann (captain) at ")
    c = mine.sheet().confirmed("Reds")
    assert c is not None and c.phone == ann.visitor.fingerprint and len(c.phone) == 16
    assert mine.sheet().confirmed("Blues") is None
    # a third phone saying "I'm Ann" is refused while Ann's phone holds the seat, and cannot confirm
    third = phone(gated, "482913", "192.168.1.23")
    page = EventModel(third, eid)
    page.iam("ann")
    assert page.error.startswith("Ann's seat is held by another phone (") and "tap Change" in page.error
    assert page.me is None and not SheetModel(third, eid, 1, 1).can_confirm("Reds")
    # the host confirms for the Blues, marked as the host's; only the host re-opens
    host = SheetModel(gated, eid, 1, 1)
    host.confirm("Blues")
    assert host.error is None and host.sheet().confirmed("Blues").words == "the host"
    mine.reopen()
    assert mine.error == "only the host re-opens a confirmed sheet" and mine.sheet().signed
    host.reopen()
    assert host.error is None and mine.sheet().confirmations == ()
    assert mine.sheet().reopenings[0].words().endswith("Reds by Ann (captain); 9-0 for Blues by the host")


def test_an_unknown_event_is_said_in_place(shared):
    page = EventModel(shared, "nope")
    assert page.event() is None and page.error == "no event 'nope' (see 'scorekeeper event list')"
    assert StandingsModel(shared, "nope").rows() == (None, [])
    assert SheetModel(shared, "nope", 1, 1).sheet() is None


def test_the_night_sheet_follows_the_matches_and_a_league_is_told_in_place(shared):
    eid = make(shared, target="5")
    night = NightModel(shared, eid)
    assert night.sheet().heading == "Standings: no table played yet" and night.error is None
    page = EventModel(shared, eid)
    page.open_round(1)
    event = page.event()
    with shared.lock:
        shared.store.import_record(won_record(event, 1, 2, winner=1))  # Cy beats Ben 5-0
    sheet = night.sheet()
    assert [t.words for t in sheet.rounds[0].tables] == ["Table 1: Ann v Di: in play", "Table 2: Ben v Cy: 0-5, Cy"]
    assert [night.label(s) for s in sheet.standings][:2] == [
        "1. Cy: played 1, won 1, lost 0, points 5-0 (+5), score 1",
        "2. Ann: played 0, won 0, lost 0, points 0-0 (0), score 0",
    ]
    assert night.csv_name == f"night-sheet-{eid}.csv"
    league = make(shared, format="league", teams="Reds: Ann, Cy\nBlues: Ben, Di\n", players="")
    told = NightModel(shared, league)
    assert (
        told.sheet() is None
        and told.error == "a league's result sheets are its fixtures': give the round and the fixture"
    )
    assert NightModel(shared, "nope").sheet() is None


def test_the_any_channel_hears_every_match_but_not_its_own_sender():
    hub = Hub()
    heard: list[object] = []
    wall, table = object(), object()
    hub.subscribe(ANY, wall, heard.append)
    hub.publish("m1", table)
    hub.publish("m2", table)
    hub.deliver(ANY, wall)  # the wall's own change: not told back
    assert heard == [table, table]


def test_a_won_event_match_leads_back_to_its_event_and_a_plain_one_does_not(shared):
    from scorekeeper.ui.allfives.table import TableModel

    eid = make(shared, target="5")
    page = EventModel(shared, eid)
    page.open_round(1)
    mine = page.tables(page.event())[0]
    assert TableModel(shared, mine.match).event_route() == f"/event/{eid}"
    with shared.lock:
        plain = shared.store.create({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]})
    assert TableModel(shared, plain).event_route() is None


def test_a_confirmation_is_read_as_a_time_and_a_day():
    import datetime as dt

    from scorekeeper.events.sheets import when

    assert when("2026-05-17T21:58:24Z", dt.UTC) == "21:58 on Sun 17 May 2026"
    assert when("2026-05-17T21:58:24Z", dt.timezone(dt.timedelta(hours=2))) == "23:58 on Sun 17 May 2026"


def test_a_phone_whose_player_has_the_bye_is_told_so_with_its_next_table(shared):
    eid = make(shared, players="Ann, Ben, Cy", target="5")
    page = EventModel(shared, eid)
    event = page.event()
    (sits_out,) = event.rounds[0].byes
    page.open_round(1)
    assert page.note == "round 1 is open: 1 table ready"
    page.iam(sits_out)
    tables = page.tables(event)
    assert page.my_bye(event, tables) == 1
    nxt = page.my_table(event)
    assert nxt.round > 1 and nxt.status == "not opened"  # the next table shown under the bye
    playing = next(p for p in ("Ann", "Ben", "Cy") if p != sits_out)
    page.iam(playing)
    assert page.my_bye(event, page.tables(event)) is None


def test_an_events_file_that_is_a_link_to_nothing_is_said_with_its_path(shared, tmp_path):
    """The app's Events screen says the file cannot be read, naming it: never an empty list
    that a new event would then write over (issue 43)."""
    path = shared.store.path / "events.json"
    path.symlink_to(tmp_path / "gone.json")
    vm = EventsModel(shared)
    assert vm.events() == []
    assert (
        vm.error == f"the events file {path} cannot be read (a link to a file that is not there); nothing was changed"
    )
    make_refused = EventsModel(shared)
    for k, v in {"name": "Club night", "players": "Ann, Ben, Cy, Di"}.items():
        make_refused.set(k, v)
    assert make_refused.create() is None and "cannot be read" in make_refused.error
    assert path.is_symlink()


def test_every_events_screen_that_follows_any_change_takes_its_origin():
    """``use_any_change`` calls a screen's ``tick(origin)``: a view-model whose ``tick`` takes
    no origin would raise on every delivery, and the hub would drop it (the wall stood still)."""
    import inspect

    from scorekeeper.ui.events import model, night_model, sheet_model, wall_model

    models = [model.EventModel, model.StandingsModel, sheet_model.SheetModel, night_model.NightModel]
    models.append(wall_model.WallModel)
    for cls in models:
        inspect.signature(cls.tick).bind(object(), object())  # self, origin
