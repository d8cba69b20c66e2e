"""The real page in a real browser (issue 43, item 7): ``cardsim play`` serves it, a headless Chromium (Debian's
``chromium`` and ``chromium-driver``, through Selenium) opens the printed link and plays whole rounds the way a
person does: it types a prediction or clicks a bid button, clicks the cards, tries a card it may not play and reads
why not, asks for a hint, reads the review and clicks on to the next round. ``CI=true`` makes a missing browser,
driver or package a failure, not a skip."""

from __future__ import annotations

import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import require

require("selenium", "starlette", "uvicorn", "/usr/bin/chromium", "/usr/bin/chromedriver")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from cardsim.games import GAMES  # noqa: E402
from cardsim.runner import load_rows  # noqa: E402

pytestmark = pytest.mark.xdist_group("browser")  # one browser at a time
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")  # fmt: skip
WAIT = 60  # seconds a step may take at most (a cold worker loads its kernels)


def chromium(profile: Path) -> WebDriver:
    """A headless Chromium with a fresh profile, driven through Debian's chromedriver."""
    options = webdriver.ChromeOptions()
    for flag in (*FLAGS, f"--user-data-dir={profile}", "--window-size=1280,1000"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def serve(game: str, folder: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """``cardsim play`` in a process of its own; returns it and the first seat's link."""
    process = subprocess.Popen([sys.executable, "-m", "cardsim.cli", "play", game, "--no-browser", "--bots", "random",
                                "--pace", "0.05", "--samples", "100", "--save", str(folder), *options],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    while not (found := re.search(r"(http://\S+)", process.stdout.readline() or "end")):
        assert process.poll() is None, process.stderr.read()
    return process, found.group(1)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    driver = chromium(tmp_path / "profile")
    try:
        yield driver
    finally:
        driver.quit()


def views(driver: WebDriver) -> int:
    return driver.execute_script("return window.cardsimViews || 0")


def after(driver: WebDriver, click) -> None:
    """Click (``click()``) and wait until the page drew the table again."""
    seen = views(driver)
    click()
    WebDriverWait(driver, WAIT).until(lambda d: views(d) > seen)


def play_rounds(driver: WebDriver, rounds: int, rng: random.Random) -> dict[str, int]:
    """Play ``rounds`` rounds as a person would; returns what was done."""
    done = {"rounds": 0, "illegal": 0, "hints": 0, "cards": 0, "bids": 0}
    status = driver.find_element(By.ID, "status")
    while done["rounds"] < rounds:
        WebDriverWait(driver, WAIT).until(lambda d: status.get_attribute("data-phase") != "turn"
                                          or d.find_elements(By.CSS_SELECTOR, "#decision p"))  # fmt: skip
        if status.get_attribute("data-phase") != "turn":
            WebDriverWait(driver, WAIT).until(lambda d: re.search("cost you|no decisions",
                                                                  d.find_element(By.ID, "review").text))
            assert driver.find_element(By.ID, "scores").text
            if done["rounds"] + 1 < rounds:
                after(driver, driver.find_element(By.ID, "next").click)
            done["rounds"] += 1
            continue
        if not done["hints"]:
            driver.find_element(By.ID, "hint").click()
            WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-box table tr"))
            done["hints"] += 1
        legal = driver.find_elements(By.CSS_SELECTOR, "#hand .slot.legal")
        blocked = driver.find_elements(By.CSS_SELECTOR, "#hand.choosing .slot:not(.legal)")
        if blocked and not done["illegal"]:
            blocked[0].click()
            assert "cannot be played now" in driver.find_element(By.ID, "message").text
            done["illegal"] += 1
        number = driver.find_elements(By.ID, "number")
        buttons = driver.find_elements(By.CSS_SELECTOR, "#decision button.option")
        if number:
            number[0].clear()
            number[0].send_keys(str(rng.randrange(20, 60)))
            after(driver, driver.find_element(By.ID, "choose").click)
            done["bids"] += 1
        elif buttons:
            after(driver, rng.choice(buttons).click)
            done["bids"] += 1
        else:
            after(driver, rng.choice(legal).click)
            done["cards"] += 1
    return done


@pytest.mark.parametrize("game, rounds", [(list(GAMES)[0], 1), (list(GAMES)[1], 2)])
def test_a_person_plays_whole_rounds_in_the_browser(game, rounds, browser, tmp_path):
    folder = tmp_path / "saved"
    process, link = serve(game, folder, "--seed", "7")
    try:
        browser.get(link)
        done = play_rounds(browser, rounds, random.Random(1))
        assert browser.find_element(By.ID, "title").text  # the game's title
        assert not [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    finally:
        time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert done["rounds"] == rounds and done["hints"] == 1 and done["cards"] and done["bids"]
    rows = load_rows(folder)
    assert len(set(rows["round"])) == rounds and "human" in set(rows["bot"])
