"""Carried-in scores, hands entered as points and adjustments: what every game shares.

A table does not always enter a hand tile by tile (or fact by fact): a hand was played
before anyone opened the app, a match started on paper is carried on, a penalty is
agreed. A record keeps these as facts too, beside the hands played, in the same match
(``docs/record-format.md``, "Scores carried in, hands entered as points, and adjustments"):

- ``"start"`` (top level): each side's score carried in when the match began
  (:func:`parse_start`; the :class:`~scorekeeper.setup.Setup` holds it);
- a **hand entered as points**, an item of ``"hands"`` with ``"points"`` (and
  ``"first"``): what each side scored in the hand, all in (:class:`PointsHand`). It is
  a hand: it has a number and counts as played, but it gives no tile or card figures;
- an **adjustment**, an item of ``"hands"`` with ``"adjust"`` and ``"why"``: points given
  or taken by the table's agreement (:class:`Adjust`). It is not a hand: the hands are
  numbered without it, and it stands between the hands where it was entered.

This module reads them from a record (their format: the sides they name and what a hand
of the game can give are checked by the game's engine, which pushes them as events),
writes them back, and does the sums every engine shares (:func:`credit_points`,
:func:`credit_adjust`): each side's score after the entry, the points an exact target
voids, and the side that reached the target -- ``first`` says which, when one entry
takes two sides there. Each engine keeps the adjustments entered as :class:`Adjustment`
values beside its hands (:func:`in_order` puts them in their place), and writes both
into its scored result with :func:`points_out` and :func:`adjust_out`.

>>> parse_item({"points": {"Us": 35, "Them": 10}}, "points", 3, 2)
PointsHand(points=(('Us', 35), ('Them', 10)), first=None)
>>> credit_points((40, 58), (25, 5), ("Us", "Them"), target=61, exact=False, first="Us", number=3).winner
0
>>> credit_points((40, 58), (25, 5), ("Us", "Them"), target=61, exact=False, first=None, number=3)
Traceback (most recent call last):
...
scorekeeper.errors.IllegalEntryError: hand 3: both sides reach 61: say which got there first
>>> adjust_words({"end": "adjust", "adjust": {"Them": -10}, "why": "misdeal", "scores": {}})
'Adjustment: Them -10 (misdeal)'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast, final

from scorekeeper.errors import IllegalEntryError, RecordFormatError, short, type_name
from scorekeeper.scored import ADJUST, POINTS, ScoredHand
from scorekeeper.text import text_problem

__all__ = [
    "ADJUST",
    "ADJUST_KEYS",
    "MAX_ENTRY",
    "MAX_START",
    "POINTS",
    "POINTS_KEYS",
    "Adjust",
    "Adjustment",
    "Credited",
    "PointsHand",
    "adjust_out",
    "adjust_words",
    "adjustment_field",
    "carried_on",
    "check_adjust",
    "credit_adjust",
    "credit_points",
    "entry_words",
    "in_order",
    "item_kind",
    "parse_adjust",
    "parse_item",
    "parse_points",
    "parse_start",
    "played_items",
    "points_line",
    "points_out",
    "points_words",
    "scores_after",
    "side_changes",
    "side_points",
    "start_lines",
    "start_out",
    "text_lines",
    "with_start",
]

#: The keys of an item of ``"hands"`` entered as points (its scored hand's ``end`` is
#: :data:`POINTS`), and of an adjustment (its scored entry's ``end``: :data:`ADJUST`).
POINTS_KEYS = ("points", "first")
ADJUST_KEYS = ("adjust", "why")
#: The most points one hand entered as points, or one adjustment, may give or take a side.
MAX_ENTRY = 9_999
#: The highest score a side may carry in where the game has no target (Broadway).
MAX_START = 9_999


# ---------------------------------------------------------------------- events
@final
@dataclass(frozen=True, slots=True)
class PointsHand:
    """A hand entered as points: what each side scored in it, all in (``points``, in the
    order the record names the sides), and the side that reached the target first when
    two or more did (``first``)."""

    points: tuple[tuple[str, int], ...]
    first: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record's item of this hand."""
        out: dict[str, Any] = {"points": dict(self.points)}
        if self.first is not None:
            out["first"] = self.first
        return out


@final
@dataclass(frozen=True, slots=True)
class Adjust:
    """Points given (or taken: below 0) to the sides named, for a reason said in words."""

    changes: tuple[tuple[str, int], ...]
    why: str

    def to_json(self) -> dict[str, Any]:
        """The record's item of this adjustment."""
        return {"adjust": dict(self.changes), "why": self.why}


@dataclass(frozen=True, slots=True)
class Adjustment:
    """An adjustment as an engine keeps it: after how many hands it was entered
    (``after``), the change of each side (in the order of the sides), the reason, and
    the scores before and after it."""

    after: int
    changes: tuple[int, ...]
    why: str
    scores_before: tuple[int, ...]
    scores_after: tuple[int, ...]


def adjustment_field(after: int, key: str | None = None) -> str:
    """Where an adjustment's error is, in the words of every error line: an adjustment is
    not a hand, so it is named by the hand it follows.

    >>> adjustment_field(2, "why"), adjustment_field(0)
    ('adjustment after hand 2, why', 'adjustment before hand 1')
    """
    where = f"adjustment after hand {after}" if after else "adjustment before hand 1"
    return f"{where}, {key}" if key else where


# ---------------------------------------------------------------------- reading
def item_kind(item: Any) -> str | None:
    """``"points"`` for an item of ``"hands"`` entered as points, ``"adjust"`` for an
    adjustment, None for any other item (a hand the game reads its own way).

    >>> item_kind({"points": {}}), item_kind({"why": "late"}), item_kind({"leader": "Ann"})
    ('points', 'adjust', None)
    """
    if isinstance(item, dict):
        if "points" in item:
            return POINTS
        if "adjust" in item or "why" in item:
            return ADJUST
    return None


def _amounts(value: Any, what: str, *, zero: bool, **where: Any) -> tuple[tuple[str, int], ...]:
    """An object of sides to whole numbers (``zero``: 0 allowed), as pairs in order."""
    if not isinstance(value, dict):
        raise RecordFormatError(f"must map each side to its points, not {type_name(value)}", **where)
    pairs = []
    for side, n in value.items():
        who = side if isinstance(side, str) and len(side) <= 40 else short(side)
        if type(n) is not int:
            raise RecordFormatError(f"{what} of {who} must be a whole number, not {short(n)}", **where)
        if not -MAX_ENTRY <= n <= MAX_ENTRY:
            raise RecordFormatError(
                f"{what} of {who} must be from -{MAX_ENTRY:,} to {MAX_ENTRY:,}, not {short(n)}", **where
            )
        if not n and not zero:
            raise RecordFormatError(f"{what} of {who} is 0: an adjustment names only the sides it changes", **where)
        pairs.append((side, n))
    return tuple(pairs)


def parse_points(item: Any, number: int) -> PointsHand:
    """Hand ``number`` entered as points: ``{"points": {side: n, ...}, "first": side}``
    (its format; the engine checks the sides and what a hand of its game can give)."""
    if not isinstance(item, dict):
        raise RecordFormatError(f"a hand must be an object, not {type_name(item)}", hand=number)
    for key in item:
        if key not in POINTS_KEYS:
            raise RecordFormatError(
                f"unknown key {short(key)} in a hand entered as points (known: {', '.join(POINTS_KEYS)})", hand=number
            )
    points = _amounts(item.get("points"), "the points", zero=True, hand=number, field="points")
    first = item.get("first")
    if "first" in item and not isinstance(first, str):
        raise RecordFormatError(f"must name a side, not {type_name(first)}", hand=number, field="first")
    return PointsHand(points, first)


def parse_adjust(item: Any, after: int) -> Adjust:
    """The adjustment entered after ``after`` hands: ``{"adjust": {side: n, ...}, "why":
    "..."}``, each ``n`` a whole number but 0, ``why`` a line of text saying why."""
    if not isinstance(item, dict):
        raise RecordFormatError(
            f"an adjustment must be an object, not {type_name(item)}", field=adjustment_field(after)
        )
    for key in item:
        if key not in ADJUST_KEYS:
            raise RecordFormatError(
                f"unknown key {short(key)} in an adjustment (known: {', '.join(ADJUST_KEYS)})",
                field=adjustment_field(after),
            )
    for key in ADJUST_KEYS:
        if key not in item:
            why = "the sides it changes and by how much" if key == "adjust" else "why it is made, in words"
            raise RecordFormatError(f"an adjustment says {why}: {key} is missing", field=adjustment_field(after))
    changes = _amounts(item["adjust"], "the change", zero=False, field=adjustment_field(after, "adjust"))
    if not changes:
        raise RecordFormatError("an adjustment names at least one side", field=adjustment_field(after, "adjust"))
    why = item["why"]
    if not isinstance(why, str) or not why.strip():
        raise RecordFormatError(
            f"must say why, in a line of text, not {short(why)}", field=adjustment_field(after, "why")
        )
    problem = text_problem(why, "the reason")
    if problem:
        raise RecordFormatError(problem, field=adjustment_field(after, "why"))
    return Adjust(changes, why)


def parse_item(item: Any, kind: str, number: int, after: int) -> PointsHand | Adjust:
    """An item of ``"hands"`` of ``kind`` (:func:`item_kind`) as its event: hand ``number``
    entered as points, or the adjustment after ``after`` hands."""
    return parse_points(item, number) if kind == POINTS else parse_adjust(item, after)


def parse_start(value: Any, sides: Sequence[str], target: int | None) -> tuple[int, ...]:
    """A record's ``"start"``: every side's score carried in, in the order of ``sides``,
    each a whole number from 0 to below the ``target`` (at most 9,999 without one).

    >>> parse_start({"Them": 70, "Us": 85}, ("Us", "Them"), 121)
    (85, 70)
    >>> parse_start({"Us": 61, "Them": 0}, ("Us", "Them"), 61)
    Traceback (most recent call last):
    ...
    scorekeeper.errors.RecordFormatError: start: Us carries in 61: a side starts below the target (61)
    """
    if not isinstance(value, dict):
        raise RecordFormatError(f"must map each side to the score it carries in, not {type_name(value)}", field="start")
    for side in value:
        if side not in sides:
            raise RecordFormatError(f"{short(side)} is not a side (sides: {', '.join(sides)})", field="start")
    out = []
    for side in sides:
        if side not in value:
            raise RecordFormatError(f"every side is named: {side} is missing", field="start")
        n = value[side]
        if type(n) is not int:
            raise RecordFormatError(f"the score of {side} must be a whole number, not {short(n)}", field="start")
        if n < 0:
            raise RecordFormatError(f"the score of {side} cannot be below 0 ({short(n)})", field="start")
        if target is not None and n >= target:
            raise RecordFormatError(
                f"{side} carries in {short(n)}: a side starts below the target ({target})", field="start"
            )
        if target is None and n > MAX_START:
            raise RecordFormatError(f"the score of {side} must be at most {MAX_START:,}, not {short(n)}", field="start")
        out.append(n)
    return tuple(out)


def played_items(hands: Any) -> list[Any]:
    """The items of a record's ``"hands"`` that are hands played tile by tile or fact by
    fact, in order: without the hands entered as points and the adjustments (what a
    game's own statistics and rows read beside its own scored hands)."""
    return [h for h in hands if item_kind(h) is None] if isinstance(hands, list) else []


# ---------------------------------------------------------------------- the engines' sums
def side_points(points: Iterable[tuple[str, int]], sides: Sequence[str], number: int) -> tuple[int, ...]:
    """The points of a hand entered as points, in the order of ``sides``: every side
    named once, no other (a :class:`~scorekeeper.errors.IllegalEntryError` at ``points``)."""
    by: dict[str, int] = {}
    for side, n in points:
        if side not in sides:
            raise IllegalEntryError(
                f"{short(side)} is not a side (sides: {', '.join(sides)})", hand=number, field="points"
            )
        if side in by:
            raise IllegalEntryError(f"{side} is named twice", hand=number, field="points")
        if type(n) is not int or not -MAX_ENTRY <= n <= MAX_ENTRY:
            raise IllegalEntryError(
                f"the points of {side} must be a whole number from -{MAX_ENTRY:,} to {MAX_ENTRY:,}, not {short(n)}",
                hand=number,
                field="points",
            )
        by[side] = n
    missing = [s for s in sides if s not in by]
    if missing:
        raise IllegalEntryError(f"every side is named: {missing[0]} is missing", hand=number, field="points")
    return tuple(by[s] for s in sides)


def side_changes(changes: Iterable[tuple[str, int]], sides: Sequence[str], after: int) -> tuple[int, ...]:
    """An adjustment's change of every side, in the order of ``sides`` (0 where it names
    none): the sides it names are sides, each once, each changed."""
    out = [0] * len(sides)
    where = adjustment_field(after, "adjust")
    seen: set[str] = set()
    for side, n in changes:
        if side not in sides:
            raise IllegalEntryError(f"{short(side)} is not a side (sides: {', '.join(sides)})", field=where)
        if side in seen:
            raise IllegalEntryError(f"{side} is named twice", field=where)
        if type(n) is not int or not n or not -MAX_ENTRY <= n <= MAX_ENTRY:
            raise IllegalEntryError(f"the change of {side} must be a whole number but 0, not {short(n)}", field=where)
        seen.add(side)
        out[sides.index(side)] = n
    if not seen:
        raise IllegalEntryError("an adjustment names at least one side", field=where)
    return tuple(out)


def check_adjust(adjust: Adjust, sides: Sequence[str], after: int) -> tuple[int, ...]:
    """An adjustment's change of every side (:func:`side_changes`), its reason checked too:
    a line of text (an event may be made without a record)."""
    why = adjust.why
    where = adjustment_field(after, "why")
    if not isinstance(why, str) or not why.strip():
        raise IllegalEntryError(f"must say why, in a line of text, not {short(why)}", field=where)
    problem = text_problem(why, "the reason")
    if problem:
        raise IllegalEntryError(problem, field=where)
    return side_changes(adjust.changes, sides, after)


@dataclass(frozen=True, slots=True)
class Credited:
    """What a hand entered as points (or an adjustment) did: each side's score after it,
    what it added to each (0 where voided), the sides whose points an exact target voided,
    and the side that won the match by it (None: nobody)."""

    scores: tuple[int, ...]
    counted: tuple[int, ...]
    voided: tuple[int, ...] = ()
    winner: int | None = None


def _names(sides: Sequence[str], which: Sequence[int]) -> str:
    names = [sides[i] for i in which]
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def credit_points(
    before: Sequence[int],
    points: Sequence[int],
    sides: Sequence[str],
    *,
    target: int | None,
    exact: bool,
    first: str | None,
    number: int,
) -> Credited:
    """Hand ``number`` entered as ``points`` (in side order) on the scores ``before`` it.

    With an ``exact`` target, a side's points that would take it past ``target`` are
    voided (counted as 0). A side whose points take it to the target wins; when two or
    more do, ``first`` must say which got there first. Without a target (``None``: the
    game decides the winner its own way) nobody wins here and ``first`` is refused."""
    if first is not None and first not in sides:
        raise IllegalEntryError(f"{short(first)} is not a side (sides: {', '.join(sides)})", hand=number, field="first")
    counted = list(points)
    voided = []
    if target is not None and exact:
        for s, p in enumerate(points):
            if p > 0 and before[s] + p > target:
                counted[s] = 0
                voided.append(s)
    after = tuple(b + c for b, c in zip(before, counted, strict=True))
    if target is None:
        if first is not None:
            raise IllegalEntryError("this match has no target to reach: first is not said", hand=number, field="first")
        return Credited(after, tuple(counted), tuple(voided))
    reached = [s for s, c in enumerate(counted) if c > 0 and after[s] >= target]
    if len(reached) > 1:
        if first is None:
            both = "both sides" if len(reached) == len(sides) == 2 else _names(sides, reached)
            raise IllegalEntryError(f"{both} reach {target}: say which got there first", hand=number)
        if sides.index(first) not in reached:
            raise IllegalEntryError(
                f"{first} does not reach {target} in this hand ({_names(sides, reached)} do)",
                hand=number,
                field="first",
            )
        winner: int | None = sides.index(first)
    elif reached:
        winner = reached[0]
        if first is not None and first != sides[winner]:
            raise IllegalEntryError(
                f"only {sides[winner]} reaches {target} in this hand, not {first}", hand=number, field="first"
            )
    else:
        if first is not None:
            raise IllegalEntryError(f"no side reaches {target} in this hand", hand=number, field="first")
        winner = None
    return Credited(after, tuple(counted), tuple(voided), winner)


def credit_adjust(
    before: Sequence[int], changes: Sequence[int], sides: Sequence[str], *, target: int | None, after: int
) -> Credited:
    """An adjustment of ``changes`` (in side order) on the scores ``before`` it: never
    voided; a side it takes to the ``target`` wins (one side at a time)."""
    scores = tuple(b + c for b, c in zip(before, changes, strict=True))
    if target is None:
        return Credited(scores, tuple(changes))
    reached = [s for s, c in enumerate(changes) if c > 0 and scores[s] >= target]
    if len(reached) > 1:
        raise IllegalEntryError(
            f"{_names(sides, reached)} would all reach {target} at once: adjust one side at a time, "
            "the side that got there first first",
            field=adjustment_field(after, "adjust"),
        )
    return Credited(scores, tuple(changes), (), reached[0] if reached else None)


# ---------------------------------------------------------------------- in order
class _Entry(Protocol):
    @property
    def scores_before(self) -> tuple[int, ...]: ...


H = TypeVar("H", bound=_Entry)


def in_order(hands: Sequence[H], adjustments: Sequence[Adjustment]) -> list[H | Adjustment]:
    """The hands and the adjustments of a match in the order they were entered (each
    adjustment after the ``after`` hands it followed)."""
    out: list[H | Adjustment] = []
    pending = list(adjustments)
    for i, hand in enumerate(hands):
        while pending and pending[0].after <= i:
            out.append(pending.pop(0))
        out.append(hand)
    return out + pending


def scores_after(entries: Sequence[H | Adjustment], final: Sequence[int]) -> list[tuple[int, ...]]:
    """Every side's score after each of ``entries`` (:func:`in_order`'s): the scores before
    the next one, and ``final`` after the last."""
    return [entries[i + 1].scores_before if i + 1 < len(entries) else tuple(final) for i in range(len(entries))]


# ---------------------------------------------------------------------- the scored result
def start_out(sides: Sequence[str], start: Sequence[int] | None) -> dict[str, int] | None:
    """The scored result's ``start`` (None: the record carries nothing in)."""
    return None if start is None else dict(zip(sides, start, strict=True))


S = TypeVar("S", bound=Mapping[str, object])


def with_start(out: S, start: dict[str, int] | None) -> S:
    """A scored result with the scores carried in (``start``) just before its ``hands``,
    where there are some (a record that carries nothing in is scored as it always was)."""
    if start is None:
        return out
    items = list(out.items())
    items.insert([k for k, _ in items].index("hands"), ("start", start))
    return cast(S, dict(items))


def points_out(
    number: int, sides: Sequence[str], points: Sequence[int], voided: Sequence[int], scores: Sequence[int]
) -> ScoredHand:
    """A hand entered as points in the scored result: its ``number``, ``end`` "points",
    the ``points`` entered, ``voided`` (true, with the ``voided_sides``) where an exact
    target voided some, and the ``scores`` after it."""
    out: dict[str, Any] = {"number": number, "end": POINTS, "points": dict(zip(sides, points, strict=True))}
    if voided:
        out["voided"] = True
        out["voided_sides"] = [sides[s] for s in voided]
    out["scores"] = dict(zip(sides, scores, strict=True))
    return cast(ScoredHand, out)


def adjust_out(sides: Sequence[str], adjustment: Adjustment) -> ScoredHand:
    """An adjustment in the scored result: ``end`` "adjust" (and no ``number``: it is not a
    hand), the sides it changed (``adjust``), ``why`` and the ``scores`` after it."""
    return {
        "end": ADJUST,
        "adjust": {sides[s]: n for s, n in enumerate(adjustment.changes) if n},
        "why": adjustment.why,
        "scores": dict(zip(sides, adjustment.scores_after, strict=True)),
    }


# ---------------------------------------------------------------------- samples
def carried_on(
    played: Mapping[str, Any], start: dict[str, int], points: dict[str, int], adjust: dict[str, int]
) -> dict[str, Any]:
    """A match carried on from paper, for the games' samples: the record ``played`` with the
    scores carried in (``start``), then a hand entered as ``points`` and an adjustment
    (for a misdeal) before its hands."""
    record = {k: v for k, v in played.items() if k not in ("start", "rules", "hands")}
    record["start"] = start
    if "rules" in played:
        record["rules"] = played["rules"]
    record["hands"] = [{"points": points}, {"adjust": adjust, "why": "misdeal"}, *played.get("hands", [])]
    return record


# ---------------------------------------------------------------------- in words
def points_words(hand: Mapping[str, Any]) -> str:
    """A hand entered as points, as History and the Score screen title it.

    >>> points_words({"number": 4, "end": "points"})
    'Hand 4 · entered as points'
    """
    return f"Hand {hand['number']} · entered as points"


def adjust_words(entry: Mapping[str, Any]) -> str:
    """An adjustment in words: ``Adjustment: East-West -10 (misdeal)``."""
    changes = ", ".join(f"{side} {n:+d}" for side, n in entry["adjust"].items())
    return f"Adjustment: {changes} ({entry['why']})"


def points_line(hand: Mapping[str, Any]) -> str:
    """What a hand entered as points gave each side: ``Us +35, Them +10``, a voided side's
    points said so (``Us 5 voided``)."""
    voided = set(hand.get("voided_sides") or ())
    return ", ".join(
        f"{side} {n} voided" if side in voided else f"{side} {n:+d}" if n else f"{side} 0"
        for side, n in hand["points"].items()
    )


def text_lines(entry: Mapping[str, Any]) -> list[str] | None:
    """``scorekeeper score --text`` (and History) of a hand entered as points or an
    adjustment: its title, what it gave, the scores after it; None for another hand.

    >>> text_lines({"number": 4, "end": "points", "points": {"Us": 35, "Them": 10}, "scores": {"Us": 120, "Them": 80}})
    ['Hand 4 · entered as points', '  points: Us +35, Them +10', '  scores: Us 120, Them 80']
    """
    title = entry_words(entry)
    if title is None:
        return None
    lines = [title]
    if entry["end"] == POINTS:
        lines.append(f"  points: {points_line(entry)}")
    lines.append("  scores: " + ", ".join(f"{k} {v}" for k, v in entry["scores"].items()))
    return lines


def start_lines(scored: Mapping[str, Any]) -> list[str]:
    """The ``--text`` line of the scores a match carried in (none where it carried none)."""
    start = scored.get("start")
    return [] if not start else ["Carried in: " + ", ".join(f"{k} {v}" for k, v in start.items())]


def entry_words(entry: Mapping[str, Any]) -> str | None:
    """A scored hand entered as points, or an adjustment, in words (None: another hand)."""
    if entry.get("end") == POINTS:
        return points_words(entry)
    if entry.get("end") == ADJUST:
        return adjust_words(entry)
    return None
