"""The games Scorekeeper knows: one :class:`Game` protocol and one table of games.

Everything that depends on the game -- reading and scoring a record, the
``--text`` table, the store's entries, the title, the score chart's timeline,
the app's screens -- asks the registry for the record's game instead of
testing the game's name. A new game is one package (its engine, with a
``GAME`` object that satisfies :class:`Game`; its screens under
``scorekeeper/ui/<game>/``) plus one line in :data:`BUILTIN`; the game contract
(``tests/registry/test_game_contract.py``) checks it on its :attr:`GameSpec.samples`.

>>> [g.title for g in games()]
['All Fives', 'All Fours', 'Broadway']
>>> game_of({"format": "scorekeeper/1", "game": "broadway"}).id
'broadway'
>>> get("chess")
Traceback (most recent call last):
...
scorekeeper.errors.RecordFormatError: game: unknown game 'chess' (known: all-fives, all-fours, broadway)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from scorekeeper.errors import RecordFormatError, RulesError, short
from scorekeeper.scored import Scored, ScoredHand

if TYPE_CHECKING:
    from scorekeeper.tally.timeline import Timeline

__all__ = [
    "BUILTIN",
    "Counter",
    "EntryCodec",
    "Game",
    "GameSpec",
    "Kind",
    "MatchState",
    "Preset",
    "Registration",
    "Row",
    "Scored",
    "ScoredHand",
    "SetupState",
    "game_of",
    "games",
    "get",
    "has_kinds",
    "ids",
    "kind",
    "kind_of",
    "kind_title",
    "kinds",
    "kinds_of",
    "find_preset",
    "player_counts",
    "presets_of",
    "register",
    "rules_for",
    "samples_of",
    "ui_module",
    "unregister",
]

Record = dict[str, Any]
Entry = dict[str, Any]


class SetupState(Protocol):
    """What every game's ``Setup`` offers: the players in seating order and the sides."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def sides(self) -> tuple[str, ...]: ...

    @property
    def side_of(self) -> tuple[int, ...]: ...


class MatchState(Protocol):
    """What every game's ``Match`` offers (the state as the fold of its events)."""

    @property
    def setup(self) -> SetupState: ...

    @property
    def hands(self) -> Sequence[Any]: ...

    @property
    def scores(self) -> list[int]: ...

    @property
    def winner(self) -> int | None: ...

    def pop(self) -> Any: ...

    def to_record(self) -> Record: ...


class EntryCodec(Protocol):
    """How the store keeps a game's record entry by entry (:mod:`scorekeeper.codec`
    has the bases): the entries people make at the table, each checked through the
    engine before it is added to the record."""

    kinds: tuple[str, ...]

    def entries_of(self, record: Record) -> list[Entry]:
        """A record's entries, in the order they were entered."""
        ...

    def entry_kind(self, entry: Any) -> tuple[str, Any]:
        """``(kind, value)`` of an entry; a malformed entry raises a StoreError."""
        ...

    def push(self, match: Any, record: Record, kind: str, value: Any) -> None:
        """Check the entry through the engine and push it (raises; nothing changed then)."""
        ...

    def apply(self, record: Record, kind: str, value: Any) -> None:
        """Add a checked entry to the record (in place)."""
        ...

    def drop_last(self, record: Record) -> Entry:
        """Remove the last entry of the record (in place) and return it."""
        ...

    def undo(self, match: Any, record: Record, entry: Entry) -> None:
        """Take ``entry`` (just dropped from ``record``) back from the engine state."""
        ...

    def edit(self, record: Record, hand: int, where: Any, value: Any) -> None:
        """Correct an entry of hand ``hand`` in the record (in place); the store checks it all
        again. A hand entered as points is corrected at ``where`` ``"points"`` or ``"first"``;
        an adjustment, which has no hand number, at ``"adjust"`` or ``"why"`` with ``hand`` its
        place among the record's adjustments (from 1): see :mod:`scorekeeper.codec`."""
        ...


@dataclass(frozen=True)
class Row:
    """One line of ``scorekeeper export --csv``: a turn or fact of a hand, or its settlement.

    ``points`` go to ``side`` (``""``: the row is no side's, and then ``points`` is 0);
    ``turn`` is None for a hand's settlement; ``count`` is All Fives' open-end count;
    ``hand`` is None for what is no hand's: a score carried in, an adjustment."""

    hand: int | None
    turn: int | None
    player: str
    side: str
    entry: str
    points: int
    count: int | None = None
    note: str = ""


@dataclass(frozen=True)
class Counter:
    """One figure a game's statistics count per player beside the common ones: its key in
    the facts' ``per`` (see :mod:`scorekeeper.stats.facts`) and its words for people."""

    name: str
    words: str


@dataclass(frozen=True)
class Kind:
    """A kind of game as people name it and the statistics count it apart: the game's own
    (``id`` the game's id), or another one the game holds (see :attr:`GameSpec.kind`).
    ``counters``: the game's own figures, in the order they are shown; ``best``: what its
    best single scoring move is called."""

    id: str
    title: str
    counters: tuple[Counter, ...] = ()
    best: str = "best play"


@dataclass(frozen=True)
class Preset:
    """A set of rules a game offers by name when a match is made (All Fives' Muggins, an
    All Fours variant): ``rules`` on top of the game's defaults, ``title`` its name for
    people; ``hand_sizes``: where the preset deals its own hands, the tiles or cards per
    player by number of players (none: the game's own)."""

    id: str
    title: str
    rules: Mapping[str, Any] = field(default_factory=dict, hash=False)
    hand_sizes: Mapping[int, int] = field(default_factory=dict, hash=False)


class Game(Protocol):
    """One game: its engine seen from the command line, the store and the app."""

    #: The record's ``"game"``.
    id: str
    #: The game's name for people.
    title: str
    #: The store's view of the game's records.
    entries: EntryCodec

    def load(self, record: Any) -> Any:
        """Replay a record through the engine, checking every rule; a match in progress is fine.
        Returns the game's ``Match`` (a :class:`MatchState`)."""
        ...

    def score(self, record: Any) -> Scored:
        """What ``scorekeeper score`` prints: the record checked (complete) and scored."""
        ...

    def result(self, match: Any) -> Scored:
        """The scored object of a match (in progress or not): :class:`~scorekeeper.scored.Scored`."""
        ...

    def render(self, scored: Scored) -> str:
        """``scorekeeper score --text``: the scored object as a readable table."""
        ...

    def timeline(self, match: Any) -> Timeline:
        """Every side's score after each scoring step (the chart, tallies and pegboard)."""
        ...

    @property
    def rows(self) -> Callable[[Record, Scored], list[Row]] | None:
        """``export --csv``: a record and its scored object (:meth:`result`) as rows, in
        order; None (or no ``rows`` at all): one row per hand from its scores."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """A :class:`Game` put together from a game package's functions (what each
    ``scorekeeper/<game>/game.py`` makes).

    The fields are callables, so the dataclass satisfies :class:`Game`'s methods."""

    id: str
    title: str
    entries: EntryCodec
    load: Callable[[Any], Any]
    score: Callable[[Any], Scored]
    result: Callable[[Any], Scored]
    render: Callable[[Scored], str]
    timeline: Callable[[Any], Timeline]
    #: Optional: what the statistics take from a match, ``facts(record, scored)`` ->
    #: ``{"kind", "per", "best"}`` (see :mod:`scorekeeper.stats.facts`). A game
    #: without it still counts matches, wins, points and hands.
    facts: Callable[[Record, Scored], Record] | None = None
    rows: Callable[[Record, Scored], list[Row]] | None = None
    #: Optional: the kind of game a record is, as people name it, where one game holds
    #: several: see :func:`kind_of`. Each kind it returns is one of :attr:`kinds`.
    kind: Callable[[Record], str] | None = None
    #: Optional: the kinds of game the statistics count apart, the game's own first, with
    #: their names and counters (none: one kind, the game's id and title, no counters).
    kinds: tuple[Kind, ...] = ()
    #: Optional: the rule sets offered by name when a match is made, the default first.
    presets: tuple[Preset, ...] = ()
    #: Optional: how many players a match may have, as the new-match form offers them
    #: (none: whatever the engine takes).
    players: tuple[int, ...] = ()
    #: Optional: the rules a preset (None: the game's default) gives a new match of so many
    #: players, where the game deals otherwise than :func:`rules_for`'s default does.
    deal: Callable[[Preset | None, int], Mapping[str, Any]] | None = None
    #: A few small records of the game by name (a finished match, one stopped mid-hand, one
    #: with partners where the game has them), each as the game writes it back: the game
    #: contract (``tests/registry/test_game_contract.py``) runs every check on each.
    samples: Callable[[], Mapping[str, Record]] | None = None


@dataclass(frozen=True)
class Registration:
    """Where a game lives: the module whose ``GAME`` is its :class:`Game`, and the
    module of its screens (``scorekeeper/ui/shell/screens.py``'s ``GameScreens``), if it has any."""

    engine: str
    ui: str | None = None


#: The games built in: one line per game.
BUILTIN: dict[str, Registration] = {
    "all-fives": Registration("scorekeeper.allfives.game", ui="scorekeeper.ui.allfives.screens"),
    "all-fours": Registration("scorekeeper.allfours.game", ui="scorekeeper.ui.allfours.screens"),
    "broadway": Registration("scorekeeper.broadway.game", ui="scorekeeper.ui.broadway.screens"),
}

_table: dict[str, Registration] = dict(BUILTIN)
_loaded: dict[str, Game] = {}


def ids() -> tuple[str, ...]:
    """The ids of the games known, in the order they were registered (no module is imported)."""
    return tuple(_table)


def get(game_id: Any) -> Game:
    """The game whose record ``"game"`` is ``game_id``; an unknown one is a RecordFormatError."""
    if not isinstance(game_id, str) or game_id not in _table:
        raise RecordFormatError(f"unknown game {short(game_id)} (known: {', '.join(_table)})", field="game")
    game = _loaded.get(game_id)
    if game is None:
        game = importlib.import_module(_table[game_id].engine).GAME
        if game.id != game_id:  # pragma: no cover - a registration mistake
            raise RuntimeError(f"{_table[game_id].engine}.GAME is {game.id!r}, registered as {game_id!r}")
        _loaded[game_id] = game
    return game


def game_of(record: Any) -> Game:
    """The game of a record (its ``"game"``). A record whose game is not known is refused
    with the envelope's error (the first thing wrong with it: the format, a key, the game)."""
    game_id = record.get("game") if isinstance(record, dict) else None
    if not isinstance(game_id, str) or game_id not in _table:
        from scorekeeper.envelope import Envelope

        Envelope.parse(record)
    return get(game_id)


def has_kinds(game_id: Any) -> bool:
    """Whether a game's records may be of another kind than the game's id (a known game
    that has ``kind``): only then does :func:`kind_of` need the record."""
    return isinstance(game_id, str) and game_id in _table and getattr(get(game_id), "kind", None) is not None


def kind_of(record: Any) -> str:
    """The kind of game a record is, as people name it and the statistics count it apart:
    what the game's ``kind`` says (e.g. ``"fives-and-threes"`` for an All Fives record with
    that count), else the game's id. Its name for people is :func:`kind_title`'s.

    >>> kind_of({"format": "scorekeeper/1", "game": "all-fives", "rules": {"count": "fives-and-threes"}})
    'fives-and-threes'
    >>> kind_of({"format": "scorekeeper/1", "game": "broadway"})
    'broadway'
    """
    game = game_of(record)
    kind: Callable[[Record], str] | None = getattr(game, "kind", None)
    return game.id if kind is None else kind(record)


def kinds_of(game: Game) -> tuple[Kind, ...]:
    """A game's kinds (:attr:`GameSpec.kinds`), or its one kind: its id and title."""
    declared: tuple[Kind, ...] = getattr(game, "kinds", ())
    return declared or (Kind(game.id, game.title),)


def presets_of(game: Game) -> tuple[Preset, ...]:
    """A game's presets (:attr:`GameSpec.presets`; none: the game offers its rules as they are).

    >>> [p.title for p in presets_of(get("all-fives"))][:3]
    ['All Fives', 'Muggins (no spinner)', 'Five Up (all doubles spin)']
    """
    declared: tuple[Preset, ...] = getattr(game, "presets", ())
    return declared


def samples_of(game: Game) -> dict[str, Record]:
    """A game's sample records by name (:attr:`GameSpec.samples`; none: ``{}``), made anew
    at each call.

    >>> sorted(samples_of(get("broadway")))
    ['finished', 'mid-hand', 'mixed', 'partners']
    """
    make: Callable[[], Mapping[str, Record]] | None = getattr(game, "samples", None)
    return {} if make is None else dict(make())


def player_counts(game: Game) -> tuple[int, ...]:
    """How many players a match of ``game`` may have (:attr:`GameSpec.players`; none said: ``()``).

    >>> player_counts(get("all-fours")), player_counts(get("broadway"))
    ((2, 3, 4, 6), (4,))
    """
    declared: tuple[int, ...] = getattr(game, "players", ())
    return declared


def find_preset(game: Game, preset_id: str | None) -> Preset | None:
    """The game's preset ``preset_id``; None: the game's default, its first (None for a game
    without presets). An id the game does not have is a RulesError naming those it has.

    >>> find_preset(get("all-fours"), None).id, find_preset(get("broadway"), None)
    ('trinidad', None)
    >>> find_preset(get("broadway"), "muggins")
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RulesError: preset: Broadway has no preset 'muggins' (presets: none)
    """
    offered = presets_of(game)
    if preset_id is None:
        return offered[0] if offered else None
    for p in offered:
        if p.id == preset_id:
            return p
    known = ", ".join(p.id for p in offered) or "none"
    raise RulesError(f"{game.title} has no preset {short(preset_id)} (presets: {known})", field="preset")


def rules_for(game: Game | str, preset_id: str | None, players: int) -> dict[str, Any]:
    """The rules of a new match of ``game`` played by ``preset_id`` (None: the game's
    default preset) at a table of ``players``: what every new match starts from, made in
    the app's New match, for an event's table, on the command line or on the phone's site
    (a form's own choices go on top). The game's :attr:`GameSpec.deal` where it has one;
    else the preset's rules, and its ``hand_size`` where it deals that many players hands
    of its own (:attr:`Preset.hand_sizes`).

    >>> rules_for("all-fives", "sniff", 2)
    {'spinner': 'sniff', 'target': 200, 'hand_size': 7}
    >>> rules_for("all-fives", "sniff", 5), rules_for("all-fours", None, 4), rules_for("broadway", None, 4)
    ({'spinner': 'sniff', 'target': 200}, {'variant': 'trinidad'}, {})
    """
    g = get(game) if isinstance(game, str) else game
    preset = find_preset(g, preset_id)
    deal: Callable[[Preset | None, int], Mapping[str, Any]] | None = getattr(g, "deal", None)
    if deal is not None:
        return dict(deal(preset, players))
    if preset is None:
        return {}
    rules = dict(preset.rules)
    if players in preset.hand_sizes:
        rules["hand_size"] = preset.hand_sizes[players]
    return rules


def kinds() -> list[Kind]:
    """Every kind of every game known, in order (each game's own kind first).

    >>> [k.id for k in kinds()]
    ['all-fives', 'fives-and-threes', 'all-fours', 'broadway']
    """
    return [k for game in games() for k in kinds_of(game)]


def kind(kind_id: Any) -> Kind | None:
    """The kind of game ``kind_id`` names (None: no game known has it).

    >>> [c.words for c in kind("fives-and-threes").counters]
    ['points of own plays', '8s', 'dominoes', 'blocks won']
    """
    return next((k for k in kinds() if k.id == kind_id), None)


def kind_title(kind_id: str) -> str:
    """A kind of game's name for people; an unknown kind's id as it is.

    >>> kind_title("fives-and-threes"), kind_title("all-fours"), kind_title("chess")
    ('Fives and Threes', 'All Fours', 'chess')
    """
    k = kind(kind_id)
    return kind_id if k is None else k.title


def games() -> list[Game]:
    """Every game known, in order."""
    return [get(i) for i in _table]


def ui_module(game_id: Any) -> str | None:
    """The module of the game's screens, or None when the game has none (or ``game_id``
    is no game's id: whatever a stored record says)."""
    reg = _table.get(game_id) if isinstance(game_id, str) else None
    return None if reg is None else reg.ui


def register(game: Game, *, ui: str | None = None) -> None:
    """Add a game at run time (a plug-in, or a test's toy game)."""
    _table[game.id] = Registration(f"{type(game).__module__}", ui)
    _loaded[game.id] = game


def unregister(game_id: str) -> None:
    """Forget a game added with :func:`register` (built-in games stay)."""
    if game_id in BUILTIN:
        raise ValueError(f"{game_id} is built in")
    _table.pop(game_id, None)
    _loaded.pop(game_id, None)
