"""The table in the browser: a Starlette app, one WebSocket per open page (``cardsim.play.session.serve`` runs it
under uvicorn).

``Host`` is the table's server side. Every person's seat has a secret token, given in its link's fragment (never
sent in a URL): the page says ``hello`` with it, and the socket then speaks for that seat only. Every message to a
page is built from its seat's view (``cardsim.play.view``); a malformed, oversized or out-of-turn message, one
without a token or with another seat's, is refused with an ``error`` message on its socket and logged, and the game
goes on unchanged. After every change each open page gets its seat's view again, and a reloaded page gets it on
``hello``. The bots' moves come one by one, ``delay`` seconds apart (the page's speed setting).

What takes long runs in worker processes (``executor``: ``ProcessPoolExecutor`` with the spawn context; numba's
thread pool is not reentrant, and only the batch kernels release the GIL): a strong bot's decision (``decide``), a
hint and the review of each decision (``cardsim.play.review``), so that nothing blocks the pages or the other
players. A person whose every page closed is waited for (``dropped="wait"``), or after ``GRACE`` seconds played by
a bot until they come back (``"bot"``).

Messages from a page (JSON objects, at most ``MAX_MESSAGE`` bytes): ``{"type": "hello", "token": T}``, ``{"type":
"act", "action": A}`` (a legal option's ``action`` as the view gives it), ``{"type": "hint"}``, ``{"type":
"next"}`` (done with a finished round), ``{"type": "speed", "delay": S}``. To a page: ``view``, ``hint``,
``review``, ``speed`` and ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import signal
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import FileResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from cardsim.errors import CardsimError
from cardsim.games import game_info
from cardsim.play import review as reviews
from cardsim.play.table import Table, check_pace, decide
from cardsim.play.view import encode, message

LOG = logging.getLogger("cardsim.play")
STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096  # bytes of one message from a page (an action is a few dozen)
MAX_FRAME = 1 << 16  # uvicorn closes a socket that sends a larger frame
WORKERS = 2
DELAY = 0.8  # seconds between two bots' moves
GRACE = 5.0  # seconds a dropped person has to come back (a reload) before a bot takes the seat
# Only this page's own files and sockets: nothing is loaded from elsewhere.
POLICY = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'"


class Refused(Exception):
    """A message from a page that is not taken, with the reason its page is told."""


class Host:
    """The server side of one table: the seats' tokens and open pages, the bots' pace, the workers' hints and
    reviews, and the session's end (``on_over``, once)."""

    def __init__(self, table: Table, *, delay: float = DELAY, dropped: str = "wait",
                 samples: int = reviews.HINT_SAMPLES, review: bool = True, executor: Executor | None = None,
                 on_over: Callable[[], None] | None = None) -> None:  # fmt: skip
        self.table, self.delay, self.dropped, self.samples = table, delay, dropped, samples
        self.review, self.executor, self.on_over = review, executor, on_over
        self.tokens = {secrets.token_urlsafe(16): seat for seat in table.humans}
        self.pages: dict[int, list[WebSocket]] = {seat: [] for seat in table.humans}
        self.verdicts: list[asyncio.Future] = []  # the review of each person's decision, in order
        self.reviews: dict[int, dict[str, Any]] = {}  # each seat's last review message, sent again on a reload
        self.hints: dict[int, tuple[int, asyncio.Future]] = {}  # a seat's hint being computed, for a version
        self.tasks: set[asyncio.Task] = set()
        self.wake = asyncio.Event()
        self.reviewed: tuple[int, int] | None = None  # the last finished round whose review was asked for
        self.over = False
        self.unit = game_info(table.game.name).labels.unit

    def token(self, seat: int) -> str:
        return next(token for token, s in self.tokens.items() if s == seat)

    # --- the pages ------------------------------------------------------------------------------------------

    async def page(self, ws: WebSocket) -> None:
        """One open page: refused messages are answered and logged, the page stays open."""
        await ws.accept()
        seat: int | None = None
        try:
            while True:
                received = await ws.receive()
                if received["type"] == "websocket.disconnect":
                    return
                try:
                    seat = await self.take(ws, seat, received.get("text"))
                except Refused as why:
                    LOG.warning("refused a message from %s: %s", "no seat yet" if seat is None else f"seat {seat}", why)
                    await self.send(ws, {"type": "error", "message": str(why)})
        except WebSocketDisconnect:
            return
        finally:
            if seat is not None:
                self.left(seat, ws)

    async def take(self, ws: WebSocket, seat: int | None, text: str | None) -> int | None:
        """Act on one message from the page of ``seat`` (None before its hello); returns the page's seat."""
        if text is None:
            raise Refused("messages are JSON text, not bytes")
        if len(text.encode()) > MAX_MESSAGE:
            raise Refused(f"a message is at most {MAX_MESSAGE} bytes; this one has {len(text.encode())}")
        try:
            data = json.loads(text)
        except ValueError:
            raise Refused("a message is a JSON object, e.g. {\"type\": \"hint\"}") from None
        kinds = ("hello", "act", "hint", "next", "speed")
        if not isinstance(data, dict) or data.get("type") not in kinds:
            raise Refused(f"a message is a JSON object whose type is one of {', '.join(kinds)}")
        token = data.get("token")
        if data["type"] == "hello":
            if seat is not None:
                raise Refused(f"this page already plays seat {seat}")
            if not isinstance(token, str) or token not in self.tokens:
                raise Refused("unknown token: open the link the server printed for your seat")
            seat = self.tokens[token]
            await self.joined(seat, ws)
            return seat
        if seat is None:
            raise Refused("say hello with your seat's token first")
        if token is not None and self.tokens.get(token) != seat:
            raise Refused(f"this page plays seat {seat}: a message with another token is refused")
        await {"act": self.act, "hint": self.hint, "next": self.next, "speed": self.speed}[data["type"]](seat, data)
        return seat

    async def joined(self, seat: int, ws: WebSocket) -> None:
        """A page of ``seat`` said hello: it gets the view (and the last review); a bot standing in steps back."""
        self.pages[seat].append(ws)
        await self.send(ws, {"type": "speed", "delay": self.delay})
        if seat in self.table.away:
            self.table.away.discard(seat)
            await self.changed()
        else:
            await self.send_text(ws, message(self.table, seat))
        if seat in self.reviews:
            await self.send(ws, self.reviews[seat])

    def left(self, seat: int, ws: WebSocket) -> None:
        """A page of ``seat`` closed; with ``dropped="bot"`` and no page left, a bot takes the seat after
        ``GRACE`` seconds."""
        with contextlib.suppress(ValueError):
            self.pages[seat].remove(ws)
        if self.dropped == "bot" and not self.pages[seat]:
            self.spawn(self.stand_in(seat))

    async def stand_in(self, seat: int) -> None:
        await asyncio.sleep(GRACE)
        if not self.pages[seat] and seat not in self.table.away:
            LOG.warning("seat %d left the table: a bot plays it until its person is back", seat)
            self.table.away.add(seat)
            await self.changed()

    async def act(self, seat: int, data: dict[str, Any]) -> None:
        if "action" not in data:
            raise Refused("an act message names its action: {\"type\": \"act\", \"action\": ...}")
        try:
            self.table.act(seat, data["action"])
        except CardsimError as exc:
            raise Refused(str(exc)) from None
        if self.review and self.executor is not None:
            self.verdicts.append(self.work(reviews.verdict, self.table.decisions[-1], self.samples))
        await self.changed()

    async def hint(self, seat: int, data: dict[str, Any]) -> None:
        """Value the seat's decision at hand in a worker; the answer is sent if the decision is still at hand."""
        if self.executor is None:
            raise Refused("hints are off at this table")
        if self.table.mover != seat or seat in self.table.away:
            raise Refused("a hint is for your own decision, at your turn")
        version = self.table.version
        if self.hints.get(seat, (None,))[0] != version:  # else: valued already, or being valued
            self.hints[seat] = (version, self.work(reviews.hint, self.table.round.copy(), seat, self.samples))
        self.spawn(self.send_hint(seat, version))

    async def send_hint(self, seat: int, version: int) -> None:
        try:
            answer = await self.hints[seat][1]
        except Exception as exc:  # the worker's failure: said and logged, the table goes on
            LOG.error("no hint for seat %d: %s", seat, exc)
            answer = {"type": "error", "message": f"no hint: {exc}"}
        if self.table.version == version:
            await self.to_seat(seat, encode(answer))

    async def next(self, seat: int, data: dict[str, Any]) -> None:
        try:
            self.table.next_round(seat)
        except CardsimError as exc:
            raise Refused(str(exc)) from None
        await self.changed()  # the next round, or who is ready

    async def speed(self, seat: int, data: dict[str, Any]) -> None:
        try:
            self.delay = check_pace(data.get("delay"))
        except CardsimError as exc:
            raise Refused(str(exc)) from None
        for s in self.pages:
            await self.to_seat(s, encode({"type": "speed", "delay": self.delay}))

    # --- the table going on ---------------------------------------------------------------------------------

    async def changed(self) -> None:
        """After any change: every page gets its seat's view; a finished round's review is sent once valued; the
        session's end is kept (``on_over``); the bots go on."""
        for seat in self.pages:
            if self.pages[seat]:
                await self.to_seat(seat, message(self.table, seat))
        finished = (self.table.game_no, self.table.round_no)
        if self.table.phase != "turn" and self.reviewed != finished:
            self.reviewed = finished
            if self.review and self.executor is not None:
                self.spawn(self.send_reviews(*finished, self.table.phase == "over"))
            elif self.table.phase == "over":
                self.finish()
        self.wake.set()

    async def drive(self) -> None:
        """The bots' moves, one by one at the table's pace, whenever a bot is to act."""
        while True:
            if not self.table.bot_moves():
                self.wake.clear()
                await self.wake.wait()
                continue
            await asyncio.sleep(self.delay)
            if not self.table.bot_moves():
                continue
            try:
                await self.bot_move()
            except Exception as exc:  # a bot's failed decision (RULES.md D2), here or in a worker: the game stops
                LOG.error("%s", exc)
                for seat in self.pages:
                    await self.to_seat(seat, encode({"type": "error", "message": f"the game stopped: {exc}"}))
                return
            await self.changed()

    async def bot_move(self) -> None:
        """The bot to act decides: a strong one in a worker (its search holds the GIL), any other here."""
        if self.executor is None or not self.table.needs_worker():
            self.table.play_bot()
            return
        version = self.table.version
        decided = await self.work(decide, *self.table.bot_decision())
        if self.table.version == version:
            self.table.adopt(decided)

    async def send_reviews(self, game_no: int, round_no: int, last: bool) -> None:
        """Each person's review of the round just over, once its decisions are valued (and, after the last round,
        the session's end)."""
        asked = list(self.verdicts)
        if asked:
            await asyncio.wait(asked)
        for failed in {str(f.exception()) for f in asked if not f.cancelled() and f.exception() is not None}:
            LOG.error("the review could not value a decision: %s", failed)
        done = self.verdicts_done()
        for seat in self.pages:
            mine = [v for v in done if v["seat"] == seat]
            now = [v for v in mine if (v["game_no"], v["round_no"]) == (game_no, round_no)]
            self.reviews[seat] = {"type": "review", "game_no": game_no, "round_no": round_no, "verdicts": now,
                                  "summary": reviews.summary(now, self.unit), "last": last,
                                  "session": reviews.summary(mine, self.unit)}  # fmt: skip
            await self.to_seat(seat, encode(self.reviews[seat]))
        if last:
            self.finish()

    def finish(self) -> None:
        if not self.over:
            self.over = True
            if self.on_over is not None:
                self.on_over()

    def verdicts_done(self) -> list[dict[str, Any]]:
        """The reviewed decisions so far (those still being valued left out)."""
        return [f.result() for f in self.verdicts if f.done() and not f.cancelled() and f.exception() is None]

    # --- plumbing -------------------------------------------------------------------------------------------

    def work(self, function: Callable[..., Any], *args: Any) -> asyncio.Future:
        return asyncio.get_running_loop().run_in_executor(self.executor, function, *args)

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def to_seat(self, seat: int, text: str) -> None:
        for ws in list(self.pages[seat]):
            await self.send_text(ws, text)

    async def send(self, ws: WebSocket, data: dict[str, Any]) -> None:
        await self.send_text(ws, encode(data))

    async def send_text(self, ws: WebSocket, text: str) -> None:
        """Send to one page; a page that closed meanwhile is let go."""
        if ws.application_state != WebSocketState.CONNECTED:
            return
        try:
            await ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass

    @contextlib.asynccontextmanager
    async def running(self, app: Starlette) -> AsyncIterator[None]:
        """The app's lifespan: the bots' driver runs while the server does."""
        self.spawn(self.drive())
        try:
            yield
        finally:
            for task in list(self.tasks):
                task.cancel()


class _Headers(BaseHTTPMiddleware):
    """Every page and file under the content policy: only this server's own files and sockets."""

    async def dispatch(self, request, call_next):
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = POLICY
        response.headers["Cache-Control"] = "no-store"
        return response


def app(host: Host) -> Starlette:
    """The ASGI app of ``host``'s table: the page, its files and the socket."""

    async def index(request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    routes = [Route("/", index), Mount("/static", StaticFiles(directory=STATIC)), WebSocketRoute("/ws", host.page)]
    return Starlette(routes=routes, middleware=[Middleware(_Headers)], lifespan=host.running)


def workers(count: int = WORKERS) -> ProcessPoolExecutor:
    """Worker processes for the strong bots, the hints and the review: spawned (not forked from a process with
    numba's threads), leaving Ctrl-C to the server."""
    return ProcessPoolExecutor(count, mp_context=get_context("spawn"), initializer=_ignore_interrupts)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)

