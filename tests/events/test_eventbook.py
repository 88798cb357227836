"""Events kept in the database (events.json, a side file of the store) and their matches
found among the stored ones: imported or played matches with the event field count for
their table, a damaged events file is a clear line and loses nothing, a read-only store
still reads, and the standings are a plain recount of the stored matches (a property)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import FILE, EventBook, EventsFileError
from scorekeeper.events import new_event
from scorekeeper.events.sheets import sheet_of, when
from scorekeeper.store import Store, StoreError

from .helpers import won_record

FOUR = ["Ann", "Ben", "Cy", "Di"]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "db"


def test_an_event_is_kept_and_read_back(db):
    event = new_event("club-1", "Club night", "round-robin", "all-fives", players=FOUR, preset="muggins")
    with Store(db) as store:
        kept = EventBook(store).add(event)
        assert kept.created
    with Store(db, read_only=True) as store:
        assert EventBook(store).events() == [kept]
    data = json.loads((db / FILE).read_text(encoding="utf-8"))
    assert data["schema"] == 1 and data["events"][0]["id"] == "club-1"
    assert not [p for p in os.listdir(db) if ".tmp-" in p], "written through the store's atomic write"


def test_the_id_must_be_free_and_an_unknown_one_is_said(db):
    with Store(db) as store:
        book = EventBook(store)
        book.add(new_event("e1", "N", "round-robin", "all-fives", players=FOUR))
        with pytest.raises(ScorekeeperError, match="there is already an event e1"):
            book.add(new_event("e1", "N", "round-robin", "all-fives", players=FOUR))
        with pytest.raises(ScorekeeperError, match=r"no event 'nope' \(see 'scorekeeper event list'\)"):
            book.get("nope")


def test_a_read_only_store_reads_but_does_not_write(db):
    with Store(db) as store:
        EventBook(store).add(new_event("e1", "N", "swiss", "all-fives", players=FOUR, rounds=2))
    with Store(db, read_only=True) as store:
        book = EventBook(store)
        assert [s.name for s in book.standings("e1")] == FOUR
        with pytest.raises(StoreError, match="opened read-only"):
            book.add(new_event("e2", "N", "round-robin", "all-fives", players=FOUR))


@pytest.mark.parametrize(
    "content, why",
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[]", 'not an object with a list of "events"'),
        (b'{"schema": 1, "events": [{"id": "x"}]}', "event 1: name: an event's name must be a non-empty string"),
        (b'{"schema": "1", "events": []}', "schema '1' is not 1"),
    ],
)
def test_a_damaged_events_file_is_one_line_and_is_never_written_over(db, content, why):
    with Store(db) as store:
        EventBook(store).add(new_event("e1", "N", "round-robin", "all-fives", players=FOUR))
    (db / FILE).write_bytes(content)
    with Store(db) as store:
        book = EventBook(store)
        for action in (book.events, lambda: book.add(new_event("e2", "N", "round-robin", "all-fives", players=FOUR))):
            with pytest.raises(EventsFileError) as e:
                action()
            assert why in str(e.value) and "it is left as it is and nothing was changed" in str(e.value)
            assert "\n" not in str(e.value)
    assert (db / FILE).read_bytes() == content


def test_a_newer_events_file_is_refused(db):
    Store(db).close()
    (db / FILE).write_text('{"schema": 2, "events": []}', encoding="utf-8")
    with Store(db) as store, pytest.raises(EventsFileError, match="written by a newer Scorekeeper"):
        EventBook(store).events()


def test_opening_a_round_creates_every_tables_match_once(db):
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(new_event("e1", "Night", "round-robin", "all-fives", players=FOUR, preset="muggins"))
        tables = book.open_round("e1", 1)
        assert list(tables) == [1, 2]
        record = store.record(tables[1])
        assert record["event"] == {"id": "e1", "round": 1, "table": 1}
        assert record["players"] == list(event.table(1, 1).players)
        preset = next(p for p in registry.presets_of(registry.get("all-fives")) if p.id == "muggins")
        assert record["rules"] == dict(preset.rules)
        assert book.open_round("e1", 1) == tables, "opened again: the same matches"


def test_doubles_tables_make_partnership_matches(db):
    event = new_event(
        "lg",
        "L",
        "league",
        "all-fives",
        teams={"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]},
        singles=0,
        doubles=1,
        legs=1,
    )
    assert event.rounds[0].tables[0].title in {
        "Ann & Cy v Ben & Di",
        "Cy & Ann v Ben & Di",
        "Ann & Cy v Di & Ben",
        "Cy & Ann v Di & Ben",
    }
    record = event.record_for(1, 1)
    assert len(record["players"]) == 4 and len(record["teams"]) == 2
    assert record["players"][0] in ("Ann", "Cy") and record["players"][1] in ("Ben", "Di"), "partners sit opposite"


def test_the_night_sheet_reads_the_stored_matches_won_and_in_play(db):
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(new_event("e1", "Night", "round-robin", "all-fives", players=FOUR))
        store.import_record(won_record(event, 1, 1, winner=0, big=True))  # Ann beats Di 15-5
        book.open_round("e1", 2)  # both tables of round 2: stored, not finished
        store.import_record(won_record(event, 2, 2, winner=1))  # and one of them won since (5-0)
        lg = book.add(new_event("lg", "L", "league", "all-fives", teams={"R": ["Ed"], "B": ["Flo"]}, singles=1))
        sheet = book.night("e1")
        with pytest.raises(ScorekeeperError, match="a league's result sheets are its fixtures'"):
            book.night(lg.id)
    assert [t.words for r in sheet.rounds for t in r.tables] == [
        "Table 1: Ann v Di: 15-5, Ann",
        "Table 2: Ben v Cy: not played",
        "Table 1: Cy v Di: in play",
        "Table 2: Ann v Ben: 0-5, Ben",
        "Table 1: Ben v Di: not played",
        "Table 2: Ann v Cy: not played",
    ]
    assert sheet.heading == "Standings so far: 2 tables played (round 1 is not finished)"


def test_an_imported_match_counts_for_its_table_and_other_players_do_not(db):
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(new_event("e1", "Night", "round-robin", "all-fives", players=FOUR))
        store.import_record(won_record(event, 1, 1, winner=0, big=True))  # Ann beats Di 15-5
        wrong = won_record(event, 1, 1, winner=0)
        wrong["players"] = ["Ann", "Ben"]  # not drawn together at round 1, table 1
        wrong["hands"][0]["leader"] = "Ann"
        store.import_record(wrong)
        other = won_record(event, 1, 2, winner=0)
        other["event"]["id"] = "another-event"
        store.import_record(other)
        rows = {r.name: r for r in book.standings("e1")}
    assert (rows["Ann"].won, rows["Ann"].points_for, rows["Di"].points_for) == (1, 15, 5)
    assert rows["Ben"].played == 0 and rows["Cy"].played == 0


def test_an_unfinished_match_does_not_count_until_it_is_won(db):
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(new_event("e1", "Night", "round-robin", "all-fives", players=FOUR))
        mid = book.open_round("e1", 1)[1]
        assert all(r.played == 0 for r in book.standings("e1"))
        leader = event.table(1, 1).sides[0][0]
        store.append(mid, {"hand": {"leader": leader}})
        assert all(r.played == 0 for r in book.standings("e1"))
        store.append(mid, {"turn": {"play": "5-5"}})
        store.append(mid, {"turn": {"play": "5-0", "on": "5-5"}})
        assert all(r.played == 0 for r in book.standings("e1"))


def test_import_and_export_keep_the_event_field_byte_for_byte(db, tmp_path):
    from support import run_cli

    event = new_event("e1", "Night", "round-robin", "all-fives", players=FOUR)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(won_record(event, 2, 1, winner=1), indent=2) + "\n", encoding="utf-8")
    mid = run_cli("--db", db, "import", path).stdout.strip()
    first = run_cli("--db", db, "export", mid).stdout
    assert json.loads(first)["event"] == {"id": "e1", "round": 2, "table": 1}
    (tmp_path / "again.json").write_text(first, encoding="utf-8")
    mid2 = run_cli("--db", db, "import", tmp_path / "again.json").stdout.strip()
    assert run_cli("--db", db, "export", mid2).stdout == first


def test_next_round_and_confirm_are_kept(db):
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(
            new_event("lg", "L", "league", "all-fives", teams={"Reds": ["Ann"], "Blues": ["Ben"]}, singles=1, legs=1)
        )
        with pytest.raises(ScorekeeperError, match="not complete: no result yet at table 1"):
            book.confirm("lg", 1, 1, "Reds", "Ann")
        store.import_record(won_record(event, 1, 1, winner=1))
        with pytest.raises(
            ScorekeeperError, match=r"^by: 'Ben' is not Reds's captain \(Ann\): each team's captain confirms its sheet"
        ):
            book.confirm("lg", 1, 1, "Reds", "Ben")
        c = book.confirm("lg", 1, 1, "Reds", "ann", phone="0123456789abcdef")
        assert (c.team, c.by, c.games, c.role, c.phone) == ("Reds", "Ann", (0, 1), "captain", "0123456789abcdef")
        assert c.at
    with Store(db, read_only=True) as store:
        assert EventBook(store).get("lg").confirmations == (c,)


def test_a_vice_captain_or_the_host_confirms_and_only_the_host_reopens_a_locked_sheet(db):
    teams = {"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]}
    with Store(db) as store:
        book = EventBook(store)
        event = book.add(
            new_event("lg", "L", "league", "all-fives", teams=teams, vices={"Reds": "cy"}, singles=1, legs=1)
        )
        assert event.team("Reds").vice == "Cy" and event.team("Blues").vice is None
        record = won_record(event, 1, 1, winner=0)
        store.import_record(record)
        assert book.sheet_lock(record) is None  # not confirmed yet: the match may change
        with pytest.raises(ScorekeeperError, match=r"not Blues's captain \(Ben\)"):
            book.confirm("lg", 1, 1, "Blues", "Di")
        vice = book.confirm("lg", 1, 1, "Reds", "Cy", phone="00000000000000aa")
        assert (vice.by, vice.role, vice.words) == ("Cy", "vice-captain", "Cy (vice-captain)")
        host = book.confirm("lg", 1, 1, "Blues", "Ben", role="host", phone="host")
        assert (host.role, host.words) == ("host", "the host, for Ben")
        locked = book.sheet_lock(record)
        assert locked and locked.startswith("the result sheet of Reds v Blues (round 1) is confirmed")
        r = book.reopen("lg", 1, 1)
        assert r.was == (vice, host)
        again = book.get("lg")
        assert again.confirmations == () and again.reopened == (r,)
        assert book.sheet_lock(record) is None
        with pytest.raises(ScorekeeperError, match="is not confirmed: nothing to re-open"):
            book.reopen("lg", 1, 1)
        sheet = sheet_of(again, 1, 1, book.results(again))
        assert [x.words() for x in sheet.reopenings] == [
            f"re-opened by the host at {when(r.at)}: it was confirmed 1-0 for Reds by Cy (vice-captain); "
            "1-0 for Blues by the host, for Ben"
        ]
        assert "re-opened by the host" in sheet.text()
    with Store(db, read_only=True) as store:  # kept as written
        assert EventBook(store).get("lg") == again


def test_a_team_changes_its_players_and_vice_captain_but_keeps_those_drawn(db):
    with Store(db) as store:
        book = EventBook(store)
        book.add(new_event("lg", "L", "league", "all-fives", teams={"Reds": ["Ann"], "Blues": ["Ben"]}, singles=1))
        changed = book.set_team("lg", "reds", ["Ann", "Eve"], vice="Eve")
        assert changed.team("Reds").players == ("Ann", "Eve") and changed.team("Reds").vice == "Eve"
        with pytest.raises(ScorekeeperError, match="Ann is drawn in Reds's games"):
            book.set_team("lg", "Reds", ["Eve"])
        with pytest.raises(ScorekeeperError, match="Ben"):
            book.set_team("lg", "Reds", ["Ann", "Ben"])  # a player of another team
        with pytest.raises(ScorekeeperError, match="no team 'Greens'"):
            book.set_team("lg", "Greens", ["Zed"])


# ------------------------------------------------------------ the property
def plain_recount(store, event):
    """The standings' counts the plainest way: every stored record read and replayed."""
    rows = {n: {"played": 0, "won": 0, "lost": 0, "for": 0, "against": 0} for n in event.players}
    last = {}
    for m in sorted(store.list(limit=None), key=lambda m: (m["created"], m["id"])):
        record = store.record(m["id"])
        ref = record.get("event")
        if not ref or ref["id"] != event.id:
            continue
        match = registry.get(record["game"]).load(record)
        if match.winner is None:
            continue
        table = event.rounds[ref["round"] - 1].tables[ref["table"] - 1]
        if {_text.name_key(p) for p in record["players"]} != {_text.name_key(p) for p in table.players}:
            continue
        last[(ref["round"], ref["table"])] = (record["players"], match.scores, match.winner)
    for players, scores, winner in last.values():
        for i, p in enumerate(players):
            row = rows[p]
            row["played"] += 1
            row["won" if i == winner else "lost"] += 1
            row["for"] += scores[i]
            row["against"] += scores[1 - i]
    return rows


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_standings_are_a_plain_recount_of_the_stored_matches(tmp_path_factory, data):
    db = tmp_path_factory.mktemp("prop")
    n = data.draw(st.integers(3, 6), label="players")
    players = FOUR[:n] if n <= 4 else [*FOUR, "Ed", "Flo"][:n]
    event = new_event("e1", "N", "round-robin", "all-fives", players=players)
    tables = [(r.number, t.number) for r in event.rounds for t in r.tables]
    plays = data.draw(
        st.lists(st.tuples(st.sampled_from(tables), st.integers(0, 1), st.booleans(), st.booleans()), max_size=8),
        label="matches",
    )
    with Store(db) as store:
        book = EventBook(store)
        book.add(event)
        for (rnd, tab), winner, big, stray in plays:
            record = won_record(event, rnd, tab, winner, big)
            if stray:  # the same players at another table: does not count there
                record["event"]["table"] = tab % len(event.rounds[rnd - 1].tables) + 1
            store.import_record(record)
        rows = book.standings("e1")
        want = plain_recount(store, event)
    got = {
        r.name: {"played": r.played, "won": r.won, "lost": r.lost, "for": r.points_for, "against": r.points_against}
        for r in rows
    }
    assert got == want
    assert all(r.score == r.won for r in rows)
    keys = [(-r.score, -(r.points_for - r.points_against)) for r in rows]
    assert keys == sorted(keys), "in rank order"


def test_an_events_file_that_cannot_be_read_and_unknown_events(db):
    with Store(db) as store:
        book = EventBook(store)
        with pytest.raises(ScorekeeperError, match=r"^no event 'e9'$"):
            book.put(new_event("e9", "N", "round-robin", "all-fives", players=FOUR))
        with pytest.raises(ScorekeeperError, match=r"^no event 'e9'$"):
            book.remove("e9")
        book.add(new_event("e1", "N", "round-robin", "all-fives", players=FOUR))
        book.remove("e1")
        assert book.events() == []
    (db / FILE).unlink()
    (db / FILE).mkdir()  # no file of ours: nothing read, nothing written over
    with Store(db) as store, pytest.raises(EventsFileError) as e:
        EventBook(store).events()
    assert "cannot be read (not a regular file); nothing was changed" in str(e.value)
    assert (db / FILE).is_dir()


def test_an_events_file_that_cannot_be_written(db, monkeypatch):
    from scorekeeper.store import sidefile

    def full(*_args, **_kw):
        raise OSError(28, "No space left on device")

    with Store(db) as store:
        monkeypatch.setattr(sidefile, "atomic_write", full)
        with pytest.raises(
            StoreError, match=r"the events could not be saved \(No space left on device\); nothing was changed"
        ):
            EventBook(store).add(new_event("e1", "N", "round-robin", "all-fives", players=FOUR))
    assert not (db / FILE).exists()
