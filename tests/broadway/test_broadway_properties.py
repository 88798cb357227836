"""Property tests of the Broadway engine over random legal matches.

Matches come from :func:`scorekeeper.broadway.simulate.random_match`: every
hand deals the 28 tiles, 7 to each seat; the holder of the double leads it
and then every player sets a random legal tile, or passes (also, now and
then, when a tile would fit), or exposes a tile and loses the turn; blocked
hands are settled with counts or tile lists. Hypothesis picks the seed, the
rules, the team names and order, how often players pass or expose, whether
the record stops mid-hand, and whether the match starts from seven hands
that leave the sides level (so that sudden death is played).

The checks recount everything from the ``scorekeeper score`` output alone
(tile, cells, players), independently of the engine.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.broadway import Match, Placement, Setup, load, result, score_record, to_record
from scorekeeper.broadway.record import iter_events
from scorekeeper.broadway.simulate import random_match
from scorekeeper.dominoes.tiles import tiles_of_set
from scorekeeper.errors import ScorekeeperError

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = ["Ann", "Ben", "Cy", "Di"]
DOUBLES = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
POINTS = {1: 0, 2: 1, 3: 5}  # 4 or more: 10


# ------------------------------------------------------------------ matches
def level_prefix(setup: Setup) -> Match:
    """Seven hands after which the sides are level: in hands 1-6 the leader (Ann, Ben,
    alternately) sets the double and four passes follow; in hand 7 Ann sets 0-0, Ben
    0-5, four passes. Then sudden death."""
    m = Match(setup)
    for n in range(1, 7):
        leader = "Ann" if n % 2 else "Ben"
        d = DOUBLES[n - 1]
        second = (1, 0) if leader == "Ann" else (0, 1)
        m.start(leader)
        m.play(d, [(0, 0), second])
        for _ in range(4):
            m.pass_()
        m.settle({p: 6 if p == leader else 7 for p in PLAYERS})
    m.start("Ann")
    m.play("0-0", [(0, 0), (1, 0)])
    m.play("0-5", [(0, 1), (0, 2)])
    for _ in range(4):
        m.pass_()
    m.settle({"Ann": 6, "Ben": 6, "Cy": 7, "Di": 7})
    assert m.scores[0] == m.scores[1] and m.winner is None
    return m


@st.composite
def configs(draw):
    rules = draw(
        st.sampled_from(
            [
                None,
                {"orientation": "free"},
                {"unplayed_penalty": "to-opponents"},
                {"orientation": "free", "unplayed_penalty": "to-opponents"},
            ]
        )
    )
    teams = draw(
        st.sampled_from(
            [None, {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}, {"EW": ["Di", "Ben"], "NS": ["Cy", "Ann"]}]
        )
    )
    return dict(
        seed=draw(st.integers(0, 2**32 - 1)),
        rules=rules,
        teams=teams,
        pass_rate=draw(st.sampled_from([0.0, 0.05, 0.3])),
        expose_rate=draw(st.sampled_from([0.0, 0.03, 0.1])),
        list_rate=draw(st.sampled_from([0.0, 0.5, 1.0])),
        max_hands=draw(st.sampled_from([None, 1, 2, 3])),
        stop_rate=draw(st.sampled_from([0.0, 0.0, 0.02])),
        level=draw(st.integers(0, 3)) == 0,
    )


def make(cfg) -> Match:
    cfg = dict(cfg)
    seed, level = cfg.pop("seed"), cfg.pop("level")
    if level:
        prefix = level_prefix(Setup.new(PLAYERS, cfg["teams"], cfg["rules"]))
        if cfg["max_hands"] is not None:
            cfg["max_hands"] += 7
        return random_match(seed, match=prefix, **cfg)
    return random_match(seed, players=tuple(PLAYERS), **cfg)


# ------------------------------------------------------------------ recount
def neighbours(c):
    x, y = c
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def recount(out: dict, record: dict) -> None:
    """Check every number of ``out`` from its tiles and cells alone."""
    rules = out["rules"]
    sides = out["sides"]
    side_of = {p: s for s, ps in out["teams"].items() for p in ps}
    assert [side_of[p] for p in PLAYERS] in ([sides[0], sides[1]] * 2, [sides[1], sides[0]] * 2)
    totals = {s: 0 for s in sides}
    winner = won_at = None

    def decide(number, turn, settled):
        nonlocal winner, won_at
        if winner is not None:
            return
        a, b = totals[sides[0]], totals[sides[1]]
        if number > 7 and abs(a - b) >= 2 or number == 7 and settled and a != b:
            winner, won_at = (sides[0] if a > b else sides[1]), {"hand": number, "turn": turn}

    for n, h in enumerate(out["hands"], 1):
        assert winner is None, "nothing after the winning moment"
        assert h["number"] == n and h["double"] == DOUBLES[(n - 1) % 7] and h["sudden_death"] == (n > 7)
        assert h["turns"][0]["player"] == h["leader"] if h["turns"] else True
        cells: dict[tuple, int] = {}
        down: set = set()
        set_by = {p: 0 for p in PLAYERS}
        passes = 0
        points = {s: 0 for s in sides}
        seat0 = PLAYERS.index(h["leader"])
        for k, t in enumerate(h["turns"]):
            player = t["player"]
            assert player == PLAYERS[(seat0 + k) % 4], "clockwise from the leader"
            if "tile" not in t:
                assert (t["matched"], t["points"]) == (0, 0)
                passes = passes + 1 if "pass" in t else 0
                continue
            passes = 0
            a, b = (int(v) for v in t["tile"].split("-"))
            c0, c1 = (tuple(c) for c in t["at"])
            tile = frozenset((a, b))
            assert a >= b and tile not in down, "each tile once, written higher half first"
            assert abs(c0[0] - c1[0]) + abs(c0[1] - c1[1]) == 1, "two edge-adjacent cells"
            assert c0 not in cells and c1 not in cells, "no two tiles overlap"
            if rules["orientation"] == "seat":
                ns = PLAYERS.index(player) % 2 == 0
                assert (c0[1] == c1[1]) if ns else (c0[0] == c1[0]), "set horizontally from the seat"
            matched = sorted(
                nb for c, v in ((c0, a), (c1, b)) for nb in neighbours(c) if nb not in (c0, c1) and cells.get(nb) == v
            )
            if k == 0:
                assert t["tile"] == h["double"] and matched == [] and t["points"] == 0
            else:
                assert matched, "every tile but the first double touches a match"
                assert t["points"] == POINTS.get(len(matched), 10)
            assert t["matched"] == len(matched) and sorted(map(tuple, t["sections"])) == matched
            cells[c0], cells[c1] = a, b
            down.add(tile)
            set_by[player] += 1
            assert set_by[player] <= 7
            points[side_of[player]] += t["points"]
            totals[side_of[player]] += t["points"]
            if t["points"]:
                decide(n, k + 1, False)
            if len(down) == 28:
                decide(n, k + 1, True)
        assert h["points"] == points
        if len(down) == 28:
            assert h["end"] == "complete"
        elif passes >= 4:
            assert passes == 4 and h["end"] == "blocked"
        else:
            assert h["end"] == "open"
        if h["end"] == "complete":
            assert h["settlement"] == {s: 0 for s in sides}
        elif "unplayed" in h:
            assert h["unplayed"] == {p: 7 - set_by[p] for p in PLAYERS}
            held = {s: sum(7 - set_by[p] for p in PLAYERS if side_of[p] == s) for s in sides}
            if rules["unplayed_penalty"] == "subtract":
                expect = {s: -held[s] for s in sides}
            else:
                expect = {sides[0]: held[sides[1]], sides[1]: held[sides[0]]}
            assert h["settlement"] == expect
            for s in sides:
                totals[s] += expect[s]
            decide(n, None, True)
        else:
            assert h["settlement"] == {s: 0 for s in sides}
        assert h["scores"] == totals
    assert out["scores"] == totals
    assert out["winner"] == winner and out["won_at"] == won_at


# ------------------------------------------------------------------ properties
@SETTINGS
@given(configs())
def test_points_and_scores_equal_a_recount_from_scratch(cfg):
    m = make(cfg)
    record = to_record(m)
    out = score_record(record) if m.phase != "unplayed" else result(load(record))
    recount(out, record)


@SETTINGS
@given(configs())
def test_replaying_the_record_gives_the_incremental_state(cfg):
    m = make(cfg)  # built one entry at a time, as at the table
    record = to_record(m)
    replayed = load(record)
    assert replayed.state() == m.state()
    assert result(replayed) == result(m)
    assert Match.replay(m.setup, m.events).state() == m.state()
    assert list(iter_events(record)) == m.events


@SETTINGS
@given(configs(), st.integers(0, 2**32 - 1))
def test_undo_is_the_inverse_of_push(cfg, seed):
    cfg = dict(cfg, max_hands=cfg["max_hands"] or 2, level=False)
    events = make(cfg).events
    m = Match(Setup.new(PLAYERS, cfg["teams"], cfg["rules"]))
    states = []
    rng = random.Random(seed)
    for e in events:
        before = m.state()
        states.append(before)
        after = m.push(e)
        if rng.random() < 0.3:
            pushed = m.state()
            assert m.pop() == e
            assert m.state() == before
            assert m.push(e) == after
            assert m.state() == pushed
    for e, before in zip(reversed(events), reversed(states), strict=True):
        assert m.pop() == e
        assert m.state() == before
    assert m.state() == Match(m.setup).state()


@SETTINGS
@given(configs())
def test_record_round_trips(cfg):
    m = make(cfg)
    record = to_record(m)
    text = json.dumps(record)
    again = json.loads(text)
    assert to_record(load(again)) == record
    if m.phase == "unplayed":
        return  # a match paused before a blocked hand's unplayed tiles: not scored
    out = score_record(again)
    assert out == score_record(record)
    assert json.loads(json.dumps(out)) == out
    # the score output carries the whole match: a record rebuilt from it scores the same
    rebuilt = dict(record, hands=[])
    for h in out["hands"]:
        turns = []
        for t in h["turns"]:
            if "tile" in t:
                turns.append({"play": t["tile"], "at": t["at"]})
            elif "exposed" in t:
                turns.append({"exposed": t["exposed"]})
            else:
                turns.append({"pass": True})
        hand = {"leader": h["leader"], "turns": turns}
        if "unplayed" in h and h["end"] == "blocked":
            hand["unplayed"] = h["unplayed"]
        rebuilt["hands"].append(hand)
    assert score_record(rebuilt) == out


@SETTINGS
@given(configs(), st.integers(0, 2**32 - 1))
def test_legal_placements_are_exactly_the_previews_that_pass(cfg, seed):
    cfg = dict(cfg, stop_rate=0.05, max_hands=1, level=False)
    m = make(cfg)
    if m.phase != "play" or not m.hand.turns:
        return
    h = m.hand
    rng = random.Random(seed)
    tiles = [t for t in tiles_of_set(6) if t not in h.layout]
    for tile in rng.sample(tiles, min(4, len(tiles))):
        legal = {
            frozenset(zip(pv.placement.cells, (pv.placement.first, pv.placement.second), strict=True)): pv
            for pv in m.legal_placements(tile)
        }
        brute = {}
        for c in h.layout.frontier():
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                other = (c[0] + dx, c[1] + dy)
                for v, w in ((tile.hi, tile.lo), (tile.lo, tile.hi)):
                    pv = m.preview(Placement(v, w, (c, other)))
                    if pv.ok:
                        brute[frozenset(((c, v), (other, w)))] = pv
                    else:
                        assert pv.error.hand == h.number and pv.error.turn == len(h.turns) + 1
        assert set(legal) == set(brute)
        for key, pv in legal.items():
            assert set(pv.matched) == set(brute[key].matched) and pv.points == brute[key].points
    assert m.hand is h, "previews change nothing"


@SETTINGS
@given(configs())
def test_unplayed_and_hand_values(cfg):
    m = make(cfg)
    for h in m.hands:
        assert sum(h.set_by) == len(h.layout) and all(0 <= n <= 7 for n in h.set_by)
        assert h.due == tuple(7 - n for n in h.set_by)
        if h.unplayed is not None:
            assert h.unplayed == h.due
        for tile, seat, turn in h.exposures:
            assert h.turns[turn - 1].exposed is tile and h.turns[turn - 1].seat == seat
            setter = h.set_at(tile)
            assert setter is None or setter.seat == seat
    assert m.totals == dict(zip(m.setup.sides, m.scores, strict=True))
    if m.winner is not None:
        assert m.phase == "over" and m.to_move is None and m.next_double is None
        assert m.legal_placements("6-6") == () and not m.preview("6-6", [[0, 0], [1, 0]]).ok


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "6-6", "3-5", "7-1", "x", "North", "Ann", "Zed", "pass"]),
    st.lists(st.integers(-2, 2), max_size=3),
    st.lists(st.lists(st.integers(-2, 2), max_size=3), max_size=3),
    st.dictionaries(
        st.sampled_from(["play", "at", "pass", "exposed", "player", "Ann", "leader"]), st.integers(0, 7), max_size=2
    ),
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 50), st.data())
def test_a_damaged_record_is_refused_with_a_located_error_never_a_crash(seed, data):
    record = to_record(random_match(seed, max_hands=1, expose_rate=0.1))
    paths = [p for p in _paths(record) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        target = record
        for k in path[:-1]:
            target = target[k]
        if isinstance(target, (dict, list)) and (
            path[-1] in target if isinstance(target, dict) else path[-1] < len(target)
        ):
            target[path[-1]] = data.draw(JUNK)
        paths = [p for p in _paths(record) if p]
    try:
        score_record(record)
    except ScorekeeperError as e:
        msg = str(e)
        assert msg and "\n" not in msg and len(msg) < 400
