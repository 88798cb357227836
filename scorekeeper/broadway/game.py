"""Broadway as the registry sees it."""

from __future__ import annotations

from scorekeeper.broadway.entries import BroadwayEntries
from scorekeeper.broadway.record import load, result, score_record
from scorekeeper.broadway.rows import rows
from scorekeeper.broadway.samples import samples
from scorekeeper.broadway.stats import KINDS, facts
from scorekeeper.broadway.text import render
from scorekeeper.broadway.timeline import timeline
from scorekeeper.registry import GameSpec

GAME = GameSpec(
    id="broadway",
    title="Broadway",
    entries=BroadwayEntries(),
    load=load,
    score=score_record,
    result=result,
    render=render,
    timeline=timeline,
    facts=facts,
    kinds=KINDS,
    rows=rows,
    players=(4,),  # North, East, South, West
    samples=samples,
)
