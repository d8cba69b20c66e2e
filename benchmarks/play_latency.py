"""The table's speed as a person meets it (issue 43): from a click on the page to the table drawn again, and a
hint's time; with ``--shots`` also the docs' screenshots of the table and of a review.

``cardsim play`` serves a game in a process of its own; a headless Chromium (Debian's ``chromium`` through its
``chromium-driver``, with Selenium) opens the link and plays ``--decisions`` decisions by clicking as a person
does. The page itself measures each click (``performance.now()`` at the click, again once the view the server sent
back is drawn: ``window.cardsimLatency``), so the figure is the whole loop: the browser, the socket, the server's
move and its view, the page's drawing. The bots play ``--pace`` seconds after that, as at a real table. The hint is
timed in this process, once its kernels are loaded: ``--samples`` deals for every option of the first decision of
round ``--hint-round`` (1-based; default the game's last ordinary round, e.g. 15 cards each in a game of 60 cards
for four).

    python benchmarks/play_latency.py --game wizard --decisions 40 --shots docs/img

prints one JSON line: ``clicks``, ``median_ms``, ``p90_ms``, ``max_ms``, ``hint_s`` (and where the screenshots went).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cardsim import new_round
from cardsim.games import GAMES, get_game
from cardsim.play.review import values

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")  # fmt: skip


def browser(profile: str) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    for flag in (*FLAGS, f"--user-data-dir={profile}", "--window-size=1280,1000"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def views(driver: webdriver.Chrome) -> int:
    return driver.execute_script("return window.cardsimViews || 0")


def click(driver: webdriver.Chrome, element) -> None:
    """Click and wait until the page drew the table again."""
    seen = views(driver)
    element.click()
    WebDriverWait(driver, 60).until(lambda d: views(d) > seen)


def play(driver: webdriver.Chrome, decisions: int, shots: Path | None) -> None:
    """Play ``decisions`` decisions; with ``shots``, a screenshot of the table (a hint shown, cards on the table)
    and of the first review of four decisions or more, one of them not the best."""
    rng, made, table_shot, review_shot = random.Random(3), 0, shots is None, shots is None
    status = driver.find_element(By.ID, "status")
    while made < decisions or not (table_shot and review_shot):
        WebDriverWait(driver, 60).until(lambda d: status.get_attribute("data-phase") != "turn"
                                        or d.find_elements(By.CSS_SELECTOR, "#decision p"))  # fmt: skip
        if status.get_attribute("data-phase") == "over":
            break
        if status.get_attribute("data-phase") == "round over":
            WebDriverWait(driver, 60).until(lambda d: re.search("cost you|no decisions",
                                                                d.find_element(By.ID, "review").text))
            valued = driver.find_elements(By.CSS_SELECTOR, "#review td.cost")
            if not review_shot and len(valued) >= 4 and any(float(cell.text) > 0 for cell in valued):
                driver.set_window_size(1280, 1480)  # the table and the review below it
                driver.save_screenshot(str(shots / "play_review.png"))
                driver.set_window_size(1280, 1000)
                review_shot = True
            click(driver, driver.find_element(By.ID, "next"))
            continue
        cards = driver.find_elements(By.CSS_SELECTOR, "#hand .slot.legal")
        on_table = driver.find_elements(By.CSS_SELECTOR, "#felt .played:not(.last)")
        if not table_shot and len(cards) > 3 and on_table:
            driver.find_element(By.ID, "hint").click()
            WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-box table tr"))
            driver.save_screenshot(str(shots / "play_table.png"))
            table_shot = True
        number = driver.find_elements(By.ID, "number")
        buttons = driver.find_elements(By.CSS_SELECTOR, "#decision button.option")
        if number:
            number[0].clear()
            number[0].send_keys(str(rng.randrange(30, 60)))
            click(driver, driver.find_element(By.ID, "choose"))
        else:
            click(driver, rng.choice(buttons or cards))
        made += 1


def hint_seconds(game: str, players: int | None, round_no: int | None, samples: int) -> float:
    """Seconds to value every option of the first decision of round ``round_no`` (1-based) of game 0, once the
    valuation's kernels are loaded."""
    front = get_game(game)
    rules = front.make_rules(None, players)
    r = new_round(front, seed=1, round=(round_no or front.max_rounds(rules)) - 1, game_no=0, players=players)
    values(r, r.to_move, samples=samples)  # load (or compile) the kernels
    began = time.perf_counter()
    values(r, r.to_move, samples=samples)
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=next(iter(GAMES)))
    parser.add_argument("--players", type=int)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--decisions", type=int, default=40, help="clicks timed (default 40)")
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between the bots' moves (default 0.3)")
    parser.add_argument("--samples", type=int, default=2000, help="deals behind the hint (default 2000)")
    parser.add_argument("--hint-round", type=int, help="the round whose first decision the hint values (1-based)")
    parser.add_argument("--shots", type=Path, help="save play_table.png and play_review.png in this folder")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="cardsim-play-latency-"))
    command = [sys.executable, "-m", "cardsim.cli", "play", args.game, "--no-browser", "--seed", "5", "--bots",
               args.bots, "--pace", str(args.pace), "--samples", "500", "--save", str(work / "saved")]  # fmt: skip
    if args.players:
        command += ["--players", str(args.players)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while not (found := re.search(r"(http://\S+)", server.stdout.readline() or "end")):
            if server.poll() is not None:
                sys.exit(server.stderr.read())
        driver = browser(str(work / "profile"))
        try:
            driver.get(found.group(1))
            play(driver, args.decisions, args.shots)
            clicks = driver.execute_script("return window.cardsimLatency || []")
        finally:
            driver.quit()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=60)
    quantiles = statistics.quantiles(clicks, n=10)
    print(json.dumps({"game": args.game, "clicks": len(clicks), "median_ms": round(statistics.median(clicks), 1),
                      "p90_ms": round(quantiles[-1], 1), "max_ms": round(max(clicks), 1),
                      "hint_s": round(hint_seconds(args.game, args.players, args.hint_round, args.samples), 3),
                      "hint_samples": args.samples, "shots": str(args.shots) if args.shots else None}))  # fmt: skip


if __name__ == "__main__":
    main()
