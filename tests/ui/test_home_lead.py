"""Each phone's own night (issue 44): Home on a phone that joined leads with its player's
tables at the event being played (every one of them: a league player is drawn at several at
once), or the event itself while it has not said who it is; never another table's match.
The host's screen leads with the match changed last; a phone that holds a seat at a match
leads with that match. A phone the table shares is asked whose it is before the first entry
only: entering without an answer makes it nobody's."""

from __future__ import annotations

import pytest

from scorekeeper.events import new_event
from scorekeeper.ui.access.gate import Codes, Gate
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.events.model import EventModel, home_lead
from scorekeeper.ui.server.shared import open_shared

CODES = Codes("482913", "771204")


@pytest.fixture
def night(tmp_path):
    """A league night (Reds: Ann, Cy; Blues: Ben, Di; two singles games a fixture), round 1
    opened, and a match of another table changed last."""
    shared = open_shared(str(tmp_path / "db"), gate=Gate(CODES))
    with shared.lock:
        shared.events.add(
            new_event(
                "lg",
                "League night",
                "league",
                "all-fives",
                teams={"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]},
                singles=4,
            )
        )
        tables = shared.events.open_round("lg", 1)
    yield shared, tables
    shared.close()


def phone(shared, n=7):
    view = shared.visit(f"192.168.1.{n}")
    assert view.visitor.join(CODES.scorer)
    return view


def test_a_joined_phone_leads_with_its_own_tables_never_another_tables_match(night):
    shared, tables = night
    ann = phone(shared)
    lead = home_lead(ann)
    assert lead.match is None and lead.event.name == "League night" and lead.tables == ()  # not said who it is
    EventModel(ann, "lg").iam("Ann")
    lead = home_lead(ann)
    assert lead.match is None
    # four singles games a fixture, two players a team: Ann is drawn at two tables at once
    assert [(t.number, t.title, t.status) for t in lead.tables] == [
        (1, "Ann v Ben", "in play"),
        (3, "Ann v Di", "in play"),
    ]
    assert [t.number for t in EventModel(ann, "lg").my_tables(lead.event)] == [1, 3]
    # the host's screen leads with the match changed last, as before
    assert home_lead(shared).match is not None
    # once the phone is Ann's at one of them, that match leads
    EventModel(ann, "lg").sit(lead.tables[1])
    assert home_lead(ann).match["id"] == tables[3]


def test_with_no_event_a_joined_phone_leads_with_the_match_in_play(tmp_path):
    shared = open_shared(str(tmp_path / "db"), gate=Gate(CODES))
    try:
        form = NewMatchForm(shared, names=["Ann", "Ben"])
        form.set_leader("Ann")
        mid = form.start()
        assert home_lead(phone(shared)).match["id"] == mid  # a kitchen table's one match
    finally:
        shared.close()


def test_a_phone_that_enters_without_saying_whose_it_is_is_asked_no_more(night):
    shared, tables = night
    shared_phone, ann = phone(shared, 7), phone(shared, 8)
    table = TableModel(shared_phone, tables[1])
    assert table.ask_seat
    table.hand_end.start_hand("Ann")  # the first entry: who leads
    assert table.error is None and not table.ask_seat and table.seat is None  # nobody's: the table's phone
    other = TableModel(ann, tables[1])
    assert other.ask_seat  # a phone that has entered nothing is still asked (before a note, in the view)
    other.take_seat("Ann")
    assert not other.ask_seat and other.seat == "Ann"
