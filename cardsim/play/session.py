"""``cardsim play``: a session from the command line, in order: every setting checked and the port taken (bad input
is one error before any work), the kernels compiled, the game played in the browser (``serve``: the server's app
under uvicorn, its worker processes beside it) or line by line, and the finished rounds saved however it ends (its
end, Ctrl-C or SIGTERM, the end of the input, an error).
"""

from __future__ import annotations

import importlib.util
import ipaddress
import logging
import signal
import socket
import sys
import webbrowser
from pathlib import Path
from typing import Any, TextIO

from cardsim.errors import CardsimError
from cardsim.games import game_info
from cardsim.jit.compiling import estimate, notice
from cardsim.play import review as reviews
from cardsim.play.plain import Plain
from cardsim.play.save import save, session_folder
from cardsim.play.table import Table, bot_move, check_pace, setup

SERVER_PACKAGES = ("starlette", "uvicorn")  # the [play] extra's
DROPPED = ("wait", "bot")  # what the table does when a person's every page closed


def play(game: str, *, players: int | None = None, rules: list[str] | None = None, bots: str = "heuristic",
         humans: int = 1, seat: int = 0, seed: int | None = None, games: int = 1, host: str = "127.0.0.1",
         port: int = 0, browser: bool = True, plain: bool = False, folder: str | None = None, delay: float = 0.8,
         dropped: str = "wait", samples: int = reviews.HINT_SAMPLES, review: bool = True,
         stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> Path | None:  # fmt: skip
    """Play a session (see the module docstring); returns the folder it was saved in (None: no round finished)."""
    settings = setup(game, players=players, rules=rules, bots=bots, humans=humans, seat=seat, seed=seed, games=games)
    where = session_folder(folder)
    if plain and humans != 1:
        raise CardsimError(f"--plain seats one person at one terminal, not {humans}: play with friends in the browser")
    check_pace(delay)
    if dropped not in DROPPED:
        raise CardsimError(f"dropped={dropped!r} is not allowed: 'wait' (the table waits for the person) or 'bot' (a "
                           "bot plays the seat until they are back)")  # fmt: skip
    if not plain:
        server_packages()
    listening = None if plain else listen(host, port)
    table = Table(settings)
    verdicts: list[dict[str, Any]] = []
    terminate = signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops a session as Ctrl-C does: saved
    try:
        warm(table, evaluate=review or not plain)
        if plain:
            session = Plain(table, stdin, stdout, review=review, samples=samples)
            try:
                session.play()
            finally:
                verdicts = session.verdicts
        else:
            verdicts = serve(table, listening, where, delay=delay, dropped=dropped, samples=samples, review=review,
                             browser=browser)  # fmt: skip
    finally:
        signal.signal(signal.SIGTERM, terminate)
        if listening is not None:
            listening.close()
        saved = save_once(table, where, verdicts)
        print(f"cardsim play: {saved}", file=sys.stderr)
    return where if where.exists() else None


def save_once(table: Table, folder: Path, verdicts: list[dict[str, Any]]) -> str:
    """Save the session unless it was saved already (at its end, by the server); what was done, in words."""
    if (folder / "config.json").exists():
        return f"the games are saved in {folder}"
    done = save(table, folder, verdicts)
    if done is None:
        return "no round was finished: nothing was saved"
    rounds = sum(len(table.finished_rounds(m)) for m in table.matches)
    return f"{rounds} finished round{'s' * (rounds != 1)} saved in {folder}"


def server_packages() -> None:
    """The browser's table needs the [play] extra's packages; without them, one error that says how to get them."""
    missing = [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        raise CardsimError(f"the table in the browser needs {' and '.join(missing)}: pip install 'cardsim[play]' (or "
                           "play line by line with --plain)")  # fmt: skip


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host`` and ``port`` (0: a free one), or the error that says why not."""
    if not 0 <= port <= 65535:
        raise CardsimError(f"--port {port} is not allowed: give 1 to 65535, or 0 for a free port")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as exc:
        raise CardsimError(f"--host {host!r} is no address of this machine ({exc})") from None
    try:
        sock.bind(address)
        sock.listen(64)
    except OSError as exc:
        sock.close()
        busy = " (in use: give another --port, or --port 0 for a free one)" if exc.errno == 98 else ""
        raise CardsimError(f"cannot listen on {host} port {port}: {exc.strerror}{busy}") from None
    return sock


def links(sock: socket.socket, tokens: dict[str, int]) -> tuple[dict[int, str], bool]:
    """Each person's seat's link, and whether the server listens on loopback only."""
    address, port = sock.getsockname()[:2]
    ip = ipaddress.ip_address(address)
    shown = address
    if ip.is_unspecified:  # every interface: the address others on the network reach this machine at
        shown = lan_address()
    if ":" in shown:
        shown = f"[{shown}]"
    return {seat: f"http://{shown}:{port}/#{token}" for token, seat in sorted(tokens.items(), key=lambda t: t[1])}, \
        ip.is_loopback  # fmt: skip


def lan_address() -> str:
    """This machine's address on its network (the route a datagram socket would take; nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def announce(sock: socket.socket, tokens: dict[str, int], title: str, browser: bool) -> None:
    """Print the seats' links (a warning first when the server is reachable from the network); open the first."""
    seats, loopback = links(sock, tokens)
    if not loopback:
        print(f"cardsim play: listening on {sock.getsockname()[0]}, not only on this machine: anyone on the network "
              "can reach this server, and a seat's link is all it takes to play that seat; give each friend only "
              "their own link", file=sys.stderr)  # fmt: skip
    for seat, link in seats.items():
        print(f"cardsim play: {title}, seat {seat}: {link}", flush=True)
    print("cardsim play: Ctrl-C stops the server (the finished rounds are saved)", flush=True)
    if browser:
        webbrowser.open(next(iter(seats.values())))


def warm(table: Table, evaluate: bool) -> None:
    """Compile (or load) what the table calls before its page opens: the round's steps and views, each seat's bot
    at each kind of decision, and with ``evaluate`` the valuation behind hints and the review, on a copy of the
    first round played out by random bots."""
    r = table.round.copy()
    players = {name: table.game.lineup(name, table.rules) for name in dict.fromkeys(table.setup.lineup.names)}
    randoms, asked = table.game.lineup("random", table.rules), set()
    title = game_info(table.game.name).title
    with notice(f"the {title} table's kernels (its bots' and the hints')", estimate(table.game.name, "round")):
        while not r.done:
            if r.decision not in asked:
                asked.add(r.decision)
                r.observation(r.to_move)
                for lineup in players.values():
                    bot_move(r.copy(), lineup, r.to_move, {})
            bot_move(r, randoms, r.to_move, {})
        r.record()
        if evaluate:
            reviews.warm(table.round.copy())


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def serve(table: Table, sock: socket.socket, folder: Path, *, delay: float, dropped: str, samples: int,
          review: bool, browser: bool) -> list[dict[str, Any]]:
    """Serve ``table`` on the listening socket ``sock`` until Ctrl-C (or SIGTERM), its workers beside it; the
    session is saved into ``folder`` as soon as it is over. Returns the review's verdicts."""
    import uvicorn

    from cardsim.play.server import LOG, MAX_FRAME, WORKERS, Host, app, workers  # the [play] extra's packages

    if not LOG.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("cardsim play: %(message)s"))
        LOG.addHandler(handler)
    executor = workers()
    host = Host(table, delay=delay, dropped=dropped, samples=samples, review=review, executor=executor)

    def over() -> None:
        saved = save_once(table, folder, host.verdicts_done())
        print(f"cardsim play: the session is over; {saved}; Ctrl-C stops the server", flush=True)

    host.on_over = over
    for _ in range(WORKERS):  # each worker loads the kernels now, not at the first hint
        executor.submit(reviews.warm, table.round.copy())
    config = uvicorn.Config(app(host), log_level="warning", access_log=False, ws_max_size=MAX_FRAME, lifespan="on")
    announce(sock, host.tokens, game_info(table.game.name).title, browser)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shut down on Ctrl-C (or SIGTERM), then raised it again: the normal stop
        pass
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
    return host.verdicts_done()
