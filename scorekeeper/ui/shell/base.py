"""What every screen's view-model shares, without any Flet: the store of the running
app (:class:`~scorekeeper.ui.shell.state.Shared`, kept in :mod:`scorekeeper.ui.shell.state`
and named here too) and the base of the table view-models (how a game's screens are found:
:mod:`scorekeeper.ui.shell.screens`).

Every view-model method that changes something goes through the
:class:`~scorekeeper.store.Store` at once (so a killed app resumes exactly
where it was), catches the engine's errors and keeps the message in ``error``
for the screen to show in place. Nothing here raises to the UI. No rule lives
in the UI: whether an entry is legal and what it scores is the engine's.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> shared.resume() is None, shared.visitor.role.can_enter
(True, True)
>>> shared.close()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.eventbook import sides_of
from scorekeeper.store import Store, message_of
from scorekeeper.ui.access.roles import NOT_JOINED, STALE, WATCHING, Role, refusal, stale
from scorekeeper.ui.shell.asks import Asking
from scorekeeper.ui.shell.drafts import DraftBook
from scorekeeper.ui.shell.policy import Act, Verdict
from scorekeeper.ui.shell.state import Shared

if TYPE_CHECKING:  # handed to Shared by whoever starts the app (scorekeeper.ui.server.shared)
    from scorekeeper.ui.access.visitor import Visitor
    from scorekeeper.ui.live.hub import Hub

__all__ = [
    "NOT_JOINED",
    "STALE",
    "WATCHING",
    "Model",
    "Played",
    "Shared",
    "TableModel",
    "game_of",
    "game_title",
    "open_match",
    "refusal",
    "stale",
]


class Model:
    """Base of the view-models: ``revision`` changes whenever the screen should redraw."""

    revision: int = 0

    def _changed(self) -> None:
        self.revision = self.revision + 1


def game_of(shared: Shared, mid: str) -> str | None:
    """The game of a stored match (None if there is no such match: the screen says so)."""
    try:
        with shared.lock:
            game = shared.store.summary(mid).get("game")
            return game if isinstance(game, str) else None
    except ScorekeeperError:
        return None


def open_match(shared: Shared, mid: str, game: str) -> Any:
    """The engine state of a stored match of ``game``; a match of another game is
    refused with a clear message (a screen shows one game's matches)."""
    match = shared.store.match(mid)  # raises StoreError for an unknown id
    stored = shared.store.summary(mid).get("game")
    if stored != game:
        raise ScorekeeperError(
            f"match {mid} is {game_title(stored)}: this screen shows {game_title(game)} matches; "
            "open it from Home or History"
        )
    return match


def game_title(game: Any) -> str:
    """A game's name for people ("All Fives"); an unknown game's id as it is."""
    try:
        return registry.get(game).title
    except ScorekeeperError:
        return str(game)


# ------------------------------------------------------------------ the bases
class Played(Protocol):
    """What a table reads of every game's engine state (the engines' one shape): the set-up
    (its ``players`` and ``sides``), each side's score, the side that won (an index), and
    the hand in play (its ``number``)."""

    @property
    def setup(self) -> Any: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def hand(self) -> Any: ...


M = TypeVar("M", bound=Played)


class TableModel(Model, Generic[M]):
    """Base of the table view-models of one stored match of :attr:`game`: the engine
    state (``match``, an ``M``) and what every table shows of it (``players``, ``sides``,
    ``scores``, ``hand_number``, ``winner``), ``error`` and ``note``, and :meth:`_apply`
    for store changes."""

    #: The game whose matches this table shows (its registry id).
    game = ""
    _match: M

    def __init__(self, shared: Shared, mid: str) -> None:
        self._shared = shared
        self.mid = mid
        self.error: str | None = None
        self.note: str | None = shared.take_notice(mid)  # what the last entry did, in words
        self.flash: str | None = None  # "15!" after a scoring play (the games that have it)
        self._unseen = False  # private: an observable redraws on a public attribute
        self._said: str | None = None  # the change being made, for a phone that raced it
        # a tap refused because another phone's change came first: still said once that change
        # is shown here (it arrives after the refusal), until this phone's next entry
        self._refusal: str | None = None
        self._version = shared.hub.version(mid)  # the change of the match this screen shows
        self.asks = Asking(self, shared.asks)  # a change of the finished match, asked of the other side
        with shared.lock:
            self._match = open_match(shared, mid, self.game)

    @property
    def match(self) -> M:
        return self._match

    @property
    def setup(self) -> Any:
        return self._match.setup

    @property
    def players(self) -> list[str]:
        """The players' names, in the record's order."""
        return list(self.setup.players)

    @property
    def sides(self) -> list[str]:
        """The sides' names (``Ann & Cy``; a player's name where they play alone)."""
        return list(self.setup.sides)

    @property
    def scores(self) -> dict[str, int]:
        """``{side: score}``."""
        return dict(zip(self.setup.sides, self._match.scores, strict=True))

    @property
    def hand_number(self) -> int:
        """The number of the hand in play, or of the last one (0 before the first)."""
        h = self._match.hand
        return h.number if h else 0

    @property
    def winner(self) -> str | None:
        """The side that won the match, or None."""
        w = self._match.winner
        return None if w is None else self.setup.sides[w]

    @property
    def unseen(self) -> bool:
        """Another phone changed the match and this screen may not show it yet: until the
        browser has it (:meth:`seen`), an entry from here is refused (:data:`STALE`)."""
        return self._unseen

    @property
    def can_enter(self) -> bool:
        """Whether this phone may change the match (a watcher may not)."""
        role = self._shared.visitor.role
        return role is not None and role.can_enter

    @property
    def hub(self) -> Hub:
        return self._shared.hub

    @property
    def visitor(self) -> Visitor:
        """The browser this screen is shown in."""
        return self._shared.visitor

    @property
    def phone(self) -> str:
        """This phone in words, as the other phones are told of it ("Ann's phone")."""
        return self._shared.visitor.phone(self.mid)

    def tell_others(self, change: object = None) -> None:
        """Tell the other screens of the match what changed here: ``change`` (a draft's, made
        on this screen), or else this screen itself (its match, its note)."""
        self.hub.deliver(self.mid, self if change is None else change, self)

    # ------------------------------------------------------------ seats
    @property
    def turn_of(self) -> str | None:
        """The player whose turn it is, whose phone lights up (None: nobody's now)."""
        return None

    @property
    def seat(self) -> str | None:
        """The player this phone is ("I'm Ann"), or None."""
        return self._shared.visitor.seat(self.mid)

    @property
    def my_turn(self) -> bool:
        """It is the turn of the player this phone is."""
        return self.seat is not None and self.seat == self.turn_of

    @property
    def ask_seat(self) -> bool:
        """Ask which player this phone is: a phone that joined by the table code, until it
        answers, or enters without answering (a phone the table shares: nobody's; its seat is
        still taken from the players' row)."""
        v = self._shared.visitor
        return v.role is Role.SCORER and self._shared.gate is not None and not v.asked(self.mid)

    def take_seat(self, player: str | None) -> None:
        """This phone is ``player``'s (tapping the seat it has gives it up). A seat another
        phone holds is refused, naming that phone (``error``)."""
        mine = self.seat
        giving_up = player is None or player == mine
        verdict = self._shared.may(Act.LEAVE_SEAT if giving_up and mine else Act.TAKE_SEAT, self.mid)
        if not verdict.allowed:
            self.error = verdict.words
        else:
            try:
                self._shared.visitor.take_seat(self.mid, None if giving_up else player)
                self.error = None
            except ScorekeeperError as e:
                self.error = str(e)
        self._changed()

    # ------------------------------------------------------------ acting
    @property
    def behind(self) -> bool:
        """Another phone changed the match since this screen last showed it."""
        return self._version != self.hub.version(self.mid)

    def refused(self) -> bool:
        """True (with ``error`` set) when this phone may not act now: a watcher, or a screen
        that does not show another phone's change yet. Every entry asks first."""
        verdict = self._shared.may(Act.ENTER, self.mid)
        if not verdict.allowed:
            self.error = verdict.words
        elif self.behind:  # a change it was not told of yet
            self._catch_up()
            self.refuse_stale(self._stale())
        elif self._unseen:
            self.refuse_stale(self._stale())
        else:
            self._refusal = None
            return False
        self._changed()
        return True

    @property
    def refusal(self) -> str | None:
        """The refusal still said (see :meth:`refuse_stale`), if any."""
        return self._refusal

    def refuse_stale(self, message: str) -> None:
        """Refuse an entry because another phone's change came first (``message`` names it):
        it stays on the screen when that change arrives here, until this phone's next entry."""
        self.error = self._refusal = message

    def _stale(self) -> str:
        """Why an entry from a screen that missed the last change is refused, naming that
        change where it was said ("Ann's 6-6 came first: check and tap again")."""
        return stale(self.hub.last(self.mid))

    def _words(self) -> str:
        """The change this screen just made, for a phone that raced it: what ``then`` put in
        ``_said`` ("Ann's 6-6"), else "the change on Ben's phone"."""
        return self._said or f"the change on {self.phone}"

    def _saying(self, words: str) -> Callable[[], None]:
        """A ``then`` for :meth:`_apply` that names the change ("Ann's 6-6")."""

        def say() -> None:
            self._said = words

        return say

    def _apply(
        self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None, what: str = "undo the last entry"
    ) -> bool:
        """Run one store change; on failure keep the message; always redraw. A change that
        went in is published to the other screens of the match.

        A change of a finished match is the host's, or waits for the other side (``what``: it
        in words, for the question their phones show; see :mod:`scorekeeper.ui.shell.asks`); a
        match of a confirmed result sheet is not changed at all until the host re-opens it.

        The screen's version is checked again while the store is held, and the new one taken
        before it is let go: of two phones that passed :meth:`refused` at the same moment,
        the second is refused here, naming the first's entry, and nothing of it is applied.
        ``then`` runs, still holding it, once the change is in (it says what it did)."""
        if self.refused():
            return False
        if getattr(self._match, "over", False):  # the result both sides walked away with
            verdict = self._shared.may(Act.CHANGE_FINISHED, self.mid, locked=self.sheet_lock())
            if verdict.ask:
                return self.asks.ask(fn, what)
            if not verdict.allowed:
                self.error = verdict.words
                self._changed()
                return False
        return self._apply_now(fn, then)

    def _apply_now(self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None) -> bool:
        """:meth:`_apply` once the rules said yes."""
        try:
            with self._shared.lock:
                if self.behind:  # another phone's entry got in since refused() looked
                    self._catch_up()
                    self.refuse_stale(self._stale())
                    return False
                self._said = None
                fn(self._shared.store)
                self._match = self._shared.store.match(self.mid)
                self._shared.drafts.clear(f"{self.mid}#draws")  # counted for a turn that is in now, or gone
                self._shared.drop_notice(self.mid)
                self.error = None
                if then is not None:
                    then()
                self._version = self.hub.bump(self.mid, self._words())
            if self.ask_seat:  # it entered without saying whose it is: the table's shared phone
                self._shared.visitor.take_seat(self.mid, None)
            self.tell_others()
            return True
        except ScorekeeperError as e:
            self.error = message_of(e)
            self._reread()  # a change the disk refused may have touched the match in memory
            return False
        finally:
            self._changed()

    def _reread(self) -> str | None:
        """Show the match as the store holds it (the file's truth); why not, if it cannot."""
        try:
            with self._shared.lock:
                self._match = self._shared.store.match(self.mid)
        except ScorekeeperError as e:
            return message_of(e)
        return None

    # ------------------------------------------------------------ a finished match
    def may(self, act: Act, **facts: Any) -> Verdict:
        """May this phone do ``act`` at this match (the one check of the rules)?"""
        return self._shared.may(act, self.mid, **facts)

    def sheet_lock(self) -> str | None:
        """Why this match may not change at all: its event's result sheet is confirmed."""
        try:
            with self._shared.lock:
                return self._shared.events.sheet_lock(self._shared.store.record(self.mid))
        except ScorekeeperError:
            return None  # an unreadable events file: its screens say so

    def match_sides(self) -> tuple[tuple[str, ...], ...]:
        """The match's sides, each its players, in the record's order."""
        return sides_of(self.stored_record())

    def apply_agreed(self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None) -> bool:
        """A change of this finished match that the other side agreed to: made from here."""
        return self._apply_now(fn, then)

    # ------------------------------------------------------------ for its parts
    # What the small view-models a table may be made of use of it, through a door that lists
    # them (All Fives' TableDoor in ui/allfives/part.py; the questions' AskDoor in asks.py).
    @property
    def drafts(self) -> DraftBook:
        """What the table is entering together and has not stored yet (every phone's)."""
        return self._shared.drafts

    def stored_record(self) -> dict[str, Any]:
        """The match's record as the store holds it (a copy)."""
        with self._shared.lock:
            return self._shared.store.record(self.mid)

    def event_route(self) -> str | None:
        """The page of the event this match was played for (its record's ``"event"``), or
        None: where a won match sends its table back to, at a club night."""
        event = self.stored_record().get("event")
        return f"/event/{event['id']}" if isinstance(event, dict) and "id" in event else None

    def redraw(self) -> None:
        self._changed()

    def change(
        self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None, what: str = "undo the last entry"
    ) -> bool:
        """One change of the stored match (see :meth:`_apply`): True when it went in."""
        return self._apply(fn, then, what)

    def saying(self, words: str) -> Callable[[], None]:
        """A ``then`` for :meth:`change` that names the change (see :meth:`_saying`)."""
        return self._saying(words)

    def drop_entry(self) -> None:
        """Drop what was being entered and not yet stored (see :meth:`_forget_entry`)."""
        self._forget_entry()

    # ------------------------------------------------------------ live
    def _forget_entry(self) -> None:
        """Drop what was being entered and not yet stored (the games that have such a thing)."""

    def remote(self, origin: TableModel[Any]) -> None:
        """Another phone (``origin``) changed the match: show it, with what it did; what this
        phone was entering is dropped, and until :meth:`seen` an entry from here is refused."""
        self._catch_up()
        by = origin.phone
        self.note = f"{origin.note} (on {by})" if origin.note else f"changed on {by}"
        self.flash = origin.flash
        self._changed()

    def catch_up(self) -> None:
        """Show the match as it is now if it changed meanwhile (a phone back from sleep)."""
        if self.behind:
            self._catch_up()
            self.note = "changed on another phone meanwhile"
            self.flash = None
            self._changed()

    def _catch_up(self) -> None:
        self._version = self.hub.version(self.mid)
        self.error = self._reread() or self._refusal
        self._forget_entry()
        self._unseen = True

    def seen(self) -> None:
        """The browser shows the match as it is now: entries from it are taken again."""
        self._unseen = False
