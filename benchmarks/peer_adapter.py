"""Replay our ``scorekeeper/1`` All Fives records through the PyPI peer
``all-fives-domino`` (1.0.23), for benchmarks/engine.py.  See PEER.md.

* ``ensure_peer()`` / ``load_peer()`` -- install the peer into ``.bench/peer``
  (``pip install --no-deps --target``; it ships a top-level package named
  ``src``, so it never goes into the project's environment) and import it
  from there.
* ``prepare(record)`` -- NOT timed: turns one record into the plain data the
  peer calls need (per hand: each placed tile, the tile it goes on, and the
  points our rules give that play).
* ``replay(prepared)`` -- timed: only the peer calls, per play
  ``Piece(a, b)``, the peer's own legality test ``parent.can_append(piece)``
  (what its ``DominoRound.valid_options`` uses), ``Board.play`` and
  ``AllFivesScorer.board_score``.  Returns
  ``{"plays": n, "refused": n, "differing": n}``.
* ``diagnose(prepared)`` -- NOT timed: the same replay, explaining every
  refusal and every differing score.

Layout mapping.  The peer's board is a tree of pieces like ours: a tile is
appended to a parent piece and the matched half is found by pips; a double
with two children becomes its "crossing" piece (spinner) and takes up to four
children.  So our ``on`` names the peer parent directly and the arm/side is
implied; the adapter only needs to track our layout (lead, spinner sides
and ends) to know our points and to explain where the peer's model departs
from ours:
  - the peer's legality test lets a *non-lead* double take only one tile
    (the tile it was set on already covers one of its two "sides"), so the
    first tile on an end of a non-lead spinner is refused;
  - ``Board.play`` clears the crossing flag of the spinner when a third tile
    is appended to it, so a *lead* spinner takes only three tiles and its
    fourth arm is refused;
  - after a refusal the adapter still places the tile with ``Board.play``
    (which checks only duplicates and that the parent is down, not pips), so
    both layouts stay identical and later plays stay comparable;
  - ``AllFivesScorer`` adds the spinner's pip once three of its four points
    are covered while its crossing flag is set -- through ``Board.play``
    that happens only for a non-lead spinner (parent + two tiles); our rules
    count nothing for a spinner whose two sides are covered.

Our points per play come from our engine
(``scorekeeper.allfives.score_record(record)["hands"][i]["turns"][j]["points"]``)
when it can be imported, else from ``oracle_points`` below: a small TEST
ORACLE of our count rules (not the engine; for this benchmark only).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field

PEER_DIST = "all-fives-domino"
PEER_VERSION = "1.0.23"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PEER_DIR = os.path.join(REPO_ROOT, ".bench", "peer")

# Peer classes, set by load_peer().
Board = Piece = AllFivesScorer = InvalidMoveException = None


# --------------------------------------------------------------------------
# Installing and importing the peer
# --------------------------------------------------------------------------
def _installed_version(peer_dir: str) -> str | None:
    try:
        names = os.listdir(peer_dir)
    except FileNotFoundError:
        return None
    for n in names:
        if n.startswith("all_fives_domino-") and n.endswith(".dist-info"):
            if os.path.exists(os.path.join(peer_dir, "src", "main", "game", "Board.py")):
                return n[len("all_fives_domino-") : -len(".dist-info")]
    return None


def ensure_peer(peer_dir: str = DEFAULT_PEER_DIR, quiet: bool = False) -> str:
    """Install all-fives-domino==1.0.23 into peer_dir unless it is there."""
    if _installed_version(peer_dir) == PEER_VERSION:
        return peer_dir
    bench = os.path.dirname(peer_dir)
    os.makedirs(bench, exist_ok=True)
    gi = os.path.join(bench, ".gitignore")
    if os.path.basename(bench) == ".bench" and not os.path.exists(gi):
        with open(gi, "w", encoding="utf-8") as f:  # keep the installed peer out of git
            f.write("*\n")
    spec = f"{PEER_DIST}=={PEER_VERSION}"
    args = [
        "install",
        "--no-deps",
        "--upgrade",
        "--disable-pip-version-check",
        "--no-warn-script-location",
        "--target",
        peer_dir,
        spec,
    ]
    if quiet:
        args.insert(1, "--quiet")
    print(f"installing {spec} into {peer_dir} ...", file=sys.stderr)
    last = None
    for cmd in ([sys.executable, "-m", "pip"], ["pip3"], ["pip"]):
        try:
            r = subprocess.run(cmd + args, stdout=subprocess.DEVNULL if quiet else sys.stderr)
        except FileNotFoundError as e:
            last = e
            continue
        if r.returncode == 0 and _installed_version(peer_dir) == PEER_VERSION:
            return peer_dir
        last = RuntimeError(f"{' '.join(cmd)} exited {r.returncode}")
    raise RuntimeError(f"could not install {spec} into {peer_dir}: {last}")


def load_peer(peer_dir: str = DEFAULT_PEER_DIR):
    """Import the peer's Board, Piece and AllFivesScorer from peer_dir."""
    global Board, Piece, AllFivesScorer, InvalidMoveException
    peer_dir = os.path.abspath(peer_dir)
    loaded = sys.modules.get("src")
    if loaded is not None:
        where = os.path.abspath(getattr(loaded, "__file__", "") or "")
        if not where.startswith(peer_dir + os.sep):
            raise RuntimeError(f"a different top-level 'src' is already imported ({where})")
    if loaded is None:
        # The peer's top-level package, imported from peer_dir alone: sys.path is left as it
        # is (a directory put on it would be searched for every later import of the run).
        # Its submodules are then found through its __path__, inside peer_dir.
        spec = importlib.machinery.PathFinder.find_spec("src", [peer_dir])
        if spec is None:
            raise RuntimeError(f"no package 'src' in {peer_dir}")
        loaded = importlib.util.module_from_spec(spec)
        sys.modules["src"] = loaded
        if spec.loader is not None:
            spec.loader.exec_module(loaded)
    src = loaded
    if not os.path.abspath(src.__file__ or "").startswith(peer_dir + os.sep):
        raise RuntimeError(f"'src' resolved to {src.__file__}, not the peer in {peer_dir}")
    from src.main.game.Board import Board as _B
    from src.main.game.exceptions.Board import InvalidMoveException as _E
    from src.main.game.Piece import Piece as _P
    from src.main.game.Scorer import AllFivesScorer as _S

    Board, Piece, AllFivesScorer, InvalidMoveException = _B, _P, _S, _E
    return _B, _P, _S


# --------------------------------------------------------------------------
# TEST ORACLE of our count rules (first-double spinner, scale 1, no claims)
# --------------------------------------------------------------------------
def parse_tile(s) -> tuple[int, int]:
    """'5-3', '5|3', '[5-3]', '5:3' -> (5, 3) as written."""
    t = str(s).strip().strip("[]")
    for sep in "-|:":
        if sep in t:
            a, b = t.split(sep)
            a, b = int(a), int(b)
            if not (0 <= a <= 6 and 0 <= b <= 6):
                raise ValueError(f"tile out of the double-six set: {s!r}")
            return a, b
    raise ValueError(f"not a tile: {s!r}")


def _key(t: tuple[int, int]) -> tuple[int, int]:
    return (t[0], t[1]) if t[0] <= t[1] else (t[1], t[0])


class _OracleTile:
    __slots__ = ("lo", "hi", "double", "spinner", "lead", "open_halves", "sides_covered", "ends_covered")

    def __init__(self, key, lead, spinner, matched=None):
        self.lo, self.hi = key
        self.double = key[0] == key[1]
        self.lead = lead
        self.spinner = spinner
        self.sides_covered = 0 if lead else 1  # doubles only
        self.ends_covered = 0  # spinner only
        if self.double:
            self.open_halves = []
        elif lead:
            self.open_halves = [self.lo, self.hi]
        else:
            self.open_halves = [self.hi if self.lo == matched else self.lo]

    def count(self) -> int:
        if not self.double:
            return sum(self.open_halves)
        return self.lo * 2 if self.sides_covered < 2 else 0


def oracle_points(record: dict) -> list[list[dict | None]]:
    """TEST ORACLE, not the engine: per hand, per turn, for a play
    ``{"on", "count", "points", "where", "spinner_lead", "on_spinner",
    "peer_face"}``, else None; ``on`` is the parent tile key (resolved when
    the record leaves ``on`` out because only one tile fits).

    ``where``: "lead", "half" (open half of a non-double), "side" (side of a
    double), "end1"/"end2" (first/second tile on the spinner's ends).
    ``peer_face``: pips the peer's scorer adds on top of our count in this
    position (a non-lead spinner with both sides and exactly one end
    covered), else 0.  Raises ValueError on a play our rules refuse.
    """
    rules = record.get("rules") or {}
    for k, ok in (
        ("set", (6,)),
        ("spinner", ("first-double",)),
        ("scale", (1,)),
        ("exact_target", (False,)),
        ("claims", ("check",)),
    ):
        if k in rules and rules[k] not in ok:
            raise ValueError(f"oracle supports only {k} in {ok}, got {rules[k]!r}")
    out = []
    for hi_, hand in enumerate(record["hands"], 1):
        tiles: dict[tuple, _OracleTile] = {}
        spinner = None
        res = []
        for ti, turn in enumerate(hand["turns"], 1):
            if "play" not in turn:
                res.append(None)
                continue
            where_msg = f"hand {hi_}, turn {ti}"
            t = parse_tile(turn["play"])
            key = _key(t)
            if key in tiles:
                raise ValueError(f"{where_msg}: {turn['play']} is already down")
            on = turn.get("on")
            if on is None and tiles:
                # no 'on': the tile must fit exactly one tile of the layout
                fit = [
                    k
                    for k, x in tiles.items()
                    if (x.double and x.lo in key and (x.sides_covered < 2 or (x.spinner and x.ends_covered < 2)))
                    or (not x.double and any(p in key for p in x.open_halves))
                ]
                if len(fit) != 1:
                    raise ValueError(f"{where_msg}: {turn['play']} without 'on' fits {len(fit)} tiles")
                on = "{}-{}".format(*fit[0])
            if on is None:
                is_sp = key[0] == key[1]
                node = _OracleTile(key, lead=True, spinner=is_sp)
                if is_sp:
                    spinner = node
                where = "lead"
            else:
                pk = _key(parse_tile(on))
                parent = tiles.get(pk)
                if parent is None:
                    raise ValueError(f"{where_msg}: {on} is not in the layout")
                if parent.double:
                    d = parent.lo
                    if d not in key:
                        raise ValueError(f"{where_msg}: {turn['play']} does not match {on}")
                    if parent.sides_covered < 2:
                        parent.sides_covered += 1
                        where = "side"
                    elif parent.spinner and parent.ends_covered < 2:
                        parent.ends_covered += 1
                        where = f"end{parent.ends_covered}"
                    else:
                        raise ValueError(f"{where_msg}: {on} has no open point")
                    matched = d
                else:
                    common = [p for p in parent.open_halves if p in key]
                    if not common:
                        raise ValueError(f"{where_msg}: {turn['play']} matches no open half of {on}")
                    matched = common[0]
                    parent.open_halves.remove(matched)
                    where = "half"
                is_sp = key[0] == key[1] and spinner is None
                node = _OracleTile(key, lead=False, spinner=is_sp, matched=matched)
                if is_sp:
                    spinner = node
            tiles[key] = node
            count = sum(x.count() for x in tiles.values())
            face = 0
            if spinner is not None and not spinner.lead and spinner.sides_covered == 2 and spinner.ends_covered == 1:
                face = spinner.lo
            res.append(
                {
                    "on": None if on is None else _key(parse_tile(on)),
                    "count": count,
                    "points": count if count > 0 and count % 5 == 0 else 0,
                    "where": where,
                    "spinner_lead": None if spinner is None else spinner.lead,
                    "on_spinner": on is not None
                    and spinner is not None
                    and _key(parse_tile(on)) == (spinner.lo, spinner.hi),
                    "peer_face": face,
                }
            )
        out.append(res)
    return out


def engine_points(record: dict) -> list[list[int]]:
    """Our engine's points per turn (raises ImportError while it is absent)."""
    from scorekeeper.allfives import score_record

    scored = score_record(record)
    return [[t.get("points", 0) for t in h["turns"]] for h in scored["hands"]]


# --------------------------------------------------------------------------
# prepare / replay
# --------------------------------------------------------------------------
@dataclass
class Prepared:
    # per hand: tuple of (tile key, parent key or None, our points)
    hands: tuple
    source: str  # "engine" or "oracle"
    info: list = field(repr=False)  # oracle annotations, per hand per play
    oracle_mismatch: int = 0  # plays where engine points != oracle points


def prepare(record: dict, expected: str = "auto") -> Prepared:
    """Translate one record for the peer (not timed).

    expected: "engine" (our engine's points), "oracle" (the test oracle) or
    "auto" (the engine when ``scorekeeper.allfives`` imports, else oracle).
    """
    oracle = oracle_points(record)
    source = "oracle"
    eng = None
    if expected in ("auto", "engine"):
        try:
            eng = engine_points(record)
        except ImportError:  # engine (or its score_record) not there yet
            if expected == "engine":
                raise
        else:
            source = "engine"
    hands = []
    info = []
    mismatch = 0
    for hi, hand in enumerate(record["hands"]):
        plays = []
        hinfo = []
        for ti, turn in enumerate(hand["turns"]):
            if "play" not in turn:
                continue
            o = oracle[hi][ti]
            pts = o["points"]
            if eng is not None:
                if eng[hi][ti] != pts:
                    mismatch += 1
                pts = eng[hi][ti]
            key = _key(parse_tile(turn["play"]))
            plays.append((key, o["on"], pts))  # parent resolved by the oracle when 'on' is absent
            hinfo.append(o)
        hands.append(tuple(plays))
        info.append(hinfo)
    return Prepared(tuple(hands), source, info, mismatch)


def replay(prepared: Prepared) -> dict:
    """Timed part: only peer calls (plus a dict lookup and a compare per play)."""
    _Board, _Piece = Board, Piece
    board_score = AllFivesScorer.board_score
    _Invalid = InvalidMoveException
    plays = refused = differing = 0
    for hand in prepared.hands:
        board = _Board()
        placed = {}
        for key, on, expected in hand:
            plays += 1
            piece = _Piece(key[0], key[1])
            try:
                if on is None:
                    board.play(piece)
                else:
                    parent = placed.get(on)
                    if parent is None:  # its parent could not be placed
                        refused += 1
                        continue
                    if not parent.can_append(piece):
                        refused += 1  # peer says illegal; place it anyway
                    board.play(piece, parent)
            except _Invalid:
                refused += 1
                continue
            placed[key] = piece
            if board_score(board) != expected:
                differing += 1
    return {"plays": plays, "refused": refused, "differing": differing}


def diagnose(prepared: Prepared) -> dict:
    """Not timed: the same replay, with a reason for each refusal/difference."""
    refused = Counter()
    differing = Counter()
    count_differs = 0
    plays = 0
    for hand, hinfo in zip(prepared.hands, prepared.info, strict=True):
        board = Board()
        placed = {}
        for (key, on, expected), o in zip(hand, hinfo, strict=True):
            plays += 1
            piece = Piece(key[0], key[1])
            if on is None:
                board.play(piece)
            else:
                parent = placed.get(on)
                if parent is None:
                    refused["parent missing"] += 1
                    continue
                if not parent.can_append(piece):
                    if o["on_spinner"]:
                        sp = "lead" if o["spinner_lead"] else "non-lead"
                        refused[f"tile on {o['where']} of a {sp} spinner"] += 1
                    else:
                        refused[f"other ({o['where']})"] += 1
                try:
                    board.play(piece, parent)
                except InvalidMoveException as e:
                    refused[f"Board.play raised: {type(e).__name__}"] += 1
                    continue
            placed[key] = piece
            peer_count = AllFivesScorer.count(board.origin)
            if peer_count != o["count"]:
                count_differs += 1
            pts = AllFivesScorer.score(peer_count)
            if pts != expected:
                if o["peer_face"] and peer_count == o["count"] + o["peer_face"]:
                    why = "peer adds the face of a non-lead spinner with 3 of 4 points covered"
                else:
                    why = f"other (peer count {peer_count}, ours {o['count']})"
                differing[why] += 1
    return {"plays": plays, "refused": dict(refused), "differing": dict(differing), "count_differs": count_differs}


if __name__ == "__main__":  # tiny demo: the spec's worked example
    load_peer(ensure_peer())
    rec = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "Ben"],
        "hands": [
            {
                "leader": "Ann",
                "turns": [
                    {"play": "3-2"},
                    {"play": "2-2", "on": "3-2"},
                    {"play": "2-4", "on": "2-2"},
                    {"play": "2-0", "on": "2-2"},
                    {"play": "3-6", "on": "3-2"},
                    {"play": "2-5", "on": "2-2"},
                ],
            }
        ],
    }
    p = prepare(rec, expected="oracle")
    print([x[2] for x in p.hands[0]], replay(p), diagnose(p))
