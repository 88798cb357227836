"""Hypothesis: the figures agree with a full replay of every record.

Random sets of legal matches (All Fives with its variants, Fives and Threes,
Broadway), players' names typed in random spellings, are stored; the figures of
``scorekeeper.stats`` (through the cache) must equal what a plain recount of each
record's ``scorekeeper score`` output gives, and the cache must give what a fresh
build gives.
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import registry
from scorekeeper import stats as stats_pkg
from scorekeeper.allfives.simulate import random_record as fives_record
from scorekeeper.broadway.simulate import random_record as broadway_record
from scorekeeper.store import Store

PEOPLE = ["Ann", "Ben", "Cy", "Di"]
RULES = [
    {},
    {"spinner": "none", "hand_end": "each-subtracts"},
    {"claims": "muggins"},
    {"count": "fives-and-threes", "draw": False, "hand_end": "go", "target": 61, "exact_target": True},
]


def spelled(name: str, how: int) -> str:
    return [name, name.upper(), f" {name.lower()} ", name][how % 4]


@st.composite
def match_sets(draw):
    out = []
    for i in range(draw(st.integers(1, 6))):
        seed = draw(st.integers(0, 10_000))
        game = draw(st.sampled_from(["all-fives", "all-fives", "broadway"]))
        who = draw(st.permutations(PEOPLE))
        if game == "broadway":
            rec = broadway_record(seed, max_hands=draw(st.integers(1, 3)))
            names = dict(zip(["Ann", "Ben", "Cy", "Di"], who, strict=True))
        else:
            n = draw(st.sampled_from([2, 4]))
            rules = dict(draw(st.sampled_from(RULES)))
            if "claims" in rules:
                rec = fives_record(seed, n, teams=n == 4, max_hands=3, claim_rate=0.5, **rules)
            else:
                rec = fives_record(seed, n, teams=n == 4, max_hands=draw(st.integers(1, 12)), **rules)
            names = {f"P{k + 1}": who[k] for k in range(n)}
            names |= {"S1": f"{who[0]} side", "S2": f"{who[1]} side"}
        text = json.dumps(rec)
        for k, old in enumerate(names):  # through placeholders: a new name may be an old one
            text = text.replace(json.dumps(old), json.dumps(f"@{k}@"))
        for k, (old, new) in enumerate(names.items()):
            if old in PEOPLE or old.startswith("P"):
                new = spelled(new, draw(st.integers(0, 3)))
            text = text.replace(json.dumps(f"@{k}@"), json.dumps(new))
        rec = json.loads(text)
        rec["started"] = f"2026-0{1 + i % 9}-1{i % 10}T20:00:00Z"
        out.append(rec)
    return out


def recount(records: list[dict]) -> dict[tuple[str, str], dict[str, int]]:
    """Per (player, game): matches won and played, points and hands, own points (a plain recount)."""
    lines: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for rec in records:
        game = registry.game_of(rec)
        out = game.result(game.load(rec))
        if out.get("winner") is None:
            continue
        kind = out["game"]
        if kind == "all-fives" and out["rules"]["count"] == "fives-and-threes":
            kind = "fives-and-threes"
        side_of = {}
        teams = out.get("teams") or rec.get("teams")
        for p in rec["players"]:
            side_of[p] = next((s for s, ms in teams.items() if p in ms), p) if teams else p
        own: dict[str, int] = defaultdict(int)
        for h in out["hands"]:
            for t in h["turns"]:
                if "tile" in t:
                    own[t["player"]] += t["points"]
                if t.get("muggins") and not t["muggins"].get("voided"):
                    own[t["muggins"]["player"]] += t["muggins"]["points"]
        for p in rec["players"]:
            line = lines[" ".join(p.split()).casefold(), kind]
            line["matches"] += 1
            line["wins"] += out["winner"] == side_of[p]
            line["points"] += out["scores"][side_of[p]]
            line["hands"] += len(out["hands"])
            line["own"] += own[p]
    return {k: dict(v) for k, v in lines.items()}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(match_sets())
def test_the_figures_agree_with_a_full_replay(records):
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db"
        with Store(db) as s:
            s.bulk_import(records)
            first = stats_pkg.of_store(s)
            cached = stats_pkg.of_store(s)
        assert first.to_json() == cached.to_json()
        got = {}
        for (person, kind), line in first.players.items():
            if line.matches:
                got[person, kind] = {
                    "matches": len(line.matches),
                    "wins": len(line.wins),
                    "points": line.points,
                    "hands": line.hands,
                    "own": line.counters.get("own", 0),
                }
        assert got == recount(records)
        # every match won by someone is in exactly one winner's wins per side member
        for mf, seats, status in first.matches:
            if status == "finished":
                winners = [s.person for s in seats if s.side == mf.facts["winner"]]
                for p in winners:
                    assert mf.id in first.players[p, mf.facts["kind"]].wins
