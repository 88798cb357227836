"""What the store needs to know of each game: how a record splits into the
entries people make at the table, how an entry is checked through the game's
engine and added to the record, and how the last one is taken back.

All Fives entries: ``{"hand": {"leader": ...}}``, ``{"turn": {...}}``,
``{"remaining": {...}}``.  All Fours entries: ``{"hand": {"dealer": ...}}``
starts a hand, ``{"fact": {"high": "Ben"}}`` sets facts of the hand being
entered (a fact given again replaces the earlier one); undo takes back the
last fact entered (a record keeps its facts in the order they were entered).  Broadway
entries: ``{"hand": {"leader": ...}}``, ``{"turn": {...}}`` (a play with ``at``,
a pass, an exposed tile), ``{"unplayed": {...}}``.

>>> entries_of({"game": "all-fours", "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben"}]})
[{'hand': {'dealer': 'Ann'}}, {'fact': {'turn_up': ['J']}}, {'fact': {'high': 'Ben'}}]
"""

from __future__ import annotations

from typing import Any

from scorekeeper.envelope import type_name
from scorekeeper.store.errors import StoreError

__all__ = ["GameAdapter", "adapter_for", "entries_of"]


class GameAdapter:
    """The store's view of one game (subclasses below)."""

    game = ""
    kinds: tuple[str, ...] = ()

    def load(self, record: dict):
        raise NotImplementedError

    def entries_of(self, record: dict) -> list[dict]:
        raise NotImplementedError

    def entry_kind(self, entry: Any) -> tuple[str, Any]:
        names = ", ".join(f'{{"{k}": ...}}' for k in self.kinds)
        if not isinstance(entry, dict) or len(entry) != 1:
            raise StoreError(f"an entry is one of {names}, not {entry!r}"[:200])
        ((kind, value),) = entry.items()
        if kind not in self.kinds:
            raise StoreError(f"unknown entry {kind!r} (an entry is one of {names})")
        if kind in ("hand", "fact") and not isinstance(value, dict):
            raise StoreError(f"a {kind} entry must be an object, not {type_name(value)}")
        return kind, value

    def push(self, match, record: dict, kind: str, value: Any) -> None:
        """Check the entry through the engine and push it (raises; nothing changed then)."""
        raise NotImplementedError

    def apply(self, record: dict, kind: str, value: Any) -> None:
        """Add a checked entry to the record (in place)."""
        raise NotImplementedError

    def drop_last(self, record: dict) -> dict:
        """Remove the last entry of the record (in place) and return it."""
        raise NotImplementedError

    def undo(self, match, record: dict, entry: dict) -> None:
        """Take ``entry`` (just dropped from ``record``) back from the engine state."""
        match.undo()

    def edit(self, record: dict, hand: int, where: Any, value: Any) -> None:
        """Correct an entry of hand ``hand`` in the record (in place); the store re-checks it all."""
        raise NotImplementedError


class _TurnGame(GameAdapter):
    """A game entered as a hand's leader, its turns one by one, then what was left
    in hands (``end``: the record's key for it)."""

    end = ""

    def entries_of(self, record):
        out: list[dict] = []
        for hand in record.get("hands", []):
            out.append({"hand": {k: v for k, v in hand.items() if k not in ("turns", self.end)}})
            out.extend({"turn": t} for t in hand.get("turns", []))
            if self.end in hand:
                out.append({self.end: hand[self.end]})
        return out

    def apply(self, record, kind, value):
        hands = record.setdefault("hands", [])
        if kind == "hand":
            hands.append({**value, "turns": []})
        elif kind == "turn":
            hands[-1]["turns"].append(value)
        else:
            hands[-1][self.end] = value

    def drop_last(self, record):
        hands = record.get("hands") or []
        if not hands:
            raise StoreError("there is nothing to undo")
        last = hands[-1]
        if self.end in last:
            return {self.end: last.pop(self.end)}
        if last.get("turns"):
            return {"turn": last["turns"].pop()}
        hands.pop()
        return {"hand": {k: v for k, v in last.items() if k != "turns"}}

    @staticmethod
    def _leader_entry(value):
        for key in value:
            if key != "leader":
                raise StoreError(f"unknown key {key!r} in a hand entry")


class AllFives(_TurnGame):
    game = "all-fives"
    kinds = ("hand", "turn", "remaining")
    end = "remaining"

    def load(self, record):
        from scorekeeper.allfives.record import load

        return load(record)

    def push(self, match, record, kind, value):
        from scorekeeper.allfives.record import parse_leader, parse_remaining, parse_turn

        highest = match.rules.set
        if kind == "hand":
            self._leader_entry(value)
            event = parse_leader(value, len(match.hands) + 1)
        elif kind == "turn":
            h = match.hand
            number = h.number if h else 1
            event = parse_turn(value, highest, number, (len(h.turns) + 1) if h else 1)
        else:
            event = parse_remaining(value, highest, match.hand.number if match.hand else 1)
        match.push(event)

    def edit(self, record, hand, where, value):
        h = record["hands"][hand - 1]
        if where == "leader":
            if value is None:
                h.pop("leader", None)
            else:
                h["leader"] = value
        elif where == "remaining":
            if "remaining" not in h:
                raise StoreError(f"hand {hand} has no remaining to correct")
            h["remaining"] = value
        elif type(where) is int and 1 <= where <= len(h.get("turns", [])):
            h["turns"][where - 1] = value
        else:
            raise StoreError(f"hand {hand} has no turn {where}")


class AllFours(GameAdapter):
    game = "all-fours"
    kinds = ("hand", "fact")

    def load(self, record):
        from scorekeeper.allfours.record import load

        return load(record)

    def entries_of(self, record):
        out: list[dict] = []
        for hand in record.get("hands", []):
            out.append({"hand": {k: v for k, v in hand.items() if k == "dealer"}})
            out.extend({"fact": {k: v}} for k, v in hand.items() if k != "dealer")
        return out

    @staticmethod
    def _merged(last: dict, value: dict) -> dict:
        new = {k: v for k, v in last.items() if k not in value}
        new.update(value)
        return new

    def push(self, match, record, kind, value):
        if kind == "hand":
            match.push(value)
            return
        hands = record.get("hands") or []
        if not hands:
            raise StoreError("no hand has been started: enter the dealer first", hand=1)
        if "dealer" in value:
            raise StoreError("the dealer starts a hand: enter a new hand instead", hand=len(hands))
        if not value:
            raise StoreError("a fact entry names at least one fact", hand=len(hands))
        match.replace_last(self._merged(hands[-1], value))

    def apply(self, record, kind, value):
        hands = record.setdefault("hands", [])
        if kind == "hand":
            hands.append(dict(value))
        else:
            hands[-1] = self._merged(hands[-1], value)

    def drop_last(self, record):
        hands = record.get("hands") or []
        if not hands:
            raise StoreError("there is nothing to undo")
        last = hands[-1]
        facts = [k for k in last if k != "dealer"]
        if facts:
            key = facts[-1]
            return {"fact": {key: last.pop(key)}}
        hands.pop()
        return {"hand": last}

    def undo(self, match, record, entry):
        if "hand" in entry:
            match.undo()
        else:
            match.replace_last(record["hands"][-1])

    def edit(self, record, hand, where, value):
        from scorekeeper.allfours.engine import HAND_KEYS

        h = record["hands"][hand - 1]
        if where not in HAND_KEYS:
            raise StoreError(f"hand {hand} has no fact {where!r} (facts: {', '.join(HAND_KEYS)})")
        if value is None and where != "dealer":
            h.pop(where, None)
        else:
            h[where] = value


class Broadway(_TurnGame):
    """Like All Fives: a hand's leader, its turns one by one, then the tiles left unplayed."""

    game = "broadway"
    kinds = ("hand", "turn", "unplayed")
    end = "unplayed"

    def load(self, record):
        from scorekeeper.broadway.record import load

        return load(record)

    def push(self, match, record, kind, value):
        from scorekeeper.broadway.record import parse_leader, parse_turn, parse_unplayed

        h = match.hand
        if kind == "hand":
            self._leader_entry(value)
            event = parse_leader(value, len(match.hands) + 1)
        elif kind == "turn":
            event = parse_turn(value, h.number if h else 1, (len(h.turns) + 1) if h else 1)
        else:
            event = parse_unplayed(value, h.number if h else 1)
        match.push(event)

    def edit(self, record, hand, where, value):
        h = record["hands"][hand - 1]
        if where == "leader":
            h["leader"] = value
        elif where == "unplayed":
            if "unplayed" not in h:
                raise StoreError(f"hand {hand} has no unplayed tiles to correct")
            h["unplayed"] = value
        elif type(where) is int and 1 <= where <= len(h.get("turns", [])):
            h["turns"][where - 1] = value
        else:
            raise StoreError(f"hand {hand} has no turn {where}")


_ADAPTERS = {a.game: a for a in (AllFives(), AllFours(), Broadway())}


def adapter_for(record: Any) -> GameAdapter:
    """The adapter of a record's game (All Fives for anything else: its engine then
    refuses the record with the envelope's message)."""
    game = record.get("game") if isinstance(record, dict) else None
    return _ADAPTERS.get(game, _ADAPTERS["all-fives"])


def entries_of(record: dict) -> list[dict]:
    """A record's entries in the order they were entered.

    >>> entries_of({"hands": [{"leader": "Ann", "turns": [{"play": "5-0"}], "remaining": {"Ben": 3}}]})
    [{'hand': {'leader': 'Ann'}}, {'turn': {'play': '5-0'}}, {'remaining': {'Ben': 3}}]
    """
    return adapter_for(record).entries_of(record)
