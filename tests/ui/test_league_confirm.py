"""A league fixture taken from the league a laptop (or phone) is linked to: the league takes a
sheet confirmed by a team's captain only, so the host confirming "for nobody" is refused at
the table, in one line that says what to do, instead of sending a sheet the league refuses;
the host on a captain's word, or holding the captain's seat, confirms, and the sheet goes to
the outbox. A league of the club's own (not taken) keeps the host's own confirmation."""

from __future__ import annotations

import pytest
from events.helpers import won_record

from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import EventBook
from scorekeeper.events import new_event
from scorekeeper.league import club
from scorekeeper.ui.events.model import EventModel
from scorekeeper.ui.events.sheet_model import SheetModel
from scorekeeper.ui.server.shared import open_shared

TEAMS = {"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]}


def league_event(book: EventBook, eid: str):
    event = book.add(new_event(eid, "Reds v Blues", "league", "all-fives", teams=TEAMS, singles=1, legs=1))
    book.store.import_record(won_record(event, 1, 1, winner=0))
    return event


def link(folder, eid: str, fixture: int = 412) -> None:
    """What ``scorekeeper league take`` leaves: the link, with the fixture taken (no league is
    asked here: nothing is sent)."""
    club.save_link(folder, club.Link("http://127.0.0.1:9", "code", "The Plough", {eid: fixture}))


def test_the_host_confirming_for_nobody_is_refused_on_a_fixture_taken_from_the_league(tmp_path):
    from scorekeeper.store import Store

    with Store(tmp_path / "db") as store:
        book = EventBook(store)
        league_event(book, "league-412")
        link(store.path, "league-412")
        with pytest.raises(
            ScorekeeperError, match=r"^by: the league takes Reds's sheet confirmed by its captain \(Ann"
        ):
            book.confirm("league-412", 1, 1, "Reds", "the host", role="host", phone="host")
        assert book.get("league-412").confirmations == () and club.outbox(store.path) == []
        # on the captain's word (a signed paper sheet): kept as the captain's, sent to the league
        c = book.confirm("league-412", 1, 1, "Reds", "Ann", role="host", phone="host")
        assert (c.by, c.role) == ("Ann", "host")
        assert len(club.outbox(store.path)) == 1


def test_a_league_of_the_clubs_own_keeps_the_hosts_own_confirmation(tmp_path):
    from scorekeeper.store import Store

    with Store(tmp_path / "db") as store:
        book = EventBook(store)
        league_event(book, "lg")
        link(store.path, "league-9")  # linked, but this event was not taken from the league
        c = book.confirm("lg", 1, 1, "Reds", "the host", role="host", phone="host")
        assert c.words == "the host" and club.outbox(store.path) == []


def test_the_sheet_tells_the_host_what_the_league_needs_and_the_captains_seat_confirms(tmp_path):
    shared = open_shared(str(tmp_path / "db"))
    try:
        with shared.lock:
            league_event(EventBook(shared.store), "league-412")
            link(shared.store.path, "league-412")
        host = SheetModel(shared, "league-412", 1, 1)
        words = host.needs_captain("Reds")
        assert words is not None and words.startswith("The league takes Reds's sheet confirmed by its captain (Ann")
        assert "I'm Ann" in words
        host.confirm("Reds")  # the button is not shown; the act is refused all the same
        assert host.error is not None and "the league takes Reds's sheet" in host.error
        EventModel(shared, "league-412").iam("Ann")  # the host's phone says who it is
        assert host.needs_captain("Reds") is None and host.needs_captain("Blues") is not None
        host.confirm("Reds")
        assert host.error is None and host.sheet().confirmed("Reds").by == "Ann"
        assert len(club.outbox(shared.store.path)) == 1
    finally:
        shared.close()
