"""Entering a play on the All Fives table, without Flet: the picker (every tile not
down, those that fit first), a tile that fits one end is set at once, a tile that
fits several asks which end; draws are counted until the tile or the pass that
follows them; a pass is offered only when it is legal."""

from __future__ import annotations

from typing import Any

from scorekeeper.dominoes import Tile
from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.allfives.part import Part

__all__ = ["PlayEntry"]


class PlayEntry(Part):
    """The tile being set (``choosing``: a tile and the ends it fits) and the draws before it."""

    draws = 0
    choosing: tuple[str, list[str]] | None = None

    # ------------------------------------------------------------- reading
    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn this turn (beyond the draws entered)."""
        return max(0, self.t.boneyard - self.t.rules.boneyard_reserve - self.draws)

    @property
    def can_pass(self) -> bool:
        h = self.match.hand
        return self.t.phase == "play" and self.drawable == 0 and h is not None and h.turns != []

    def picker(self) -> tuple[list[str], list[str]]:
        """The tiles not yet down: those that fit an open end now, and the others."""
        m = self.match
        h = m.hand
        down = h.layout.nodes if h else {}
        fits: list[str] = []
        others: list[str] = []
        playing = self.t.phase == "play"
        for t in m.tiles:
            if t in down:
                continue
            (fits if playing and m.placements(t) else others).append(str(t))
        return fits, others

    # ------------------------------------------------------------- acting
    def tap(self, tile: str) -> None:
        """A tile tapped in the picker: played at once if it fits one place; else asks where."""
        self.choosing = None
        self.t.claims.claiming = None
        if self.t.phase != "play":
            winner = self.t.winner
            self._fail("no tile can be set now" + (f": {winner} has won the match" if winner else ""))
            return
        try:
            t = Tile.parse(tile)
        except ScorekeeperError as e:
            self._fail(str(e))
            return
        places = self.match.placements(t)
        if len(places) > 1:
            self.choosing = (str(t), [str(p) for p in places])
            self.t.error = None
            self.t._changed()
            return
        on = places[0] if places else None
        self._set(str(t), None if on is None else str(on))

    def choose(self, on: str) -> None:
        """The end picked for a tile that fits several."""
        if self.choosing is None:
            return
        tile = self.choosing[0]
        self.choosing = None
        self._set(tile, on)

    def cancel(self) -> None:
        self.choosing = None
        self.t.claims.claiming = None
        self.t.error = None
        self.t._changed()

    def _set(self, tile: str, on: str | None) -> None:
        if self.t.claims.asks:
            self.t.claims.ask(tile, on)
            return
        self.enter(tile, on, None)

    def enter(self, tile: str, on: str | None, claim: int | None) -> None:
        """Enter the play (with the draws before it and the claim announced)."""
        entry: dict[str, Any] = {}
        if self.draws:
            entry["draw"] = self.draws
        entry["play"] = tile
        h = self.match.hand
        if on is not None and h is not None and h.turns:
            entry["on"] = on
        if claim is not None:
            entry["claim"] = claim
        if self.t._apply(lambda st: st.append(self.t.mid, {"turn": entry})):
            self.draws = 0
            self._after_turn()

    def _after_turn(self) -> None:
        t = self.t.last_turn()
        if t is None:
            return
        m = self.match
        s = m.setup
        who = s.players[t.player]
        if t.tile is None:
            self.t._done(f"{who} passed" + (f" after drawing {t.drew}" if t.drew else ""))
            return
        bits = [f"count {t.count}"]
        if t.points:
            bits.append(f"{s.sides[s.side_of[t.player]]} +{t.points}")
        if t.voided:
            bits.append("points voided: past the exact target")
        if t.claim is not None:
            if t.claim_ok is False:
                bits.append(f"wrong claim: said {t.claim}, scored {t.points}")
            elif t.claim_ok:
                bits.append("claim right")
            elif m.rules.claims == "muggins":
                worth = m.rules.worth(t.count)
                if t.claim > worth:
                    bits.append(f"claimed {t.claim}: too much, nothing scored")
                elif t.claim < worth:
                    bits.append(f"claimed {t.claim} of {worth}: {worth - t.claim} missed")
        h = m.hand
        if h is not None and h.end == "domino":
            bits.append(f"{who} dominoed")
        self.t._done(f"{who} set {t.tile}: " + ", ".join(bits), f"{t.points}!" if t.points else None)

    def draw(self, n: int = 1) -> None:
        """The player to move drew ``n`` more tiles (entered with their play or pass)."""
        if self.t.phase != "play":
            return
        if n > self.drawable:
            h = self.match.hand
            number, turn = (h.number, len(h.turns) + 1) if h is not None else (1, 1)
            self.t.error = (
                f"hand {number}, turn {turn}: cannot draw {n}: "
                f"{self.drawable} tile{'s' if self.drawable != 1 else ''} left to draw"
            )
        else:
            self.draws += n
            self.t.error = None
        self.t._changed()

    def clear_draws(self) -> None:
        self.draws = 0
        self.t._changed()

    def pass_(self) -> None:
        entry: dict[str, Any] = {"pass": True}
        if self.draws:
            entry = {"draw": self.draws, "pass": True}
        if self.t._apply(lambda st: st.append(self.t.mid, {"turn": entry})):
            self.draws = 0
            self._after_turn()
