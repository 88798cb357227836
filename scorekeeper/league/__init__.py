"""The league server: one service where every club's results arrive (``scorekeeper league``).

- :mod:`~scorekeeper.league.db`: the storage seam, PostgreSQL or SQLite behind one small
  interface; :mod:`~scorekeeper.league.migrate`: the numbered SQL files under
  ``migrations/``, applied at start.
- :mod:`~scorekeeper.league.schedule`: the fixtures of a season (pure: double round robins,
  venues shared, blackout dates).
- :mod:`~scorekeeper.league.sheets`: a fixture's sheet as a club sends it, its digest, and
  the server's scoring of every match record again; :mod:`~scorekeeper.league.approval`:
  what a fixture's sheets and disputes make of its result.
- :mod:`~scorekeeper.league.book`: the league kept in the database (every change with who,
  when, what and why); :mod:`~scorekeeper.league.table`: the divisions' tables, teams and
  players from the approved results.
- :mod:`~scorekeeper.league.access`: the secretary's password, sessions, CSRF, the clubs' codes.
- :mod:`~scorekeeper.league.app`, :mod:`~scorekeeper.league.pages`: the service (Starlette):
  the clubs' API, the public pages (HTML, JSON, iCalendar) and the secretary's pages.
- :mod:`~scorekeeper.league.club`: the club's side: the link, the outbox, the pushes.

docs/league.md says how to run it.
"""
