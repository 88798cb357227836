-- The league's first schema: its shape (venues, clubs, seasons, divisions, teams,
-- fixtures), the sheets the clubs send, the results and everything the secretary did.
-- {id} is the backend's own id column (scorekeeper/league/migrate.py). Times are UTC,
-- ISO 8601 text ("2026-11-29T22:30:00Z"): the same in both backends, and in order.

CREATE TABLE league_state (
    id INTEGER PRIMARY KEY,
    revision BIGINT NOT NULL
);
INSERT INTO league_state (id, revision) VALUES (1, 0);

CREATE TABLE venue (
    id {id},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    address TEXT NOT NULL DEFAULT '',
    tables INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE club (
    id {id},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    venue_id INTEGER REFERENCES venue (id)
);

CREATE TABLE club_code (
    id {id},
    club_id INTEGER NOT NULL REFERENCES club (id),
    digest TEXT NOT NULL UNIQUE,
    made_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE season (
    id {id},
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    preset TEXT,
    scoring TEXT NOT NULL,
    singles INTEGER NOT NULL,
    doubles INTEGER NOT NULL,
    starts TEXT NOT NULL,
    delay_hours INTEGER NOT NULL,
    blackouts TEXT NOT NULL,
    made_at TEXT NOT NULL
);

CREATE TABLE division (
    id {id},
    season_id INTEGER NOT NULL REFERENCES season (id),
    name TEXT NOT NULL,
    position INTEGER NOT NULL,
    UNIQUE (season_id, position)
);

CREATE TABLE team (
    id {id},
    division_id INTEGER NOT NULL REFERENCES division (id),
    club_id INTEGER REFERENCES club (id),
    venue_id INTEGER NOT NULL REFERENCES venue (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    captain TEXT NOT NULL,
    vice TEXT,
    players TEXT NOT NULL,
    UNIQUE (division_id, name_key)
);

CREATE TABLE fixture (
    id {id},
    division_id INTEGER NOT NULL REFERENCES division (id),
    week INTEGER NOT NULL,
    day TEXT NOT NULL,
    home_id INTEGER NOT NULL REFERENCES team (id),
    away_id INTEGER NOT NULL REFERENCES team (id)
);
CREATE INDEX fixture_division ON fixture (division_id, week);

CREATE TABLE sheet (
    id {id},
    fixture_id INTEGER NOT NULL REFERENCES fixture (id),
    sender TEXT NOT NULL,
    version INTEGER NOT NULL,
    digest TEXT NOT NULL,
    content TEXT NOT NULL,
    body TEXT NOT NULL,
    games TEXT NOT NULL,
    games_home INTEGER NOT NULL,
    games_away INTEGER NOT NULL,
    points_home INTEGER NOT NULL,
    points_away INTEGER NOT NULL,
    confirmed_home INTEGER NOT NULL,
    confirmed_away INTEGER NOT NULL,
    received_at TEXT NOT NULL,
    UNIQUE (fixture_id, sender, digest),
    UNIQUE (fixture_id, sender, version)
);

CREATE TABLE dispute (
    id {id},
    fixture_id INTEGER NOT NULL REFERENCES fixture (id),
    sender TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);

CREATE TABLE result (
    fixture_id INTEGER PRIMARY KEY REFERENCES fixture (id),
    state TEXT NOT NULL,
    sheet_id INTEGER REFERENCES sheet (id),
    games TEXT NOT NULL,
    games_home INTEGER NOT NULL,
    games_away INTEGER NOT NULL,
    points_home INTEGER NOT NULL,
    points_away INTEGER NOT NULL,
    due_at TEXT,
    by_secretary INTEGER NOT NULL DEFAULT 0,
    why TEXT NOT NULL DEFAULT '',
    changed_at TEXT NOT NULL
);
CREATE INDEX result_due ON result (state, due_at);

CREATE TABLE audit (
    id {id},
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    what TEXT NOT NULL,
    why TEXT NOT NULL DEFAULT '',
    fixture_id INTEGER,
    detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_fixture ON audit (fixture_id);

CREATE TABLE secretary (
    id {id},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password TEXT NOT NULL,
    made_at TEXT NOT NULL
);

CREATE TABLE web_session (
    digest TEXT PRIMARY KEY,
    secretary_id INTEGER NOT NULL REFERENCES secretary (id),
    csrf TEXT NOT NULL,
    made_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

CREATE TABLE sign_in_failure (
    key TEXT PRIMARY KEY,
    count INTEGER NOT NULL,
    last_at TEXT NOT NULL
);
