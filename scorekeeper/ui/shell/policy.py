"""Who may do what at the table: every act of the app against every kind of browser, in one
table (:data:`RULES`), and the one check every screen and endpoint asks (:func:`check`). No
Flet; nothing here knows how a browser got its role (the server's gate) or a seat (its passes):
the caller says, and this says yes, no, or "ask the other side".

The kinds of browser (:class:`Who`), for the place the act is about (a match, an event):

* **host**: a browser on the machine that runs Scorekeeper (its socket is loopback);
* **seated scorer**: joined with the table code and holds a seat at that place ("I'm Ann");
* **unseated scorer**: joined with the table code, holds no seat there;
* **watcher**: joined with the watch code;
* **stranger**: has given no code.

>>> check(Act.EVENT_ROUND, Role.HOST).allowed
True
>>> check(Act.EVENT_ROUND, Role.SCORER, seated=True).words
'only the host opens a round or draws the next: on the laptop that runs Scorekeeper'
>>> v = check(Act.CHANGE_FINISHED, Role.SCORER, seated=True)
>>> v.allowed, v.ask
(False, True)
>>> check(Act.WATCH, None).words
'join the table first: type the table code'
>>> check(Act.CONFIRM, Role.SCORER, seated=True, own=False, detail="only Reds' captain confirms").words
"only Reds' captain confirms"
>>> check(Act.CHANGE_FINISHED, Role.HOST, locked="the sheet is confirmed").words
'the sheet is confirmed'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorekeeper.ui.access.roles import NOT_JOINED, WATCHING, Role

__all__ = ["RULES", "Act", "Cell", "Verdict", "Who", "check", "markdown_table", "who_of"]


class Who(enum.Enum):
    """A browser as the rules see it, for the place of one act."""

    HOST = "host"
    SEATED = "seated scorer"
    UNSEATED = "unseated scorer"
    WATCHER = "watcher"
    STRANGER = "stranger"


def who_of(role: Role | None, seated: bool = False) -> Who:
    """The kind of browser: its ``role`` (None: no code given) and whether it holds a seat at
    the place of the act.

    >>> who_of(Role.SCORER, True), who_of(Role.HOST, True), who_of(None)
    (<Who.SEATED: 'seated scorer'>, <Who.HOST: 'host'>, <Who.STRANGER: 'stranger'>)
    """
    if role is None:
        return Who.STRANGER
    if role is Role.HOST:
        return Who.HOST
    if role is Role.WATCHER:
        return Who.WATCHER
    return Who.SEATED if seated else Who.UNSEATED


class Cell(enum.Enum):
    """What one kind of browser may do of one act."""

    YES = "yes"
    NO = "no"
    #: it asks; the act is done when a seat of every other side agrees on its own phone
    ASK = "asks the other side"
    #: only for its own seat (the team it captains, the side it does not sit on, its own seat)
    OWN = "its own"


class Act(enum.Enum):
    """Everything a browser can do that the rules decide; the value is what the act is, in
    words (the docs' table and the refusals use them)."""

    JOIN = "see the join screen, give a code"
    WATCH = "watch a table, Score, an event's page, standings and sheets"
    HISTORY = "History: list, open and export the stored matches; Players"
    INVITE = "show the codes and the join link to a latecomer"
    RENEW = "make new codes, forget all phones"
    START = "start a match"
    ENTER = "enter, undo or correct in a match in play"
    ADJUST = "adjust a score (points given or taken, with a reason) in a match in play"
    CHANGE_FINISHED = "undo or correct an entry of a finished match"
    AGREE = "agree to (or refuse) that change, asked by another side"
    TAKE_SEAT = 'take a free seat ("I\'m Ann") at a match or an event'
    LEAVE_SEAT = 'give up the seat it holds ("Change")'
    SEATS = "see which phone holds each seat, free any seat"
    IMPORT = "import a match (History -> Import, or sent from a phone)"
    IMPORT_EVENT = "import a match that belongs to an event's table"
    NAMES = "rename or merge players (Players)"
    EVENT_NEW = "create an event"
    EVENT_DELETE = "delete an event"
    EVENT_ROUND = "open a round, draw the next round"
    EVENT_PLAYERS = "change an event's players: a team's players, captain, vice-captain"
    CONFIRM = "confirm a fixture's result sheet for a team"
    REOPEN = "re-open a confirmed result sheet"
    LEAGUE = "link this app to a league, list and take its fixtures (each an event), send its sheets"


_Y, _N, _A, _O = Cell.YES, Cell.NO, Cell.ASK, Cell.OWN

#: The rules: for every act, what each kind of browser may do (host, seated scorer, unseated
#: scorer, watcher, stranger). docs/security.md shows this table (a test keeps them the same).
RULES: dict[Act, dict[Who, Cell]] = {
    act: dict(zip(Who, cells, strict=True))
    for act, cells in {
        Act.JOIN: (_Y, _Y, _Y, _Y, _Y),
        Act.WATCH: (_Y, _Y, _Y, _Y, _N),
        Act.HISTORY: (_Y, _Y, _Y, _N, _N),
        Act.INVITE: (_Y, _Y, _Y, _N, _N),
        Act.RENEW: (_Y, _N, _N, _N, _N),
        Act.START: (_Y, _Y, _Y, _N, _N),
        Act.ENTER: (_Y, _Y, _Y, _N, _N),
        Act.ADJUST: (_Y, _Y, _Y, _N, _N),
        Act.CHANGE_FINISHED: (_Y, _A, _N, _N, _N),
        Act.AGREE: (_Y, _O, _N, _N, _N),
        Act.TAKE_SEAT: (_Y, _Y, _Y, _N, _N),
        Act.LEAVE_SEAT: (_Y, _O, _N, _N, _N),
        Act.SEATS: (_Y, _N, _N, _N, _N),
        Act.IMPORT: (_Y, _Y, _Y, _N, _N),
        Act.IMPORT_EVENT: (_Y, _N, _N, _N, _N),
        Act.NAMES: (_Y, _Y, _Y, _N, _N),
        Act.EVENT_NEW: (_Y, _N, _N, _N, _N),
        Act.EVENT_DELETE: (_Y, _N, _N, _N, _N),
        Act.EVENT_ROUND: (_Y, _N, _N, _N, _N),
        Act.EVENT_PLAYERS: (_Y, _N, _N, _N, _N),
        Act.CONFIRM: (_Y, _O, _N, _N, _N),
        Act.REOPEN: (_Y, _N, _N, _N, _N),
        Act.LEAGUE: (_Y, _N, _N, _N, _N),
    }.items()
}

#: The acts a confirmed result sheet stops for everyone, the host too, until the host re-opens it.
LOCKED_BY_A_SHEET = frozenset({Act.ENTER, Act.ADJUST, Act.CHANGE_FINISHED, Act.AGREE, Act.IMPORT, Act.IMPORT_EVENT})

#: What a scorer is told when an act is the host's alone.
_HOST_ONLY = {
    Act.RENEW: "only the host makes new codes or forgets the phones",
    Act.SEATS: "only the host sees who holds the seats and frees one",
    Act.IMPORT_EVENT: "a match of an event's table is imported by the host only: on the laptop that runs Scorekeeper",
    Act.EVENT_NEW: "only the host creates an event: on the laptop that runs Scorekeeper",
    Act.EVENT_DELETE: "only the host deletes an event",
    Act.EVENT_ROUND: "only the host opens a round or draws the next: on the laptop that runs Scorekeeper",
    Act.EVENT_PLAYERS: "only the host changes an event's players",
    Act.REOPEN: "only the host re-opens a confirmed sheet",
    Act.LEAGUE: "only the host links a league and takes its fixtures: on the laptop that runs Scorekeeper",
}

#: What an unseated scorer is told for the acts that need a seat.
_NEEDS_SEAT = {
    Act.CHANGE_FINISHED: "this match is over: a change needs the host, or both sides' phones (say who you are first)",
    Act.AGREE: "only a phone holding a seat of the other side agrees to this change",
    Act.LEAVE_SEAT: "this phone holds no seat here",
    Act.CONFIRM: "say who you are on the event's page first (I'm ...): a team's captain confirms its sheet",
}


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` says: ``allowed``; or ``ask`` (the act waits for the other side's
    agreement); else ``words``, why not, for the screen."""

    allowed: bool
    ask: bool = False
    words: str | None = None


def check(
    act: Act,
    role: Role | None,
    *,
    seated: bool = False,
    own: bool = True,
    locked: str | None = None,
    detail: str | None = None,
) -> Verdict:
    """May a browser with ``role`` (None: it gave no code), holding a seat at the act's place
    or not (``seated``), do ``act``? ``own``: for the acts a seat does only for itself
    (:attr:`Cell.OWN`), whether this is its own (the team it captains, a side it does not sit
    on); ``detail``: the words when it is not. ``locked``: why the place is closed to
    changes (a confirmed result sheet), for the acts :data:`LOCKED_BY_A_SHEET` names."""
    who = who_of(role, seated)
    cell = RULES[act][who]
    if locked is not None and act in LOCKED_BY_A_SHEET and cell is not Cell.NO:
        return Verdict(False, words=locked)
    if cell is Cell.YES or (cell is Cell.OWN and own):
        return Verdict(True)
    if cell is Cell.ASK:
        return Verdict(False, ask=True)
    if who is Who.STRANGER:
        return Verdict(False, words=NOT_JOINED)
    if who is Who.WATCHER:
        return Verdict(False, words=WATCHING)
    if cell is Cell.OWN and detail is not None:
        return Verdict(False, words=detail)
    if RULES[act][Who.SEATED] is not Cell.NO and who is Who.UNSEATED and act in _NEEDS_SEAT:
        return Verdict(False, words=_NEEDS_SEAT[act])
    return Verdict(False, words=_HOST_ONLY.get(act) or detail or f"this phone may not {act.value}")


def markdown_table() -> str:
    """:data:`RULES` as the Markdown table docs/security.md shows."""
    head = "| act | " + " | ".join(w.value for w in Who) + " |"
    rule = "| --- |" + " --- |" * len(Who)
    marks = {Cell.YES: "yes", Cell.NO: "no", Cell.ASK: "asks", Cell.OWN: "own"}
    rows = [f"| {act.value} | " + " | ".join(marks[RULES[act][w]] for w in Who) + " |" for act in Act]
    return "\n".join([head, rule, *rows])
