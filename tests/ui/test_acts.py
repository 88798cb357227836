"""Every act as every kind of browser (issue 43): each cell of the rules' table
(:data:`scorekeeper.ui.shell.policy.RULES`, shown in docs/security.md) is driven through the
real view-models of a table served with codes, and what happened is compared with the cell.

A browser is the host (loopback), a seated scorer (joined with the table code, holding a
seat at the act's place), an unseated scorer, a watcher (the watch code) or a stranger (no
code). "yes": the act was done; "no": refused with words, nothing changed; "asks": not done
at once, done when a phone of the other side agreed; "own": done for its own seat, refused
for another's (both are driven)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from events.helpers import won_record

from scorekeeper.events import new_event
from scorekeeper.ui.access.gate import Codes, Gate
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.app.main import paths, shows_join
from scorekeeper.ui.events.model import EventModel, EventsModel, seat_key
from scorekeeper.ui.events.sheet_model import SheetModel
from scorekeeper.ui.history.model import HistoryModel
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.server.shared import open_shared
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.policy import RULES, Act, Cell, Who, markdown_table
from ui.test_send_to_table import call, guarded

CODES = Codes("482913", "771204")
ROOT = Path(__file__).resolve().parents[2]


def won(names: tuple[str, str] = ("Ann", "Ben"), title: str | None = None) -> dict:
    """A finished All Fives match: Ann's lead 5-0 reaches a target of 5."""
    record = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": list(names),
        "rules": {"target": 5},
        "hands": [{"leader": names[0], "turns": [{"play": "5-0"}]}],
    }
    if title:
        record["title"] = title
    return record


class World:
    """A fresh database served with codes: a match in play and a won one (Ann v Ben), a
    league (Reds: Ann, Cy; Blues: Ben, Di; a game a fixture, home and away) whose first
    fixture is played, and phones to act with."""

    def __init__(self, tmp_path: Path) -> None:
        self.shared = open_shared(str(tmp_path / "db"), gate=Gate(CODES))
        self._phones = 0
        host = self.view(Who.HOST)
        form = NewMatchForm(host, names=["Ann", "Ben"])
        form.set_leader("Ann")
        self.play = form.start()
        assert self.play
        with self.shared.lock:
            self.won = self.shared.store.import_record(won())
            self.event = self.shared.events.add(
                new_event(
                    "lg",
                    "League",
                    "league",
                    "all-fives",
                    teams={"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]},
                    singles=1,
                )
            )
            self.league_match = self.shared.store.import_record(won_record(self.event, 1, 1, winner=0))

    def view(self, who: Who) -> Shared:
        """A browser of that kind (a seated scorer holds no seat yet: the act's driver seats it)."""
        self._phones += 1
        if who is Who.HOST:
            return self.shared.visit("127.0.0.1")
        view = self.shared.visit(f"192.168.1.{self._phones + 10}")
        if who in (Who.SEATED, Who.UNSEATED):
            assert view.visitor.join(CODES.scorer)
        elif who is Who.WATCHER:
            assert view.visitor.join(CODES.watcher)
        return view

    def record(self, mid: str) -> dict:
        with self.shared.lock:
            return self.shared.store.record(mid)

    def sit(self, view: Shared, who: Who, place: str, player: str) -> None:
        """The seated scorer (and, where the act needs it, the host) takes ``player``'s seat."""
        if who in (Who.SEATED, Who.HOST):
            view.visitor.take_seat(place, player)


Driver = Callable[[World, Who], str]


def _turns(world: World, mid: str) -> int:
    return sum(len(h.get("turns") or []) for h in world.record(mid).get("hands") or [])


def d_join(w: World, who: Who) -> str:
    v = w.view(who)
    return "yes" if v.visitor.join(CODES.scorer) and v.visitor.role is not None else "no"


def d_watch(w: World, who: Who) -> str:
    v = w.view(who)
    if shows_join(v):
        return "no"
    return "yes" if TableModel(v, w.play).match is not None and "table/:mid" in paths(v) else "no"


def d_history(w: World, who: Who) -> str:
    v = w.view(who)
    h = HistoryModel(v)
    return "yes" if h.error is None and h.items and h.export(w.won) else "no"


def d_invite(w: World, who: Who) -> str:
    v = w.view(who)
    v.invite = object()  # served to phones: the invite screen is a route
    return "yes" if "invite" in paths(v) else "no"


def d_renew(w: World, who: Who) -> str:
    v = w.view(who)
    before = w.shared.gate.epoch
    return "yes" if v.end_passes(new_codes=False) is None and w.shared.gate.epoch == before + 1 else "no"


def d_start(w: World, who: Who) -> str:
    v = w.view(who)
    form = NewMatchForm(v, names=["Eve", "Fay"])
    form.set_leader("Eve")
    return "yes" if form.start() else "no"


def d_enter(w: World, who: Who) -> str:
    v = w.view(who)
    w.sit(v, who, w.play, "Ann")
    before = _turns(w, w.play)
    TableModel(v, w.play).play.tap("5-5")
    return "yes" if _turns(w, w.play) == before + 1 else "no"


def d_adjust(w: World, who: Who) -> str:
    with w.shared.lock:  # a match between hands: an adjustment comes between them
        mid = w.shared.store.create({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"]})
    v = w.view(who)
    w.sit(v, who, mid, "Ann")
    part = TableModel(v, mid).entries
    part.open_adjust()
    if not part.open:
        return "no"
    part.set_text(1, "-5")
    part.set_why("misdeal")
    part.save()
    return "yes" if w.record(mid).get("hands") == [{"adjust": {"Ben": -5}, "why": "misdeal"}] else "no"


def d_change_finished(w: World, who: Who) -> str:
    ben = w.view(Who.SEATED)
    ben.visitor.take_seat(w.won, "Ben")  # the other side holds its seat
    v = w.view(who)
    w.sit(v, who, w.won, "Ann")
    TableModel(v, w.won).undo()
    if _turns(w, w.won) == 0:
        return "yes"
    if TableModel(v, w.won).asks.open is None:
        return "no"
    TableModel(ben, w.won).asks.agree()
    return "asks" if _turns(w, w.won) == 0 else "no"


def d_agree(w: World, who: Who, own: bool = True) -> str:
    v = w.view(who)
    if who is Who.SEATED and own:
        v.visitor.take_seat(w.won, "Ben")  # a seat of the side asked
    else:
        w.view(Who.SEATED).visitor.take_seat(w.won, "Ben")  # Ben's seat is held elsewhere
    ann = w.view(Who.SEATED)
    ann.visitor.take_seat(w.won, "Ann")
    TableModel(ann, w.won).undo()  # asks Ben's side
    assert _turns(w, w.won) == 1 and TableModel(ann, w.won).asks.open is not None
    TableModel(v if own else ann, w.won).asks.agree()  # (not its own: the side that asked)
    return "yes" if _turns(w, w.won) == 0 else "no"


def d_take_seat(w: World, who: Who) -> str:
    v = w.view(who)
    w.sit(v, who, w.play, "Ann")
    TableModel(v, w.play).take_seat("Ben")
    return "yes" if v.visitor.seat(w.play) == "Ben" else "no"


def d_leave_seat(w: World, who: Who) -> str:
    v = w.view(who)
    w.sit(v, who, w.play, "Ann")
    had = v.visitor.seat(w.play)
    TableModel(v, w.play).take_seat(None)
    return "yes" if had is not None and v.visitor.seat(w.play) is None else "no"


def d_seats(w: World, who: Who) -> str:
    phone = w.view(Who.SEATED)
    phone.visitor.take_seat(w.play, "Ann")
    v = w.view(who)
    return "yes" if v.free_seat(w.play, "Ann") is None and phone.visitor.seat(w.play) is None else "no"


def d_import(w: World, who: Who) -> str:
    v = w.view(who)
    return "yes" if HistoryModel(v).import_text(json.dumps(won(("Eve", "Fay")))) else "no"


def d_import_event(w: World, who: Who) -> str:
    v = w.view(who)
    return "yes" if HistoryModel(v).import_text(json.dumps(won_record(w.event, 1, 1, winner=1))) else "no"


def d_names(w: World, who: Who) -> str:
    v = w.view(who)
    return "yes" if PlayersModel(v).rename("ann", "Annie") else "no"


def d_event_new(w: World, who: Who) -> str:
    v = w.view(who)
    form = EventsModel(v)
    form.set("name", "Club night")
    form.set("players", "Ann, Ben, Cy, Di")
    return "yes" if form.create() else "no"


def d_event_delete(w: World, who: Who) -> str:
    return "yes" if EventModel(w.view(who), "lg").delete() else "no"


def d_event_round(w: World, who: Who) -> str:
    before = len(w.shared.store.list(limit=None))
    page = EventModel(w.view(who), "lg")
    page.open_round(2)
    return "yes" if page.error is None and len(w.shared.store.list(limit=None)) == before + 1 else "no"


def d_event_players(w: World, who: Who) -> str:
    page = EventModel(w.view(who), "lg")
    done = page.set_team("Reds", "Ann, Cy, Eve", "Eve")
    return "yes" if done and page.event().team("Reds").vice == "Eve" else "no"


def d_confirm(w: World, who: Who, own: bool = True) -> str:
    v = w.view(who)
    w.sit(v, who, seat_key("lg"), "Ann" if own else "Di")  # Reds' captain, or a Blues player
    sheet = SheetModel(v, "lg", 1, 1)
    sheet.confirm("Reds")
    return "yes" if sheet.sheet().confirmed("Reds") is not None else "no"


class _League:
    """A real league service (SQLite, a thread of this process), started for the first
    driver that needs it; ``link_text()``: its QR code's link with a club's code."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.served: Any = None
        self.db: Any = None
        self.code = ""

    def link_text(self) -> str:
        if self.served is None:
            from league.helpers import Served, plan

            from scorekeeper.league.book import League
            from scorekeeper.league.db import connect
            from scorekeeper.league.migrate import migrate

            self.db = connect(f"sqlite:///{self.folder / 'league.db'}", pool=2)
            migrate(self.db)
            lg = League(self.db)
            lg.add_season(plan(), "Sue")
            self.code = lg.new_code(lg.fixtures()[0].home.club_id, "Sue")
            self.served = Served(self.db)
        return f"{self.served.url}/link#{self.code}"

    def stop(self) -> None:
        if self.served is not None:
            self.served.stop()
            self.db.close()


_LEAGUE: list[_League] = []


@pytest.fixture(scope="module", autouse=True)
def _a_league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    _LEAGUE.append(_League(tmp_path_factory.mktemp("league")))
    yield
    _LEAGUE.pop().stop()


def d_league(w: World, who: Who) -> str:
    """Link this app to a league by the secretary's QR link (a real service); the screen's
    route is there only for whom may."""
    from aio import run

    from scorekeeper.league import club
    from scorekeeper.ui.events.league_model import LeagueModel

    v = w.view(who)
    if shows_join(v):
        return "no"
    vm = LeagueModel(v)
    vm.set("typed", _LEAGUE[0].link_text())
    linked = run(vm.connect())
    folder = Path(w.shared.store.path)
    pusher = club.pusher_of(folder)
    if pusher is not None:
        pusher.stop()
    done = linked and club.link_of(folder) is not None and vm.fixtures
    assert bool(done) == ("events/league" in paths(v)), "the screen's route is the act's"
    return "yes" if done else "no"


def d_reopen(w: World, who: Who) -> str:
    SheetModel(w.view(Who.HOST), "lg", 1, 1).confirm("Reds")
    sheet = SheetModel(w.view(who), "lg", 1, 1)
    sheet.reopen()
    return "yes" if sheet.sheet().confirmations == () else "no"


DRIVERS: dict[Act, Callable[..., str]] = {
    Act.JOIN: d_join,
    Act.WATCH: d_watch,
    Act.HISTORY: d_history,
    Act.INVITE: d_invite,
    Act.RENEW: d_renew,
    Act.START: d_start,
    Act.ENTER: d_enter,
    Act.ADJUST: d_adjust,
    Act.CHANGE_FINISHED: d_change_finished,
    Act.AGREE: d_agree,
    Act.TAKE_SEAT: d_take_seat,
    Act.LEAVE_SEAT: d_leave_seat,
    Act.SEATS: d_seats,
    Act.IMPORT: d_import,
    Act.IMPORT_EVENT: d_import_event,
    Act.NAMES: d_names,
    Act.EVENT_NEW: d_event_new,
    Act.EVENT_DELETE: d_event_delete,
    Act.EVENT_ROUND: d_event_round,
    Act.EVENT_PLAYERS: d_event_players,
    Act.CONFIRM: d_confirm,
    Act.REOPEN: d_reopen,
    Act.LEAGUE: d_league,
}
EXPECTED = {Cell.YES: "yes", Cell.NO: "no", Cell.ASK: "asks", Cell.OWN: "yes"}


def test_every_act_has_a_driver():
    assert set(DRIVERS) == set(Act)


@pytest.mark.parametrize("who", list(Who), ids=lambda w: w.name.lower())
@pytest.mark.parametrize("act", list(Act), ids=lambda a: a.name.lower())
def test_every_act_as_every_browser_is_what_the_table_says(tmp_path, act, who):
    world = World(tmp_path)
    try:
        assert DRIVERS[act](world, who) == EXPECTED[RULES[act][who]]
    finally:
        world.shared.close()


@pytest.mark.parametrize("act", [a for a in Act if RULES[a][Who.SEATED] is Cell.OWN and a is not Act.LEAVE_SEAT])
def test_an_own_act_for_another_seat_is_refused(tmp_path, act):
    world = World(tmp_path)
    try:
        assert DRIVERS[act](world, Who.SEATED, own=False) == "no"
    finally:
        world.shared.close()


def test_docs_security_shows_the_rules_as_the_code_has_them():
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    assert markdown_table() in text


@pytest.mark.parametrize("who", [Who.HOST, Who.UNSEATED, Who.WATCHER, Who.STRANGER], ids=lambda w: w.name.lower())
@pytest.mark.parametrize("act", [Act.IMPORT, Act.IMPORT_EVENT], ids=lambda a: a.name.lower())
def test_a_match_sent_to_the_table_meets_the_same_rules(tmp_path, act, who):
    """``POST /matches`` (a phone's finished match, sent with its pass or a code in a header)
    through the guard as it is served: the same cells as History -> Import (a sender holds
    no seat: a scorer's pass is an unseated scorer)."""
    world = World(tmp_path)
    try:
        record = won(("Eve", "Fay")) if act is Act.IMPORT else won_record(world.event, 1, 1, winner=1)
        role = {Who.UNSEATED: Role.SCORER, Who.WATCHER: Role.WATCHER}.get(who)
        headers = {"x-scorekeeper-pass": world.shared.gate.passes.issue(role)} if role else {}
        address = "127.0.0.1" if who is Who.HOST else "192.168.1.40"
        status, answer = call(guarded(world.shared), json.dumps(record).encode(), address=address, headers=headers)
        done = "yes" if status == 200 and answer.get("result") == "stored" else "no"
        assert done == EXPECTED[RULES[act][who]], answer
        if done == "no" and who is Who.UNSEATED:
            assert answer["error"].startswith("not stored: a match of an event's table is imported by the host only")
    finally:
        world.shared.close()
