"""An All Fours hand in words for the hand screen, without any Flet: the credited
items, where an item stands in the counting order, one line per hand, and what
each fact entered says.  They read the engine's values (:class:`~scorekeeper.allfours.engine.Item`,
:class:`~scorekeeper.allfours.engine.HandResult` and its typed facts).

>>> from scorekeeper.allfours.engine import Match, Setup
>>> m = Match(Setup.new(["Ann", "Ben"]))
>>> m.start("Ann")
>>> h = m.enter(turn_up=["J"], high="Ben", jack={"held": "Ann", "won": "Ben"})
>>> [item_text(m, i) for i in h.items]
['Ann +3 turn-up (J)', 'Ben +1 high', 'Ben +3 hang-jack']
>>> at_text(h.items[0]), at_text(h.items[-1])
('the turn-up (J)', 'Hang Jack')
>>> hand_line(m, h)
'Hand 1, Ann dealt: Ann +3 turn-up (J); Ben +1 high; Ben +3 hang-jack -> 3 - 4'
>>> fact_words(m, h)
{'high': 'Ben', 'jack': 'Ann held, Ben won'}
"""

from __future__ import annotations

from scorekeeper.allfours.engine import HandResult, Item, Match
from scorekeeper.allfours.events import Beg, High, Jack, Low

__all__ = ["at_text", "fact_words", "hand_line", "item_text"]

#: An item's place in the counting order, for the winner's line.
_AT_NAMES = {
    "turn-up": "the turn-up",
    "gift": "the gift",
    "misdeal": "the misdeal",
    "revoke": "the revoke",
    "peek": "the peek",
    "award": "an award",
    "high": "High",
    "low": "Low",
    "jack": "Jack",
    "hang-jack": "Hang Jack",
    "game": "Game",
}


def item_text(m: Match, item: Item) -> str:
    """One credited item in words: ``Ann +3 turn-up (J)``."""
    extra = dict(item.extra)
    what = item.label
    if "card" in extra:
        what += f" ({extra['card']})"
    elif "by" in extra:
        what += f" by {extra['by']}"
    elif extra.get("reason"):
        what += f" ({extra['reason']})"
    return f"{m.setup.sides[item.side]} +{item.points} {what}"


def at_text(item: Item) -> str:
    """Where in the counting order an item stands, for the winner's line: ``Hang Jack``."""
    extra = dict(item.extra)
    text = _AT_NAMES.get(item.label, item.label)
    if "card" in extra:
        text += f" ({extra['card']})"
    elif "by" in extra:
        text += f" by {extra['by']}"
    return text


def hand_line(m: Match, h: HandResult) -> str:
    """One hand: its dealer, its items and the scores after it (a hand entered as points:
    what each side scored in it)."""
    scores = " - ".join(str(s) for s in h.scores_after)
    if h.entered is not None:
        points = ", ".join(f"{side} +{n}" for side, n in zip(m.setup.sides, h.entered, strict=True))
        return f"Hand {h.number} · entered as points: {points} -> {scores}"
    items = "; ".join(item_text(m, i) for i in h.items) or "nothing scored"
    extra = " (misdeal)" if h.void else ""
    if h.all_four is not None:
        extra += f" - all four: {m.setup.sides[h.all_four]}"
    return f"Hand {h.number}, {m.setup.players[h.dealer]} dealt{extra}: {items} -> {scores}"


def fact_words(m: Match, h: HandResult | None) -> dict[str, str]:
    """What each end-of-hand fact and the beg of hand ``h`` say, for the screen's buttons."""
    out: dict[str, str] = {}
    if h is None:
        return out
    for fact in (h.fact("high"), h.fact("low")):
        if isinstance(fact, High | Low):
            out[fact.key] = fact.player if fact.player is not None else "nobody"
    jack = h.fact("jack")
    if isinstance(jack, Jack):
        out["jack"] = "not in play" if jack.held is None or jack.won is None else f"{jack.held} held, {jack.won} won"
    if h.fact("game") is not None or h.fact("game_cards") is not None:
        pts = h.card_points
        out["game"] = ", ".join(f"{s} {p}" for s, p in zip(m.setup.sides, pts, strict=True)) if pts else "entered"
    beg = h.fact("beg")
    if isinstance(beg, Beg):
        out["beg"] = beg.answer or "-"
    return out
