"""A game in progress at one table: people in some seats, cardsim's bots in the others.

``setup`` checks a table's settings without compiling anything (the CLI refuses bad input before any work);
``Table`` plays them: a ``Match`` per game of the session, round after round. A person acts through ``act``, which
refuses a seat that is not theirs, a move out of turn and an illegal action with ``CardsimError`` and changes
nothing; a bot's decision goes through the plain-Python driver (``cardsim.driver.play_decision``), exactly as in a
run, in this process (``play_bot``) or, for a strong bot whose search holds the GIL, in a worker process
(``bot_decision``, its round handed back to ``adopt``). The table keeps every person's decision with the round as
it stood before it, for the review.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardsim.cards import SUIT_SYMBOLS, Deck
from cardsim.driver import play_decision
from cardsim.errors import CardsimError
from cardsim.games import Game, get_game
from cardsim.lineup import FIRST_STRONG, HUMAN, Lineup
from cardsim.numba_bots import USER_BOT
from cardsim.options import RuleSettings
from cardsim.protocol import Seat
from cardsim.rng import resolve_seed
from cardsim.round import Match, Round

STANDIN = "heuristic"  # plays an away person's seat when no bot sits at the table
MAX_PACE = 5.0  # seconds between two bots' moves in the browser, at most


@dataclass(frozen=True)
class Setup:
    """A table's checked settings: the game and its rules, who sits where (``names``: a bot's spec, or ``human``),
    the session's seed (secret unless given) and number of games."""

    game: Game
    rules: Any
    names: tuple[str, ...]
    seed: int
    games: int
    lineup: Lineup = field(repr=False)  # every seat's bot; a person's seat holds the stand-in that plays it if away

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(seat for seat, name in enumerate(self.names) if name == HUMAN)


def setup(game: str | Game, *, players: int | None = None, rules: RuleSettings = None, bots: str = "heuristic",
          humans: int = 1, seat: int = 0, seed: int | None = None, games: int = 1) -> Setup:  # fmt: skip
    """The table's settings checked, before anything compiles: people sit in ``humans`` seats from ``seat`` on (in
    play order), the bots of ``bots`` (one for every other seat, or one per other seat in seat order) in the rest;
    ``seed`` None draws a secret one."""
    front = get_game(game) if isinstance(game, str) else game
    rule_set = front.make_rules(rules, players)
    front.check_units(rule_set, True)  # a table plays whole games
    seats = front.seats(rule_set)
    if isinstance(humans, bool) or not isinstance(humans, int) or not 1 <= humans <= seats:
        raise CardsimError(f"humans {humans!r} is not allowed: from 1 to {seats} people can sit at a {front.name} "
                           "table under these rules")  # fmt: skip
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise CardsimError(f"seat {seat!r} is not allowed: seats are 0 to {seats - 1}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise CardsimError(f"games {games!r} is not allowed: play 1 or more games")
    people = {(seat + k) % seats for k in range(humans)}
    entries = [name.strip() for name in bots.split(",")]
    if HUMAN in entries:
        raise CardsimError(f"'{HUMAN}' is no bot: people sit in the seats --humans and --seat give")
    others = seats - humans
    if len(entries) == 1:
        entries *= others
    if others and len(entries) != others:
        raise CardsimError(f"--bots gives {len(entries)} bots, but {others} seats are the bots': give one bot for "
                           f"all of them or one per seat, comma-separated")  # fmt: skip
    bot_names = iter(entries if others else [])
    names = tuple(HUMAN if s in people else next(bot_names) for s in range(seats))
    standin = next((name for name in names if name != HUMAN), STANDIN)
    lineup = front.lineup([standin if name == HUMAN else name for name in names], rule_set)
    return Setup(front, rule_set, names, resolve_seed(seed), games, lineup)


@dataclass(frozen=True)
class Decision:
    """One decision a person made: where, what, and the round as it stood before it (its seat's view of it is what
    the review evaluates)."""

    game_no: int
    round_no: int
    seat: int
    decision: str
    action: Any
    before: Round


class Table:
    """The session at one table: its games one after another, each a ``Match`` dealt from the session's seed, the
    game's index in the session as its ``game_no``."""

    def __init__(self, settings: Setup) -> None:
        self.setup = settings
        self.game, self.rules, self.names = settings.game, settings.rules, settings.names
        self.humans = settings.humans
        self.matches = [Match(self.game, self.rules, settings.seed, 0)]
        self.decisions: list[Decision] = []
        self.ready: set[int] = set()  # the people done looking at a finished round
        self.away: set[int] = set()  # people's seats a bot plays for now
        self._rngs: dict[int, random.Random] = {}  # the Python bots' generators of the current round
        self.version = 0  # the moves made so far: a worker's answer for an older version is stale
        self._scores: list[list[int]] = []  # the current game's finished rounds' scores, but the current one's

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def match(self) -> Match:
        return self.matches[-1]

    @property
    def round(self) -> Round:
        return self.match.round

    @property
    def game_no(self) -> int:
        return len(self.matches) - 1

    @property
    def round_no(self) -> int:
        """The current round's index in its game (a finished round keeps its index until the next is dealt)."""
        return len(self.match.rounds) - (1 if self.match.done else 0)

    @property
    def phase(self) -> str:
        """``turn`` (a seat is to act), ``round over`` (the people look at the finished round) or ``over``."""
        if self.match.done and len(self.matches) == self.setup.games:
            return "over"
        return "round over" if self.round.done else "turn"

    @property
    def mover(self) -> int | None:
        return None if self.phase != "turn" else self.round.to_move

    def bot_moves(self) -> bool:
        """Whether a bot is to act now: at a bot's seat, or at an away person's."""
        return self.mover is not None and (self.names[self.mover] != HUMAN or self.mover in self.away)

    def needs_worker(self) -> bool:
        """Whether the bot to act is a strong one, whose search holds the GIL (``bot_decision`` in a worker)."""
        bot = self.setup.lineup.table[self.mover, 0]
        return bool(bot >= FIRST_STRONG and bot != USER_BOT)

    @property
    def totals(self) -> list[int]:
        """The game's running score per seat, the finished current round included."""
        if self.round.done and not self.match.done:
            return [t + s for t, s in zip(self.match.totals, self.round.scores, strict=True)]
        return list(self.match.totals)

    def round_scores(self) -> list[list[int]]:
        """The scores of the current game's finished rounds."""
        return self._scores + ([self.round.scores] if self.round.done and not self.match.done else [])

    @staticmethod
    def finished_rounds(match: Match) -> list[Round]:
        """The finished rounds of ``match``, its current one included once over."""
        return match.rounds + ([match.round] if match.round.done and not match.done else [])

    def act(self, seat: int, action: Any) -> None:
        """Play ``action`` (public form; a JSON list for a tuple) for the person at ``seat``; a seat that is no
        person's, a move out of turn or an illegal action raises ``CardsimError`` and changes nothing."""
        self._check_person(seat)
        mover = self.mover
        if mover != seat:
            waiting = "the round is over" if mover is None else f"it is seat {mover}'s turn"
            raise CardsimError(f"not your turn: {waiting}")
        if seat in self.away:
            raise CardsimError(f"seat {seat} is away: a bot plays it until its person is back")
        action = tuple(action) if isinstance(action, list) else action
        action = next((option for option in self.round.legal() if same(self.game.deck, option, action)), action)
        before = self.round.copy()
        self.round.play(action)
        self.decisions.append(Decision(self.game_no, self.round_no, seat, before.decision, action, before))
        self._moved()

    def play_bot(self) -> None:
        """The bot to act decides and its action is applied, in this process."""
        bot_move(self.round, self.setup.lineup, self._check_bot(), self._rngs)
        self._moved()

    def bot_decision(self) -> tuple[Round, str, int]:
        """What a worker process needs to decide for the bot to act (``decide``): a copy of the round, the bot's
        name and its seat."""
        seat = self._check_bot()
        return self.round.copy(), self.setup.lineup.names[seat], seat

    def adopt(self, decided: Round) -> None:
        """Take the round a worker decided on (``decide``) as the current one: the same round, one decision on."""
        if (decided.seed, decided.unit, decided.sub) != (self.round.seed, self.round.unit, self.round.sub):
            raise CardsimError("a worker's round is not this table's current round")
        self.match.round = decided
        self._moved()

    def next_round(self, seat: int) -> bool:
        """The person at ``seat`` is done with the finished round; once every present person is, the next round is
        dealt (or the next game begun). Returns whether it was."""
        self._check_person(seat)
        if self.phase != "round over":
            raise CardsimError("the round is not over" if self.phase == "turn" else "the session is over")
        self.ready.add(seat)
        if not set(self.humans) - self.away <= self.ready:
            return False
        self.ready.clear()
        self._rngs.clear()
        self.version += 1
        self._scores.append(self.round.scores)
        if self.match.next_round() is None and len(self.matches) < self.setup.games:
            self.matches.append(Match(self.game, self.rules, self.setup.seed, len(self.matches)))
            self._scores = []
        return True

    def _moved(self) -> None:
        """After every move: a new version; the session's last round, once finished, ends it (no one is asked to
        go on)."""
        self.version += 1
        last = len(self.matches) == self.setup.games and self.round.done
        if last and self.game.game_over(self.rules, np.array(self.totals, np.int64), len(self.match.rounds) + 1):
            self._scores.append(self.round.scores)
            self.match.next_round()

    def _check_person(self, seat: Any) -> None:
        if seat not in self.humans:
            raise CardsimError(f"seat {seat!r} is no person's: people sit in seat{'s' * (len(self.humans) > 1)} "
                               f"{', '.join(map(str, self.humans))}")  # fmt: skip

    def _check_bot(self) -> int:
        if not self.bot_moves():
            raise CardsimError("no bot is to act now")
        return self.mover


def check_pace(delay: Any) -> float:
    """The seconds between two bots' moves at the table's page, 0 to ``MAX_PACE``, or the error."""
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= MAX_PACE:
        raise CardsimError(f"the pace is the seconds between two bots' moves, 0 to {MAX_PACE:g}, not {delay!r}")
    return float(delay)


def same(deck: Deck, option: Any, action: Any) -> bool:
    """Whether ``action`` names the legal ``option``: itself, or a card or suit written otherwise (``sa``, ``S10``,
    ``♠``), as ``Round.play`` reads it."""
    if type(option) is type(action) and option == action:  # True is no 1, 1.0 no 1
        return True
    if isinstance(option, tuple) and isinstance(action, tuple) and len(option) == len(action):
        return all(same(deck, o, a) for o, a in zip(option, action, strict=True))  # a bid: (11, "h")
    if not (isinstance(option, str) and isinstance(action, str)):
        return False
    text = SUIT_SYMBOLS.get(action.strip(), action.strip())
    try:
        return text.upper() == option or deck.parse(text) == deck.parse(option)
    except CardsimError:
        return False


def bot_move(round: Round, lineup: Lineup, seat: int, rngs: dict[int, random.Random]) -> None:
    """``lineup``'s bot at ``seat`` (the seat to move) decides and its action is applied to ``round``, through the
    plain-Python driver: a compiled bot drawing from its streams as in a run, a Python bot with its seat's view and
    generator (``rngs``)."""
    where = Seat(lineup.names[seat], seat, round.game.name, round.seed, round.unit, round.sub,
                 round.game_no is not None)  # fmt: skip
    play_decision(round.game, round.rules, round.state, lineup, where, rngs)
    round.refresh()


def decide(round: Round, bot: str, seat: int) -> Round:
    """``bot_move`` of the compiled bot ``bot`` in a worker process: the round after its decision, for
    ``Table.adopt``."""
    bot_move(round, round.game.lineup(bot, round.rules), seat, {})
    return round
