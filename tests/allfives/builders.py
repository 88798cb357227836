"""Small builders of match records for the black-box spec tests."""


def record(players=("Ann", "Ben"), hands=(), rules=None, teams=None, **extra):
    """A scorekeeper/1 All Fives record."""
    r = {"format": "scorekeeper/1", "game": "all-fives", "players": list(players)}
    if teams is not None:
        r["teams"] = teams
    if rules is not None:
        r["rules"] = rules
    r["hands"] = list(hands)
    r.update(extra)
    return r


def P(tile, on=None, **kw):
    """A play turn."""
    t = {"play": tile}
    if on is not None:
        t["on"] = on
    t.update(kw)
    return t


def PASS(draw=None, **kw):
    """A pass turn."""
    t = {"pass": True}
    if draw is not None:
        t["draw"] = draw
    t.update(kw)
    return t


def H(turns, leader=None, remaining=None, **extra):
    """A hand."""
    h = {}
    if leader is not None:
        h["leader"] = leader
    h["turns"] = list(turns)
    if remaining is not None:
        h["remaining"] = remaining
    h.update(extra)
    return h
