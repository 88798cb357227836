"""``scorekeeper web`` takes a phone's finished match at ``/matches`` (issue 29), through its guard:
a phone on the network (a network namespace: another address) sends with the table code in a
header, a stranger without it is refused before its match is read, the host on loopback needs
none. No browser: the phone's site does the same request with the browser's fetch
(tests/ui/test_send_to_table.py has the rest of what is said and refused). And the join links
the server prints (issue 43): their secrets let a phone in from the network, the table's as a
scorer and the watchers' as a watcher; a typed code in a link still works."""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path

from e2e import harness, netns, stranger
from scorekeeper.store import Store

RECORD = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Ann", "Ben"],
    "rules": {"target": 5},
    "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}]}],
}

STRANGER = str(Path(stranger.__file__).resolve())

#: POST a body from inside the namespace, with headers (JSON), printing "<status> <answer>"
#: (urllib raises on 4xx).
_POST = """
import json, sys, urllib.error, urllib.request
url, body, headers = sys.argv[1], sys.argv[2].encode(), json.loads(sys.argv[3])
req = urllib.request.Request(url, data=body, headers={"content-type": "application/json", **headers}, method="POST")
try:
    with urllib.request.urlopen(req, timeout=20) as r:
        print(r.status, r.read().decode())
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())
"""


def test_a_phone_on_the_network_sends_with_the_table_code_and_joins_by_the_links_secret(tmp_path):
    db = str(tmp_path / "db")
    port = harness.free_port()
    cmd = [
        sys.executable,
        "-m",
        "scorekeeper.cli",
        "--db",
        db,
        "web",
        "--no-browser",
        "--host",
        "0.0.0.0",
        "--port",
        str(port),
    ]
    server = harness.start_server(cmd, port)
    try:
        code = re.search(r"\(table code (\d{3}) (\d{3})", harness.server_log(server))
        assert code, harness.server_log(server)
        with netns.remote_namespace() as ns:

            def post(body: dict, headers: dict) -> tuple[int, dict]:
                done = ns.run(
                    sys.executable, "-c", _POST, ns.url(port, "/matches"), json.dumps(body), json.dumps(headers)
                )
                status, answer = done.stdout.split(" ", 1)
                return int(status), json.loads(answer)

            table = {"X-Scorekeeper-Code": code.group(1) + code.group(2)}
            status, answer = post(RECORD, {})
            assert status == 403 and answer["error"].startswith("give the table code")
            status, answer = post(RECORD, table)
            assert status == 200 and answer["result"] == "stored"
            assert post(RECORD, table)[1]["result"] == "already"

            def sees(route: str) -> str:
                done = ns.run(sys.executable, STRANGER, "join", ns.host_ip, str(port), route, timeout=60)
                assert done.returncode == 0, done.stderr[-2000:]
                return json.loads(done.stdout.strip().splitlines()[-1])["sees"]

            # the join links printed (and in the QR codes): their secrets, not the typed codes
            log = harness.server_log(server)
            scorer = re.search(r"Phones join at http://\S+/join/([A-Za-z0-9_-]{22,})\s", log)
            watcher = re.search(r"Watchers join at http://\S+/join/([A-Za-z0-9_-]{22,})\s", log)
            assert scorer and watcher, log
            assert sees(f"/join/{scorer.group(1)}") == "scorer"
            assert sees(f"/join/{watcher.group(1)}") == "watcher"
            assert sees(f"/join/{code.group(1)}{code.group(2)}") == "scorer"  # a typed code in a link
            assert sees(f"/join/{scorer.group(1)[:-2]}xy") == "join screen"
        # the host, on loopback, needs no code
        second = {**RECORD, "players": ["Cy", "Di"], "hands": [{"leader": "Cy", "turns": [{"play": "5-0"}]}]}
        req = urllib.request.Request(
            f"http://127.0.0.1:{port}/matches",
            data=json.dumps(second).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=20) as r:
            assert json.loads(r.read())["result"] == "stored"
    finally:
        harness.stop_server(server)
    with Store(db, read_only=True) as st:
        assert sorted(tuple(st.record(m)["players"]) for m in st.ids()) == [("Ann", "Ben"), ("Cy", "Di")]
