"""The server tells each seat only what that seat may see (issue 43, item 2).

In whole games of every game and variant, every round is played through the server's WebSocket, every seat a
person's: at a moment of the round, the cards one seat cannot see are dealt anew (``conftest.redeal_hidden``: the
other hands but the cards already put out, the kitty unless the seat has seen it, the cards dealt to nobody), the
same actions are played again from the round's start, and every message that seat received (its views from its
hello to that moment, and there its hint when it is to act) must be the same, byte for byte. A message that named
a hidden card, its index, or a count that depends on it would differ. The round then goes on as dealt, and the
game with it. (The review values each decision as the hint does, from the round at that moment; it is sent at a
round's end, so it is left out here.)"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor

import numpy as np
import pytest
from conftest import redeal_hidden, require, table_variants

require("starlette", "httpx2")

from starlette.testclient import TestClient  # noqa: E402

from cardsim import CardsimError, new_round  # noqa: E402
from cardsim.games import get_game  # noqa: E402
from cardsim.play import view as views  # noqa: E402
from cardsim.play.server import Host, app  # noqa: E402
from cardsim.play.table import Table, setup  # noqa: E402
from cardsim.round import Round  # noqa: E402

VARIANTS = table_variants()
HINT_SAMPLES = 16
IDS = [f"{game}-{','.join(rules) or 'default'}" for game, rules in VARIANTS]
TRIES = 40  # re-deals tried per moment: one that contradicts a play seen (a void shown) is not a possible deal


@pytest.fixture(scope="module")
def executor() -> Iterator[Executor]:
    """Where the hints are valued (a thread: the test needs no other process)."""
    with ThreadPoolExecutor(1) as pool:
        yield pool


def received(client: TestClient, host: Host, round: Round, actions: list, seat: int) -> list[str]:
    """Every message ``seat``'s page receives, from its hello on, while the seats' own pages play ``actions`` from
    ``round`` (made the table's current round)."""
    host.table.match.round = round
    with contextlib.ExitStack() as stack:
        pages = {s: stack.enter_context(client.websocket_connect("/ws")) for s in range(host.table.seats)}
        for s in [*(s for s in pages if s != seat), seat]:  # the watched seat last: every page is open then
            pages[s].send_json({"type": "hello", "token": host.token(s)})
        got = [pages[seat].receive_text(), pages[seat].receive_text()]  # the pace, the view
        for action in actions:
            pages[host.table.mover].send_json({"type": "act", "action": action})
            got.append(pages[seat].receive_text())
        if host.table.mover == seat:  # its hint, valued in a worker
            pages[seat].send_json({"type": "hint"})
            got.append(pages[seat].receive_text())
    return got


def check(game: str, rules: tuple[str, ...], executor: Executor) -> int:
    """Play a whole game of ``game`` at a table of people, checking one moment of each round (see the module
    docstring); returns the moments checked."""
    seats = get_game(game).seats(get_game(game).make_rules(list(rules)))
    table = Table(setup(game, rules=list(rules), humans=seats, seed=21))
    host = Host(table, delay=0, samples=HINT_SAMPLES, executor=executor, review=False)
    rng = random.Random(5)
    checked = 0
    with TestClient(app(host)) as client:
        while table.phase != "over":
            start = table.round.copy()
            probe, actions = start.copy(), []
            while not probe.done:
                actions.append(rng.choice(probe.legal()))
                probe.play(actions[-1])
            record = probe.record()
            totals = [t + s for t, s in zip(table.totals, probe.scores, strict=True)]
            last = table.game.game_over(table.rules, np.array(totals), len(table.match.rounds) + 1)
            k, seat = rng.randrange(len(actions) + (not last)), rng.randrange(seats)  # the last round ends it all
            at, played = start.copy(), [set() for _ in range(seats)]
            for action in actions[:k]:
                if at.decision in ("card", "discard"):
                    played[at.to_move].add(action)  # put out: it stays where it was dealt
                at.play(action)
            sees_kitty = getattr(at.observation(seat), "kitty", None) is not None
            for _ in range(TRIES):
                other = new_round(game, rules=record["rules"], **redeal_hidden(record, seat, played, sees_kitty, rng))
                try:
                    replay = other.copy()
                    for action in actions[:k]:
                        replay.play(action)
                except CardsimError:
                    continue  # this re-deal contradicts a play: not a possible deal
                assert received(client, host, other, actions[:k], seat) == \
                    received(client, host, start.copy(), actions[:k], seat), (table.round_no, k, seat)  # fmt: skip
                checked += 1
                break
            table.match.round = start  # the round goes on as dealt
            for action in actions:
                table.act(table.mover, action)
            for person in range(seats) if table.phase == "round over" else ():
                table.next_round(person)
    assert checked >= max(1, len(table.match.rounds) // 2)
    return checked


@pytest.mark.parametrize("game, rules", VARIANTS, ids=IDS)
def test_every_message_to_a_seat_is_the_same_when_the_cards_it_cannot_see_are_dealt_anew(game, rules, executor):
    check(game, rules, executor)


def test_the_check_finds_a_message_that_shows_a_hidden_card(monkeypatch, executor):
    """It can fail: a view that also gave the next seat's hand (as its mask) differs under a re-deal."""
    honest = views.view

    def leaky(table: Table, seat: int) -> dict:
        return {**honest(table, seat), "next_hand": int(table.round.state.hands[(seat + 1) % table.seats])}

    monkeypatch.setattr(views, "view", leaky)
    with pytest.raises(AssertionError):
        check(*VARIANTS[0], executor)
