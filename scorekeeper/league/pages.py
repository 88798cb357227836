"""The league's pages: plain HTML (no script, readable on a phone), their JSON twins, iCalendar.

Every text shown goes through the project's one rule (:func:`scorekeeper.text.escape`:
a refused character is shown as a visible escape) and then HTML's escaping. Each page is
small (a division of 16 teams and its table is a few kilobytes; the tests hold every
page under 50 KB).
"""

from __future__ import annotations

import datetime as _dt
import html
from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper import text as _text
from scorekeeper.events import Standing
from scorekeeper.league.book import Audit, Club, Division, Fixture, Season, Team
from scorekeeper.league.table import Figures

CSS = (
    "body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:46rem;padding:0 .75rem;color:#111}"
    "header{padding:.6rem 0;border-bottom:1px solid #ccc}header a{font-weight:600;text-decoration:none}"
    "table{border-collapse:collapse;width:100%}th,td{padding:.3rem .35rem;text-align:right;border-bottom:1px solid #e3e3e3}"
    "th:nth-child(2),td:nth-child(2),td.l,th.l{text-align:left}.scroll{overflow-x:auto}"
    "small,.note{color:#555}.warn{color:#a40000}form{margin:.5rem 0}input,button,select{font:inherit;padding:.3rem}"
    "h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:1.4rem}li{margin:.2rem 0}"
)


def h(text: Any) -> str:
    """Text for HTML: the one rule's escapes, then HTML's."""
    return html.escape(_text.escape(str(text)))


def day(text: str) -> str:
    """``'2026-09-07'`` -> ``'Mon 7 Sep 2026'``."""
    d = _dt.date.fromisoformat(text)
    return f"{d:%a} {d.day} {d:%b %Y}"


def page(title: str, body: str, *, league: str = "League") -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{h(title)}</title><style>{CSS}</style></head><body>"
        f'<header><a href="/">{h(league)}</a></header><main><h1>{h(title)}</h1>{body}</main></body></html>'
    )


# ---------------------------------------------------------------- public
def index(seasons: Sequence[Season], divisions: Sequence[Division]) -> tuple[str, dict[str, Any]]:
    parts = []
    data: list[dict[str, Any]] = []
    for s in reversed(seasons):
        mine = [d for d in divisions if d.season_id == s.id]
        items = "".join(
            f'<li><a href="/divisions/{d.id}">{h(d.name)}</a> · <a href="/divisions/{d.id}/fixtures">fixtures and results</a></li>'
            for d in mine
        )
        parts.append(f"<h2>{h(s.name)}</h2><ul>{items}</ul>")
        data.append({"id": s.id, "name": s.name, "divisions": [{"id": d.id, "name": d.name} for d in mine]})
    return page("Tables and fixtures", "".join(parts) or "<p>No season yet.</p>"), {"seasons": data}


def standings_rows(rows: Sequence[Standing], teams: dict[str, Team]) -> list[dict[str, Any]]:
    return [
        {
            "rank": r.rank,
            "team": r.name,
            "team_id": teams[r.name].id,
            "played": r.played,
            "won": r.won,
            "drawn": r.drawn,
            "lost": r.lost,
            "games_for": r.games_for,
            "games_against": r.games_against,
            "points_for": r.points_for,
            "points_against": r.points_against,
            "score": r.score,
        }
        for r in rows
    ]


def division(
    season: Season, d: Division, rows: Sequence[Standing], teams: Sequence[Team], tie_breaks: str
) -> tuple[str, dict[str, Any]]:
    by_name = {t.name: t for t in teams}
    data = standings_rows(rows, by_name)
    head = '<tr><th>#</th><th>Team</th><th>P</th><th>W</th><th>D</th><th>L</th><th title="games won and lost">G</th><th>Pts</th></tr>'
    body = "".join(
        f'<tr><td>{r["rank"]}</td><td><a href="/teams/{r["team_id"]}">{h(r["team"])}</a></td><td>{r["played"]}</td>'
        f"<td>{r['won']}</td><td>{r['drawn']}</td><td>{r['lost']}</td><td>{r['games_for']}-{r['games_against']}</td>"
        f"<td><b>{r['score']}</b></td></tr>"
        for r in data
    )
    html_body = (
        f"<p>{h(season.name)} · scoring: {h(season.scoring.title)}</p>"
        f'<div class="scroll"><table>{head}{body}</table></div><p class="note">{h(tie_breaks)}</p>'
        f'<p><a href="/divisions/{d.id}/fixtures">Fixtures and results</a> · '
        f'<a href="/divisions/{d.id}/fixtures.ics">fixtures for your calendar</a> · '
        f'<a href="/divisions/{d.id}.json">JSON</a></p>'
    )
    out = {"season": season.name, "division": d.name, "scoring": season.scoring.title, "tie_breaks": tie_breaks}
    return page(d.name, html_body), {**out, "table": data}


def fixture_json(f: Fixture) -> dict[str, Any]:
    r = f.approved
    return {
        "id": f.id,
        "week": f.week,
        "day": f.day,
        "home": f.home.name,
        "away": f.away.name,
        "venue": f.venue,
        "result": None if r is None else {"games": list(r.games_won), "points": list(r.points)},
    }


def _fixture_line(f: Fixture, *, team: int | None = None) -> str:
    r = f.approved
    score = f"<b>{r.games_won[0]}-{r.games_won[1]}</b>" if r is not None else '<span class="note">to play</span>'
    if r is None and f.result is not None and f.result.state in ("waiting", "disputed", "different"):
        score = '<span class="note">result awaited</span>'
    names = [h(t.name) if t.id == team else f'<a href="/teams/{t.id}">{h(t.name)}</a>' for t in (f.home, f.away)]
    return f"<li>{names[0]} {score} {names[1]} <small>at {h(f.venue)}</small></li>"


def fixtures(d: Division, items: Sequence[Fixture]) -> tuple[str, dict[str, Any]]:
    weeks: dict[int, list[Fixture]] = {}
    for f in items:
        weeks.setdefault(f.week, []).append(f)
    parts = []
    for week, fs in sorted(weeks.items()):
        days = sorted({f.day for f in fs})
        when = ", ".join(day(x) for x in days)
        parts.append(f"<h2>Week {week} · {h(when)}</h2><ul>{''.join(_fixture_line(f) for f in fs)}</ul>")
    body = f'<p><a href="/divisions/{d.id}">The table</a> · <a href="/divisions/{d.id}/fixtures.ics">iCalendar</a></p>'
    return page(f"{d.name}: fixtures and results", body + "".join(parts)), {
        "division": d.name,
        "fixtures": [fixture_json(f) for f in items],
    }


def team(t: Team, d: Division, items: Sequence[Fixture], figures: Sequence[Figures]) -> tuple[str, dict[str, Any]]:
    players = "".join(
        f'<li><a href="/teams/{t.id}/players/{i}">{h(p.name)}</a>{" (captain)" if i == 0 else ""}'
        f"{' (vice-captain)' if t.vice is not None and _text.same_name(p.name, t.vice) else ''}"
        f" <small>{p.played} played, {p.won} won</small></li>"
        for i, p in enumerate(figures)
    )
    body = (
        f'<p><a href="/divisions/{d.id}">{h(d.name)}</a> · home at {h(t.venue)} · '
        f'<a href="/teams/{t.id}/fixtures.ics">fixtures for your calendar</a></p>'
        f"<h2>Players</h2><ul>{players}</ul><h2>Fixtures</h2><ul>{''.join(_fixture_line(f, team=t.id) for f in items)}</ul>"
    )
    data = {
        "team": t.name,
        "division": d.name,
        "venue": t.venue,
        "captain": t.captain,
        "vice": t.vice,
        "players": [_figures_json(p) for p in figures],
        "fixtures": [fixture_json(f) for f in items],
    }
    return page(t.name, body), data


def _figures_json(p: Figures) -> dict[str, Any]:
    return {
        "name": p.name,
        "team": p.team,
        "played": p.played,
        "won": p.won,
        "points_for": p.points_for,
        "points_against": p.points_against,
        "average": p.average,
    }


def player(p: Figures, t: Team) -> tuple[str, dict[str, Any]]:
    body = (
        f'<p>Plays for <a href="/teams/{t.id}">{h(t.name)}</a></p><div class="scroll"><table>'
        f'<tr><th class="l">games played</th><td>{p.played}</td></tr><tr><th class="l">games won</th><td>{p.won} ({p.won_share})</td></tr>'
        f'<tr><th class="l">points a game</th><td>{p.average}</td></tr>'
        f'<tr><th class="l">points against a game</th><td>{p.average_against}</td></tr></table></div>'
    )
    return page(p.name, body), _figures_json(p)


# ---------------------------------------------------------------- iCalendar
def _ics_text(text: str) -> str:
    t = _text.escape(text)
    return t.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")


def _fold(line: str) -> str:
    """A content line folded at 75 octets (RFC 5545 3.1)."""
    out, cur = [], ""
    for c in line:
        if len((cur + c).encode("utf-8")) > 75:
            out.append(cur)
            cur = " " + c
        else:
            cur += c
    out.append(cur)
    return "\r\n".join(out)


def calendar(name: str, items: Iterable[Fixture], host: str) -> str:
    stamp = "19700101T000000Z"
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Scorekeeper//League//EN", f"X-WR-CALNAME:{_ics_text(name)}"]
    for f in items:
        d = _dt.date.fromisoformat(f.day)
        lines += [
            "BEGIN:VEVENT",
            f"UID:fixture-{f.id}@{_ics_text(host)}",
            f"DTSTAMP:{stamp}",
            f"DTSTART;VALUE=DATE:{d:%Y%m%d}",
            f"DTEND;VALUE=DATE:{d + _dt.timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{_ics_text(f.home.name)} v {_ics_text(f.away.name)}",
            f"LOCATION:{_ics_text(f.venue)}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(x) for x in lines) + "\r\n"


# ---------------------------------------------------------------- the secretary's
def form(action: str, csrf: str, fields: str, button: str) -> str:
    return (
        f'<form method="post" action="{h(action)}"><input type="hidden" name="csrf" value="{h(csrf)}">'
        f"{fields}<button>{h(button)}</button></form>"
    )


def sign_in(message: str = "") -> str:
    warn = f'<p class="warn">{h(message)}</p>' if message else ""
    fields = (
        '<form method="post" action="/admin/sign-in"><p><label>Name <input name="name" autocomplete="username" required></label></p>'
        '<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>'
        "<button>Sign in</button></form>"
    )
    return page("The secretary signs in", warn + fields)


def _why(label: str = "Why") -> str:
    return f'<label>{h(label)} <input name="why" required maxlength="500"></label> '


def admin(
    who: str,
    csrf: str,
    decide: Sequence[Fixture],
    waiting: Sequence[Fixture],
    clubs: Sequence[Club],
    audit: Sequence[Audit],
    message: str = "",
) -> str:
    note = f'<p class="warn">{h(message)}</p>' if message else ""
    todo = "".join(
        f'<li><a href="/admin/fixtures/{f.id}">{h(f.home.name)} v {h(f.away.name)}</a> · {h(f.result.state if f.result else "")}'
        f" <small>{h(f.result.why if f.result else '')}</small></li>"
        for f in decide
    )
    wait = "".join(
        f'<li><a href="/admin/fixtures/{f.id}">{h(f.home.name)} v {h(f.away.name)}</a> · approved at {h(f.result.due_at or "")} unless disputed</li>'
        for f in waiting
        if f.result is not None
    )
    club_rows = "".join(
        f"<tr><td>{c.id}</td><td>{h(c.name)}</td><td>{c.codes}</td><td>"
        f"{form(f'/admin/clubs/{c.id}/code', csrf, '', 'New code')}"
        f"{form(f'/admin/clubs/{c.id}/revoke', csrf, _why(), 'Revoke its codes') if c.codes else ''}</td></tr>"
        for c in clubs
    )
    log = "".join(
        f"<li><small>{h(a.at)}</small> {h(a.who)}: {h(a.what)}{' · ' + h(a.why) if a.why else ''}</li>" for a in audit
    )
    body = (
        f"{note}<p>Signed in as {h(who)}. {form('/admin/sign-out', csrf, '', 'Sign out')}</p>"
        f"<h2>For you to decide</h2><ul>{todo or '<li>Nothing.</li>'}</ul>"
        f"<h2>Waiting for the delay</h2><ul>{wait or '<li>Nothing.</li>'}</ul>"
        f'<h2>Clubs</h2><div class="scroll"><table><tr><th>#</th><th>Club</th><th>codes</th><th></th></tr>{club_rows}</table></div>'
        f"<h2>What was done</h2><ul>{log}</ul>"
    )
    return page("The secretary's page", body)


def admin_fixture(
    f: Fixture,
    csrf: str,
    sheets: Sequence[dict[str, Any]],
    disputes: Sequence[tuple[str, str, str]],
    audit: Sequence[Audit],
    message: str = "",
) -> str:
    note = f'<p class="warn">{h(message)}</p>' if message else ""
    r = f.result
    state = "no result yet" if r is None else f"{r.state}: {r.games_won[0]}-{r.games_won[1]} ({r.why})"
    rows = "".join(
        f"<tr><td>{s['id']}</td><td class='l'>{h(s['sender'])} v{s['version']}</td><td>{s['games_home']}-{s['games_away']}</td>"
        f"<td>{s['points_home']}-{s['points_away']}</td><td class='l'>{'home ' if s['confirmed_home'] else ''}{'away' if s['confirmed_away'] else ''}</td>"
        f"<td class='l'>{form(f'/admin/fixtures/{f.id}/decide', csrf, f'<input type=hidden name=sheet value={s[chr(105) + chr(100)]}>' + _why(), 'Approve this sheet')}</td></tr>"
        for s in sheets
    )
    disputed = "".join(f"<li>{h(who)} at {h(at)}: {h(why)}</li>" for who, why, at in disputes)
    log = "".join(
        f"<li><small>{h(a.at)}</small> {h(a.who)}: {h(a.what)}{' · ' + h(a.why) if a.why else ''}</li>" for a in audit
    )
    by_hand = (
        '<label>Games <input name="games_home" size="2" inputmode="numeric" required>-'
        '<input name="games_away" size="2" inputmode="numeric" required></label> '
        '<label>Points <input name="points_home" size="4" inputmode="numeric" value="0">-'
        '<input name="points_away" size="4" inputmode="numeric" value="0"></label> ' + _why()
    )
    body = (
        f"{note}<p>{h(f.home.name)} v {h(f.away.name)} · {h(day(f.day))} at {h(f.venue)}</p><p><b>{h(state)}</b></p>"
        f'<h2>Sheets</h2><div class="scroll"><table><tr><th>#</th><th>sent by</th><th>games</th><th>points</th><th>confirmed</th><th></th></tr>{rows}</table></div>'
        f"<h2>Disputes</h2><ul>{disputed or '<li>None.</li>'}</ul>"
        f"<h2>Enter by hand</h2>{form(f'/admin/fixtures/{f.id}/enter', csrf, by_hand, 'Enter this result')}"
        f"<h2>Remove the result</h2>{form(f'/admin/fixtures/{f.id}/remove', csrf, _why(), 'Remove')}"
        f"<h2>Move</h2>{form(f'/admin/fixtures/{f.id}/move', csrf, '<label>To <input name=day type=date required></label> ' + _why(), 'Move')}"
        f"<h2>What was done</h2><ul>{log}</ul><p><a href='/admin'>Back</a></p>"
    )
    return page(f"{f.home.name} v {f.away.name}", body)


def code_made(club: Club, url: str, code: str, qr_svg: str) -> str:
    link = f"{url}/link#{code}"
    body = (
        f"<p>The new code of {h(club.name)} is shown this once. On the club's laptop run:</p>"
        f"<pre>scorekeeper league link {h(url)} {h(code)}</pre><p>or scan this (the laptop's own phone, then type it):</p>"
        f'<img alt="{h(link)}" width="220" height="220" src="{qr_svg}"><p><a href="/admin">Back</a></p>'
    )
    return page(f"A code for {club.name}", body)
