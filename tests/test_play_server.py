"""The table's server (issue 43, items 2, 3, 4 and 7): whole rounds of every game over the WebSocket with a hint, a
review and a save; bad messages refused with the game unharmed; reloads, dropped friends, the worker processes, and
the command's start and Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import random
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import require, table_variants

require("starlette", "uvicorn", "httpx2", "websockets")

from starlette.testclient import TestClient  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from cardsim.games import GAMES  # noqa: E402
from cardsim.play import server  # noqa: E402
from cardsim.play.save import save  # noqa: E402
from cardsim.play.server import Host, app, workers  # noqa: E402
from cardsim.play.table import Table, setup  # noqa: E402
from cardsim.play.view import message  # noqa: E402
from cardsim.runner import load_rows  # noqa: E402

FIRST = next(iter(GAMES))
VARIANTS = table_variants()
IDS = [f"{game}-{','.join(rules) or 'default'}" for game, rules in VARIANTS]
SAMPLES = 20  # deals per hint and reviewed decision: enough to test, cheap


def hello(ws, host: Host, seat: int) -> dict:
    """Say hello as ``seat``; returns its first view (after the pace)."""
    ws.send_json({"type": "hello", "token": host.token(seat)})
    assert ws.receive_json()["type"] == "speed"
    first = ws.receive_json()
    assert first["type"] == "view" and first["you"] == seat
    return first


def until(ws, kind: str) -> dict:
    """The next message of ``kind`` (views and others before it are read and dropped; an error only if asked)."""
    while (data := ws.receive_json())["type"] != kind:
        assert data["type"] != "error", data
    return data


def refusal(ws) -> str:
    """The next error's message (views before it are read and dropped)."""
    while (data := ws.receive_json())["type"] != "error":
        pass
    return data["message"]


@pytest.mark.parametrize("game, rules", VARIANTS, ids=IDS)
def test_a_round_of_every_game_over_the_socket_with_a_hint_a_review_and_a_save(game, rules, tmp_path):
    table = Table(setup(game, rules=list(rules), bots="random", seat=1, seed=5))
    with ThreadPoolExecutor(1) as executor:
        host = Host(table, delay=0, samples=SAMPLES, executor=executor)
        rng, hinted = random.Random(2), False
        with TestClient(app(host)) as client, client.websocket_connect("/ws") as ws:
            view = hello(ws, host, 1)
            while view["phase"] == "turn":
                if view["options"]:
                    if not hinted:
                        ws.send_json({"type": "hint"})
                        hint = until(ws, "hint")
                        assert [o["label"] for o in hint["options"]] == sorted(
                            [o["label"] for o in view["options"]], key=[o["label"] for o in hint["options"]].index)
                        assert hint["best"] in [o["label"] for o in hint["options"]]
                        hinted = True
                    ws.send_json({"type": "act", "action": rng.choice(view["options"])["action"]})
                view = until(ws, "view")
            review = until(ws, "review")
    assert view["phase"] == "round over" and hinted
    mine = [d for d in table.decisions if d.seat == 1]
    assert [v["decision"] for v in review["verdicts"]] == [d.decision for d in mine]
    assert all(v["cost"] >= -1e-9 for v in review["verdicts"]) and "cost you" in review["summary"]
    folder = save(table, tmp_path / "saved", host.verdicts_done())
    rows = load_rows(folder)
    assert len(rows) == table.seats and rows.loc[rows["seat"] == 1, "bot"].item() == "human"
    assert len(json.loads((folder / "review.json").read_text())) == len(mine)


def test_a_whole_session_to_its_end_with_the_last_review_and_the_page_from_the_package():
    table = Table(setup(FIRST, bots="random", seed=9))
    ended = []
    with ThreadPoolExecutor(1) as executor:
        host = Host(table, delay=0, samples=SAMPLES, executor=executor, on_over=lambda: ended.append(table.phase))
        with TestClient(app(host)) as client:
            page = client.get("/")
            assert page.status_code == 200 and "default-src 'self'" in page.headers["content-security-policy"]
            for name in ("index.html", "table.js", "table.css"):
                text = client.get(f"/static/{name}").text
                elsewhere = re.search(r"(src|href|url)\s*[=(]\s*[\"']?(https?:)?//", text)
                assert not elsewhere, name  # nothing is loaded from elsewhere
            with client.websocket_connect("/ws") as ws:
                view, reviewed = hello(ws, host, 0), []
                while view["phase"] != "over":
                    if view["options"]:
                        ws.send_json({"type": "act", "action": view["options"][0]["action"]})
                    elif view["phase"] == "round over":
                        reviewed.append(until(ws, "review"))
                        ws.send_json({"type": "next"})
                    view = until(ws, "view")
                last = until(ws, "review")
    assert ended == ["over"] and last["last"] and not any(r["last"] for r in reviewed)
    assert len(reviewed) + 1 == len(table.match.rounds) and "cost you" in last["session"]


def test_bad_messages_are_refused_and_logged_and_the_game_goes_on(caplog):
    table = Table(setup(FIRST, bots="random", humans=2, seed=3))
    host = Host(table, delay=0, executor=None)
    bad = [
        ({"type": "act", "action": 1}, "say hello"),
        ("not json", "JSON object"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"type": "shout"}), "type is one of"),
        ("x" * (server.MAX_MESSAGE + 1), "at most"),
        ({"type": "hello", "token": "guess"}, "unknown token"),
        ({"type": "hello"}, "unknown token"),
    ]
    with TestClient(app(host)) as client, client.websocket_connect("/ws") as ws, \
            client.websocket_connect("/ws") as other:  # fmt: skip
        for data, says in bad:
            ws.send_text(data if isinstance(data, str) else json.dumps(data))
            assert says in ws.receive_json()["message"]
        ws.send_bytes(b"\x00")
        assert "not bytes" in ws.receive_json()["message"]
        view = hello(ws, host, 0)
        hello(other, host, 1)
        while view["to_move"] not in (0, 1):  # a person's turn: nothing moves until they act
            view = until(ws, "view")
        mover = view["to_move"]
        mine, theirs = (ws, other) if mover == 0 else (other, ws)
        version, before = table.version, [message(table, s) for s in (0, 1)]
        for data, says in [
            ({"type": "hello", "token": host.token(1)}, "already plays"),
            ({"type": "act"}, "names its action"),
            ({"type": "act", "action": "nonsense"}, "allowed"),
            ({"type": "act", "action": [1, [2]]}, ""),
            ({"type": "next"}, "not over"),
            ({"type": "speed", "delay": 99}, "the pace"),
            ({"type": "hint"}, "hints are off"),
            ({"type": "act", "action": 0, "token": host.token(1 - mover)}, "another token"),
        ]:
            mine.send_json(data)
            assert says in refusal(mine), data
        theirs.send_json({"type": "act", "action": 0})
        assert "not your turn" in refusal(theirs)
        assert table.version == version and [message(table, s) for s in (0, 1)] == before
        mine.send_json({"type": "act", "action": table.round.legal()[0]})
        until(mine, "view")
    assert table.version > version
    assert sum("refused a message" in r.getMessage() for r in caplog.records) >= len(bad) + 10
    assert not any(host.token(s) in r.getMessage() for r in caplog.records for s in (0, 1))  # tokens stay secret


def test_a_reload_gives_the_seat_its_view_back():
    table = Table(setup(FIRST, bots="random", seed=8))
    host = Host(table, delay=0, executor=None)
    with TestClient(app(host)) as client:
        with client.websocket_connect("/ws") as ws:
            view = hello(ws, host, 0)
            for _ in range(3):
                while not view["options"]:
                    view = until(ws, "view")
                ws.send_json({"type": "act", "action": view["options"][-1]["action"]})
                view = until(ws, "view")
            while table.bot_moves() or view["to_move"] != 0:  # the bots move on after the page closed
                view = until(ws, "view")
        with client.websocket_connect("/ws") as ws:
            assert hello(ws, host, 0) == view == json.loads(message(table, 0))


@pytest.mark.parametrize("dropped", ["wait", "bot"])
def test_a_dropped_person_is_waited_for_or_played_by_a_bot_until_back(dropped, monkeypatch):
    monkeypatch.setattr(server, "GRACE", 0.05)
    table = Table(setup(FIRST, bots="random", seed=8))
    host = Host(table, delay=0, executor=None, dropped=dropped)
    with TestClient(app(host)) as client:
        with client.websocket_connect("/ws") as ws:
            view = hello(ws, host, 0)
            while not view["options"]:
                view = until(ws, "view")
        version, began = table.version, time.monotonic()
        while time.monotonic() - began < 1 and table.version < version + 8:
            time.sleep(0.02)
        if dropped == "wait":
            assert table.version == version and not table.away
            return
        assert table.version >= version + 8 and table.away == {0}  # the stand-in played on
        with client.websocket_connect("/ws") as ws:
            assert hello(ws, host, 0)["away"] == [] and not table.away


def test_hints_and_a_strong_bot_in_worker_processes(monkeypatch):
    """The real workers: spawned processes value a hint and decide for a strong bot, while the server answers."""
    table = Table(setup(FIRST, bots="mc:samples=2:bid_samples=2,random,random", seed=6, seat=1))
    with workers(1) as executor:
        host = Host(table, delay=0, samples=SAMPLES, executor=executor)
        sent, work = [], host.work

        def counted(function, *args):
            sent.append(function.__name__)
            return work(function, *args)

        monkeypatch.setattr(host, "work", counted)
        with TestClient(app(host)) as client, client.websocket_connect("/ws") as ws:
            view = hello(ws, host, 1)
            while not view["options"]:
                view = until(ws, "view")
            ws.send_json({"type": "hint"})
            assert until(ws, "hint")["options"]
            moves = 0
            while moves < 3:  # the strong bot at seat 0 decides after this seat, in the worker
                if view["options"]:
                    ws.send_json({"type": "act", "action": view["options"][0]["action"]})
                    moves += 1
                view = until(ws, "view")
    assert {"hint", "decide", "verdict"} <= set(sent)


def test_the_command_serves_links_warns_off_loopback_and_saves_on_ctrl_c(tmp_path):
    folder = tmp_path / "served"
    process = subprocess.Popen([sys.executable, "-m", "cardsim.cli", "play", FIRST, "--no-browser", "--host",
                                "0.0.0.0", "--humans", "2", "--seed", "1", "--bots", "random", "--pace", "0",
                                "--no-review", "--save", str(folder)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        links = []
        while len(links) < 2:
            line = process.stdout.readline()
            assert line, process.stderr.read()
            links += re.findall(r"seat (\d): (http://\S+)/#(\S+)", line)
        with contextlib.ExitStack() as stack:
            sockets = {int(seat): stack.enter_context(connect(f"ws://{url[len('http://'):]}/ws"))
                       for seat, url, _ in links}  # fmt: skip
            for seat, _, token in links:
                sockets[int(seat)].send(json.dumps({"type": "hello", "token": token}))
            finished = set()
            while len(finished) < 2:
                for seat, ws in sockets.items():
                    data = json.loads(ws.recv(timeout=30))
                    if data["type"] == "view" and data["options"]:
                        ws.send(json.dumps({"type": "act", "action": data["options"][0]["action"]}))
                    elif data["type"] == "view" and data["phase"] == "round over":
                        finished.add(seat)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "not only on this machine" in err and "saved in" in err
    assert len(load_rows(folder)) == 4
