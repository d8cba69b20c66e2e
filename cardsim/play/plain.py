"""``cardsim play GAME --plain``: the table line by line on stdin and stdout, for scripts and screen readers.

Everything printed comes from the person's seat's view (``cardsim.play.view``): at each of its decisions the
round as it sees it and the numbered choices; between them, one line per move it sees (the cards played, the
tricks taken, the bids it may see). A choice is its number, or a card or bid by name (``SA``, ``10S``, ``pass``,
``11 H``; a number where the decision is a number); ``hint`` values the choices, ``quit`` or the end of the input
stops the session (the caller saves it). Once a round is over: its scores and, with the review, each decision
valued.
"""

from __future__ import annotations

from typing import Any, TextIO

from cardsim.cards import SUIT_SYMBOLS
from cardsim.errors import CardsimError
from cardsim.play import review as reviews
from cardsim.play.table import Table
from cardsim.play.view import card_label, view

HELP = "type a choice's number, or a card or bid by name; 'hint' (or h) values the choices, 'quit' stops and saves"


class Plain:
    """The person at ``table.humans[0]`` playing through ``stdin`` and ``stdout``."""

    def __init__(self, table: Table, stdin: TextIO, stdout: TextIO, review: bool = True,
                 samples: int = reviews.HINT_SAMPLES) -> None:  # fmt: skip
        self.table, self.stdin, self.stdout = table, stdin, stdout
        self.seat, self.deck = table.humans[0], table.game.deck
        self.review, self.samples = review, samples
        self.verdicts: list[dict[str, Any]] = []  # the review of every decision so far

    def say(self, text: str, end: str = "\n") -> None:
        self.stdout.write(text + end)
        self.stdout.flush()

    def play(self) -> None:
        """Play until the session is over, the input ends or ``quit``."""
        table = self.table
        seen = view(table, self.seat)
        self.say(header(seen))
        while table.phase != "over":
            if table.phase == "round over":
                self.review_round(seen["unit"])
                table.next_round(self.seat)
            elif table.bot_moves():
                table.play_bot()
            else:
                self.say(self.situation(seen, choices=True))
                if not self.decide(seen["options"]):
                    return
            now = view(table, self.seat)
            for line in self.changes(seen, now):
                self.say(line)
            seen = now
        self.review_round(seen["unit"])  # the last round's
        self.say(f"the session is over: totals {' '.join(map(str, seen['totals']))}")
        if self.verdicts:
            self.say("review of the session: " + reviews.summary(self.verdicts, seen["unit"]))

    def decide(self, options: list[dict[str, Any]]) -> bool:
        """Read lines until one is a legal choice and play it; False at the end of the input or on ``quit``."""
        while True:
            self.say("> ", end="")
            line = self.stdin.readline()
            text = line.strip().lower()
            if not line or text in ("quit", "q", "exit"):
                return False
            if text in ("hint", "h", "?"):
                for row in hint_lines(reviews.hint(self.table.round, self.seat, self.samples),
                                      self.table.game.lower_is_better):  # fmt: skip
                    self.say(row)
            elif text in ("help", ""):
                self.say(HELP)
            else:
                try:
                    self.table.act(self.seat, choose(options, line))
                    return True
                except CardsimError as exc:
                    self.say(f"not allowed: {exc}")

    def review_round(self, unit: str) -> None:
        """The review of the round just over: each of the person's decisions valued, then the summary."""
        if not self.review:
            return
        done = [reviews.verdict(d, self.samples) for d in self.table.decisions[len(self.verdicts):]]
        self.verdicts += done
        for v in done:
            if v["options"]:
                self.say(f"  {v['decision']}: you chose {v['choice']}, best {v['best']}, expected cost "
                         f"{v['cost']:.1f}")  # fmt: skip
        self.say("review of the round: " + reviews.summary(done, unit))

    def situation(self, v: dict[str, Any], choices: bool = False) -> str:
        """The round as the seat sees it; with ``choices``, its decision and the numbered choices."""
        lines = [f"-- game {v['game_no'] + 1}, round {v['round_no'] + 1}; totals {' '.join(map(str, v['totals']))}"]
        lines += [f"{name}: {self.shown(value)}" for name, value in v["seen"].items() if name != "tricks"]
        if v["trick"]:
            lines.append("on the table: " + ", ".join(f"seat {t['seat']} {t['label']}" for t in v["trick"]))
        lines.append("your hand: " + " ".join(card["label"] for card in v["hand"]))
        if choices:
            options = v["options"]
            if len(options) > 12 and all(isinstance(o["action"], int) for o in options):
                lines.append(f"{v['prompt']}: a number from {options[0]['action']} to {options[-1]['action']}")
            else:
                lines.append(f"{v['prompt']}: " + "  ".join(f"{k}) {o['label']}" for k, o in enumerate(options, 1)))
        return "\n".join(lines)

    def shown(self, value: Any) -> str:
        """An observation's value as text: cards by their labels, None as ``-``, a seat's entry (a bid) as
        ``seat S: values``."""
        if value is None:
            return "-"
        if isinstance(value, dict):
            rest = " ".join(self.shown(v) for k, v in value.items() if k != "seat")
            return f"seat {value['seat']}: {rest}" if "seat" in value else rest
        if isinstance(value, list):
            joint = ", " if any(isinstance(v, dict) for v in value) else " "
            return joint.join(self.shown(v) for v in value)
        return card_label(self.deck, value) if value in self.deck.card_names else str(value)

    def changes(self, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
        """What the seat saw happen between two of its views: cards played, tricks taken, bids, a new round."""
        if (old["game_no"], old["round_no"]) != (new["game_no"], new["round_no"]):
            return [self.situation(new).splitlines()[0]]
        lines, on_table = [], len(old["trick"])
        for trick in new["seen"].get("tricks", [])[len(old["seen"].get("tricks", [])):]:  # completed: the rest
            seats = [(trick["leader"] + i) % len(new["names"]) for i in range(len(trick["cards"]))]
            played = list(zip(seats, trick["cards"], strict=True))[on_table:]
            lines += [f"seat {s} plays {self.shown(c)}" for s, c in played]
            points = f" ({trick['points']} points)" if "points" in trick else ""
            lines.append(f"seat {trick['winner']} takes the trick{points}")
            on_table = 0
        lines += [f"seat {t['seat']} plays {t['label']}" for t in new["trick"][on_table:]]
        lines += [f"{name}: {self.shown(value)}" for name, value in new["seen"].items()
                  if name != "tricks" and old["seen"].get(name) != value]  # fmt: skip
        if new["phase"] != "turn" and old["phase"] == "turn":
            scores = " ".join(map(str, new["scores"][-1])) if new["scores"] else "-"
            lines.append(f"round over: scores {scores}; totals {' '.join(map(str, new['totals']))}")
        return lines


def choose(options: list[dict[str, Any]], text: str) -> Any:
    """The action a typed line names: an option by its label, a word of it or its action, by its number (a
    decision that is a number takes the number itself), or else the text itself, for ``Table.act`` to read or
    refuse."""
    wanted = _norm(text)
    for option in options:
        words = [w for w in option["label"].split() if w.isalpha()]
        if wanted in {_norm(option["label"]), _norm(str(option["action"])), *map(_norm, words)}:
            return option["action"]
    if text.strip().isdigit():
        number = int(text)
        if options and all(isinstance(o["action"], int) for o in options):
            return number
        if 1 <= number <= len(options):
            return options[number - 1]["action"]
        raise CardsimError(f"there is no choice {number}: choose 1 to {len(options)}")
    return text.strip()


def _norm(text: str) -> str:
    """A label or typed choice compared without spaces, case or suit symbols: ``10 ♠`` is ``10S``."""
    for symbol, letter in SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    return "".join(text.split()).upper()


def header(v: dict[str, Any]) -> str:
    seats = ", ".join(f"seat {s} {'(you)' if s == v['you'] else name}" for s, name in enumerate(v["names"]))
    return f"{v['title']}: {seats}. {HELP}"


def hint_lines(hint: dict[str, Any], lower_is_better: bool) -> list[str]:
    """A hint as a table: each choice's expected score with its 95% CI, the best marked."""
    better = "lower" if lower_is_better else "higher"
    rows = [f"{'*' if o['label'] == hint['best'] else ' '} {o['label']:>8}  {o['mean']:8.2f} ± {o['ci95']:.2f}"
            for o in hint["options"]]  # fmt: skip
    return [f"expected score of each choice ({better} is better, 95% CI):", *rows]
