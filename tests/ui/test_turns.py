"""Four phones, one table (issue 27): a tap never becomes another player's play without the
phone saying so, and of two phones racing exactly one entry is made, the other told which.

A phone that is one player's ("I'm Ben") and taps while Ann is to play is asked "Enter 6-5
for Ann?" and nothing is entered until it says yes; a phone that is nobody's (the host
laptop, a phone that only scores) enters for the player to play, as before. Of two taps
at the same moment, the one that reaches the store second finds the match changed while
it held the store, is refused, and names the first ("Ann's 6-6 came first")."""

from __future__ import annotations

import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.shell.base import Shared, stale
from ui.test_live import Phone, served

PLAYERS = ["Ann", "Ben", "Cy", "Di"]
ADDRESSES = ["192.168.1.11", "192.168.1.12", "192.168.1.13", "192.168.1.14"]


def four_player_match(shared: Shared) -> str:
    form = NewMatchForm(shared, names=list(PLAYERS))
    form.set_leader("Ann")
    mid = form.start()
    assert mid, form.error
    return mid


def seated(shared: Shared, mid: str) -> dict[str, Phone]:
    """A phone per player, each taking its player's seat (and the host laptop, nobody's)."""
    phones = {"host": Phone(shared, mid, "127.0.0.1")}
    for name, address in zip(PLAYERS, ADDRESSES, strict=True):
        phone = Phone(shared, mid, address, "482913")
        phone.table.take_seat(name)
        phones[name] = phone
    return phones


def two_player_match(shared: Shared) -> str:
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    form.set_leader("Ann")
    mid = form.start()
    assert mid, form.error
    return mid


def turns(shared: Shared, mid: str) -> list[dict]:
    return shared.store.record(mid)["hands"][-1]["turns"]


def players_of(shared: Shared, mid: str) -> list[str]:
    """Who set each turn of the hand, as the engine says (turns go round from the leader)."""
    m = shared.store.match(mid)
    return [m.setup.players[t.player] for t in m.hand.turns] if m.hand else []


def test_a_tap_out_of_turn_asks_for_whom_and_enters_nothing_until_told(tmp_path):
    shared = served(tmp_path)
    mid = four_player_match(shared)
    phones = seated(shared, mid)
    ben = phones["Ben"].table
    ben.play.tap("6-5")  # Ann is to play
    assert ben.play.asking is not None
    assert ben.play.asking.question == "It is Ann's turn. Enter 6-5 for Ann?"
    assert turns(shared, mid) == [] and ben.error is None
    ben.play.cancel()
    assert ben.play.asking is None and turns(shared, mid) == []
    ben.play.tap("6-5")
    ben.play.confirm_other()  # yes: Ann set it, entered on Ben's phone
    assert turns(shared, mid) == [{"play": "6-5"}] and players_of(shared, mid) == ["Ann"]
    assert ben.play.asking is None and ben.play.confirmed_for is None
    for phone in phones.values():
        phone.receive()
        phone.ack()
    assert ben.my_turn
    ben.play.tap("5-5")  # its own player's turn: at once
    assert ben.play.asking is None and players_of(shared, mid) == ["Ann", "Ben"]
    shared.close()


def test_phones_that_are_nobodys_enter_for_the_player_to_play(tmp_path):
    shared = served(tmp_path)
    mid = four_player_match(shared)
    phones = seated(shared, mid)
    phones["host"].table.play.tap("6-6")
    assert phones["host"].table.play.asking is None and players_of(shared, mid) == ["Ann"]
    scorer = Phone(shared, mid, "192.168.1.20", "482913")
    scorer.table.take_seat(None)  # "Nobody's": it only scores
    scorer.table.play.tap("6-5")
    assert scorer.table.play.asking is None and players_of(shared, mid) == ["Ann", "Ben"]
    shared.close()


def test_draws_and_passes_out_of_turn_ask_too(tmp_path):
    shared = served(tmp_path)
    mid = two_player_match(shared)
    phones = {"host": Phone(shared, mid, "127.0.0.1"), "Ben": Phone(shared, mid, "192.168.1.12", "482913")}
    phones["Ben"].table.take_seat("Ben")
    ben = phones["Ben"].table
    phones["host"].table.play.tap("6-6")
    phones["Ben"].receive()
    phones["Ben"].ack()
    phones["host"].receive()
    ben.play.tap("6-5")
    phones["host"].receive()
    phones["host"].ack()
    # Ann to play: Ben's phone enters a draw of 2 for her, after saying so
    ben.play.draw(2)
    assert ben.play.asking is not None and ben.play.asking.question == "It is Ann's turn. Enter a draw of 2 for Ann?"
    assert ben.play.draws == 0
    ben.play.confirm_other()
    assert ben.play.draws == 2 and ben.play.confirmed_for == "Ann"
    ben.play.draw(1)  # the same turn, confirmed once: no second question
    assert ben.play.asking is None and ben.play.draws == 3
    shared.close()


class WatchedLock:
    """The table's lock, saying when a thread has to wait for it (another holds it)."""

    def __init__(self, inner: threading.RLock) -> None:
        self.inner = inner
        self.waited = threading.Event()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self.inner.acquire(blocking=False):
            return True
        if not blocking:
            return False
        self.waited.set()
        return self.inner.acquire(timeout=timeout)

    def release(self) -> None:
        self.inner.release()

    __enter__ = acquire

    def __exit__(self, *exc: object) -> None:
        self.release()


def test_two_phones_racing_make_exactly_one_entry_and_the_other_is_told_which(tmp_path):
    """Ann's phone and the host tap for Ann at the same moment, in two threads (as Flet runs
    two sessions' handlers), again and again: one entry each time, never two.

    "The same moment" is made exact, not left to the machine's timing: the first tap holds
    the store until the second, having passed its own check, waits for the store."""
    shared = served(tmp_path)
    lock = shared.lock = WatchedLock(shared.lock)  # type: ignore[assignment]  (every phone's view shares it)
    mid = four_player_match(shared)
    phones = seated(shared, mid)
    store = shared.store
    real_append = store.append
    inside = threading.Event()

    def held_append(*args, **kwargs):  # the first tap holds the store until the second waits for it
        inside.set()
        assert lock.waited.wait(10), "the second tap never came to the store"
        return real_append(*args, **kwargs)

    store.append = held_append  # type: ignore[method-assign]
    for _ in range(6):
        for phone in phones.values():
            phone.receive()
            phone.ack()
        player = phones["host"].table.to_move
        assert player is not None
        racers = [phones["host"].table, phones[player].table]
        m = racers[0].match
        fits = [str(t) for t in m.tiles if m.placements(t) and len(m.placements(t)) == 1][:2]
        if len(fits) < 2:
            break
        before = len(turns(shared, mid))
        inside.clear()
        lock.waited.clear()
        first = threading.Thread(target=racers[0].play.tap, args=(fits[0],))
        first.start()
        assert inside.wait(10)
        second = threading.Thread(target=racers[1].play.tap, args=(fits[1],))
        second.start()  # passes its own check, then waits for the store the first holds
        first.join(10)
        second.join(10)
        after = turns(shared, mid)
        assert len(after) == before + 1
        assert after[-1]["play"] == fits[0]
        assert racers[1].error == stale(f"{player}'s {fits[0]}")
        for phone in phones.values():  # the winner's entry reaches the loser: it is still told why
            phone.receive()
        assert racers[1].error == stale(f"{player}'s {fits[0]}")
    store.append = real_append  # type: ignore[method-assign]
    shared.close()


# ------------------------------------------------------------------ the property
STEP = st.tuples(
    st.sampled_from(["host", *PLAYERS]),
    st.sampled_from(["tap", "tap", "confirm", "receive", "ack", "draw", "pass"]),
    st.integers(0, 27),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(STEP, max_size=60))
def test_no_tile_is_recorded_under_a_player_whose_phone_did_not_say_so(tmp_path_factory, steps):
    """Random interleavings of taps, draws, passes, confirmations, deliveries and browser
    answers from four seated phones and the host: every turn that goes in is the player's
    own phone's, or a phone's that is nobody's, or one that confirmed that very player."""
    shared = served(tmp_path_factory.mktemp("turns"))
    mid = four_player_match(shared)
    phones = seated(shared, mid)
    vouched: dict[str, set[tuple[str, int, int]]] = {who: set() for who in phones}  # (player, hand, turn)

    def where() -> tuple[int, int]:
        m = shared.store.match(mid)
        return (m.hand.number, len(m.hand.turns)) if m.hand else (0, 0)

    for who, what, pick in steps:
        phone = phones[who]
        t = phone.table
        if what == "receive":
            phone.receive()
            continue
        if what == "ack":
            phone.ack()
            continue
        before = where()
        if what == "confirm":
            if t.play.asking is not None:
                vouched[who].add((t.play.asking.player, *before))
            t.play.confirm_other()
        elif what == "tap":
            m = t.match
            fits = [str(x) for x in m.tiles if m.placements(x)] if m.hand and m.hand.end is None else []
            if not fits:
                continue
            t.play.tap(fits[pick % len(fits)])
            if t.play.choosing:
                t.play.choose(t.play.choosing[1][0])
        elif what == "draw":
            t.play.draw(1)
        else:
            t.play.pass_()
        after = players_of(shared, mid)
        if where() != before:
            assert where() == (before[0], before[1] + 1)  # one action, at most one entry
            player, seat = after[-1], t.seat
            assert seat is None or seat == player or (player, *before) in vouched[who], (who, what, player)
    shared.close()


def test_draws_show_on_every_phone_with_the_boneyard_and_tile_counts(tmp_path):
    shared = served(tmp_path)
    mid = two_player_match(shared)
    host, ben = Phone(shared, mid, "127.0.0.1"), Phone(shared, mid, "192.168.1.12", "482913")
    ben.table.take_seat("Ben")
    host.table.play.tap("6-6")
    ben.receive()
    ben.ack()
    boneyard, held = host.table.boneyard, {p.name: p.held for p in host.table.player_rows}
    ben.table.play.draw(2)  # Ben's own turn, on his phone
    assert host.inbox  # told at once, before any tile is set
    host.receive()
    assert host.table.play.draws == 2 and host.table.boneyard == boneyard - 2
    assert {p.name: p.held for p in host.table.player_rows} == {"Ann": held["Ann"], "Ben": held["Ben"] + 2}
    assert host.table.note == "Ben drew 2 (on Ben's phone)"
    host.table.play.draw(1)  # the host's screen is drawn, its browser has not answered: refused
    assert host.table.error == "the draw entered on Ben's phone came first: check and tap again"
    host.ack()
    host.table.undo()  # Undo puts the draws back, on every phone
    ben.receive()
    ben.ack()
    assert ben.table.play.draws == 0 and ben.table.boneyard == boneyard
    ben.table.play.draw(1)
    ben.table.play.tap("6-5")
    assert turns(shared, mid)[-1] == {"draw": 1, "play": "6-5", "on": "6-6"}
    host.receive()
    assert host.table.play.draws == 0  # the next turn's draws start at none
    shared.close()


def test_muggins_is_called_from_the_callers_own_phone(tmp_path):
    """Claims "muggins": Ann's 5-5 claimed 5 of 10 shows "Muggins!" for Ben on Ben's phone and
    for Di on Di's, none on Ann's or Cy's (Ann's side), every opponent on the host's (nobody's);
    Ben's phone cannot call it for Di."""
    shared = served(tmp_path)
    form = NewMatchForm(shared, names=list(PLAYERS))
    form.set_rule("claims", "muggins")
    form.set_leader("Ann")
    mid = form.start()
    assert mid, form.error
    phones = seated(shared, mid)
    phones["Ann"].table.play.tap("5-5")
    phones["Ann"].table.claims.claim(5)
    for phone in phones.values():
        phone.receive()
        phone.ack()
    callers = {who: p.table.claims.muggins_callers() for who, p in phones.items()}
    assert callers == {"host": ["Ben", "Di"], "Ann": [], "Ben": ["Ben"], "Cy": [], "Di": ["Di"]}
    phones["Ben"].table.claims.call_muggins("Di")
    assert phones["Ben"].table.error == "Di cannot call muggins now"
    phones["Ben"].table.claims.call_muggins("Ben")
    assert shared.store.record(mid)["hands"][0]["turns"][0] == {"play": "5-5", "claim": 5, "muggins": "Ben"}
    shared.close()
