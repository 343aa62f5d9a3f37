"""Screenshots of Poolside's main pages at a phone and a laptop size: `make screenshots`.

Builds a throwaway SQLite database with the demo campaigns (`manage.py demo`), serves it with
uvicorn on a free port, and drives Debian's Chromium through Playwright (never a downloaded
browser). The PNGs land next to this file, named `<page>-<phone|laptop>[-dark].png`; the README
and docs/ show some of them. Dark mode is optional (`--dark`) so the committed set stays small.

    .venv/bin/python docs/screenshots/shoot.py [--dark] [--only sheet-cogent,log] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
PASSWORD = "poolside"
SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


@dataclass(frozen=True)
class Shot:
    name: str
    user: str | None  # None: logged out
    path: (
        str  # may name the campaign ids {cogent}, {dad6}, {cold_stars} and alice's {alice_<system>}
    )
    act: Callable | None = None  # runs on the page before the picture
    full_page: bool = False


def _roll_from_a_row(page) -> None:
    """Open the roll dialog from a row halfway down the sheet, roll, and wait for the result."""
    rolls = page.locator("a.roll-button:visible")  # not the ones folded under "Show all"
    rolls.nth(rolls.count() // 2).click()
    roll = page.locator("#roll-dialog[open] .roll-actions button").first
    roll.wait_for()
    roll.click()
    page.locator("#roll-dialog[open] #roll-result .entry").wait_for()
    page.wait_for_timeout(900)  # let the dice settle (the animation is under a second)


def _build(page, values: dict[str, str], wait_for: str) -> None:
    """Fill part of a new character's steps and wait for the budget to follow."""
    for name, value in values.items():
        field = page.locator(f"[name='{name}']")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.locator("#creation-budget", has_text=wait_for).wait_for()
    page.locator(f"[name='{list(values)[-1]}']").scroll_into_view_if_needed()


def _build_cogent(page) -> None:
    values = {"name": "Rob", "strength": "1", "intelligence": "1", "skill-1": "2", "skill-5": "3"}
    _build(page, values, "Skill points: 10 of 15 left")


def _build_dad6(page) -> None:
    values = {"name": "Nim", "class_name": "Thief", "level": "2", "class-0": "Climb"}
    _build(page, values, "Class skills: 1")


def _build_stars(page) -> None:
    _build(page, {"name": "Vex", "agility": "3", "skill-piloting": "3"}, "needs a domain")


def _refused_cogent(page) -> None:
    """A player's build over budget, sent with Create: refused, the messages beside the fields."""
    values = {
        "name": "Greedy",
        "strength": "2",
        "reflex": "1",
        "skill-0": "-1",
        "skill-1": "-1",
        "vocation-0-name": "Sellsword",
        "vocation-0-rating": "2",
        "vocation-0-sub-0-kind": "combat:Small",
        "vocation-0-sub-0-rating": "3",
    }
    _build(page, values, "1 over")
    page.get_by_role("button", name="Create character").click()
    page.locator(".form-errors").wait_for()
    page.locator("#id_strength").scroll_into_view_if_needed()


def _scroll_to_skills(page) -> None:
    """The sheet at its skills: the Roll buttons with their odds."""
    page.locator("table.skills").first.evaluate(
        "table => table.closest('section').scrollIntoView()"
    )


def _quick_roll(page) -> None:
    """Roll an NPC's first key row from its card on the GM table, and show that card."""
    card = page.locator(".table-character.is-npc").first
    card.locator(".key-list button").first.click()
    card = page.locator(".table-character.is-npc").first
    card.locator(".quick-result").wait_for()
    card.scroll_into_view_if_needed()
    page.wait_for_timeout(900)  # let the dice settle


def _play_a_session(page) -> None:
    """On the GM table: start a session, mark its first scene, roll an NPC; back to the bar. (Each
    size and colour scheme plays one: the one before is ended first.)"""
    if page.locator("#session-bar.is-open").count():
        page.locator("#session-bar button.secondary").click()
        page.locator("#session-bar .status", has_text="has ended").wait_for()
    page.get_by_label("Session title").fill("The docks job")
    page.get_by_role("button", name="Start a session").click()
    page.get_by_label("Scene title").fill("Harrow's warehouse")
    page.get_by_role("button", name="Mark a new scene").click()
    page.locator("#session-bar .status", has_text="has begun").wait_for()
    _quick_roll(page)
    page.locator("#session-bar").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")


def _end_the_session(page) -> None:
    """On the GM table: end the session going on (starting one first if none is): the bar then
    offers its recap."""
    if not page.locator("#session-bar.is-open").count():
        page.get_by_role("button", name="Start a session").click()
        page.locator("#session-bar .status", has_text="has started").wait_for()
    page.locator("#session-bar button.secondary").click()
    page.locator("#session-bar .status", has_text="has ended").wait_for()


def _say_things(page) -> None:
    """From the log's composer: a line in character, then one to the GM alone (each size and
    colour scheme says them again: two messages, well within MESSAGE_RATE)."""
    composer = page.locator("#composer")
    for text, speaker, audience in (
        ("We go in through the *skylight*. Quietly.", 1, "Everyone"),
        ("Can Rob pick that lock without a sound?", 0, "GM only"),
    ):
        composer.get_by_role("textbox", name="Message").fill(text)
        composer.get_by_label("Speak as").select_option(index=speaker)
        composer.get_by_label("Who reads it").select_option(label=audience)
        composer.get_by_role("button", name="Send").click()
        page.wait_for_function("() => document.getElementById('message_text').value === ''")
        page.locator("#log-entries .entry-message", has_text=text.split("*")[0]).first.wait_for()
    page.evaluate("window.scrollTo(0, 0)")


def _correct_a_message(page) -> None:
    """Say something with a slip, open it, correct it: the correction beside what it replaced."""
    _say_things(page)
    page.locator("#log-entries .entry-message .permalink").nth(1).click()
    page.get_by_role("textbox", name="Corrected message").fill(
        "We go in through the *skylight*. Quietly, and Rob goes first."
    )
    page.get_by_role("button", name="Post the correction").click()
    page.locator(".message-before summary").click()


def _create_token(page) -> None:
    """Make a token on the account page: it shows once, above the list."""
    page.get_by_label("Name").fill("Discord bot")
    page.get_by_label("Read and roll").check()
    page.get_by_role("button", name="Create token").click()
    page.locator(".token-created").wait_for()


def _add_webhooks(page) -> None:
    """Two webhooks on the GM's page, one with a test message waiting to go out."""
    for url, kind in (
        ("http://127.0.0.1:9/discord-like", "Discord"),
        ("http://127.0.0.1:9/our-bot", "JSON, signed"),
    ):
        page.get_by_label("URL").fill(url)
        page.get_by_role("radio", name=kind).check()
        page.get_by_role("button", name="Add webhook").click()
        page.wait_for_load_state("networkidle")
    page.get_by_role("button", name="Send a test").first.click()
    page.get_by_text("A test message is on its way").wait_for()


SHOTS = [
    Shot("landing", None, "/"),
    Shot("login", None, "/accounts/login/"),
    Shot("signup", None, "/accounts/signup/"),
    Shot("home", "alice", "/"),
    Shot("sheet-cogent", "alice", "/characters/{alice_cogent}/"),
    Shot("sheet-dad6", "alice", "/characters/{alice_dad6}/"),
    Shot("sheet-cold-stars", "alice", "/characters/{alice_cold_stars}/"),
    # The whole sheet in read mode, and one section of each in edit mode.
    Shot("sheet-cogent-whole", "alice", "/characters/{alice_cogent}/", full_page=True),
    Shot("sheet-dad6-whole", "alice", "/characters/{alice_dad6}/", full_page=True),
    Shot("sheet-cold-stars-whole", "alice", "/characters/{alice_cold_stars}/", full_page=True),
    Shot("sheet-cogent-edit", "alice", "/characters/{alice_cogent}/?edit=vocations#vocations"),
    Shot("sheet-dad6-edit", "alice", "/characters/{alice_dad6}/?edit=skills#skills"),
    Shot("sheet-cold-stars-edit", "alice", "/characters/{alice_cold_stars}/?edit=skills#skills"),
    Shot("sheet-cold-stars-figures", "alice", "/characters/{alice_cold_stars}/?edit=abilities"),
    Shot("roll-cogent", "alice", "/characters/{alice_cogent}/", act=_roll_from_a_row),
    Shot("roll-dad6", "alice", "/characters/{alice_dad6}/", act=_roll_from_a_row),
    Shot("roll-cold-stars", "alice", "/characters/{alice_cold_stars}/", act=_roll_from_a_row),
    Shot("campaign", "alice", "/campaigns/{cogent}/"),
    Shot("gm-table", "gm", "/campaigns/{cold_stars}/dashboard/"),
    Shot("gm-table-rolled", "gm", "/campaigns/{cold_stars}/dashboard/", act=_quick_roll),
    Shot("gm-table-cogent", "gm", "/campaigns/{cogent}/dashboard/"),
    Shot("gm-table-session", "gm", "/campaigns/{cogent}/dashboard/", act=_play_a_session),
    Shot("log", "gm", "/campaigns/{cogent}/log/"),
    Shot("log-messages", "alice", "/campaigns/{cogent}/log/", act=_say_things),
    Shot("message-correction", "alice", "/campaigns/{cogent}/log/", act=_correct_a_message),
    Shot("gm-table-ended", "gm", "/campaigns/{cogent}/dashboard/", act=_end_the_session),
    Shot("stats", "gm", "/campaigns/{cold_stars}/stats/"),
    Shot("not-found", "alice", "/campaigns/999999/"),
    Shot("account", "alice", "/account/", act=_create_token),
    Shot("api-docs", None, "/api/v1/docs"),
    Shot("keys", None, "/keys/"),
    Shot("webhooks", "gm", "/campaigns/{cogent}/webhooks/", act=_add_webhooks),
    Shot("create-cogent", "alice", "/campaigns/{cogent}/characters/new/", act=_build_cogent),
    Shot(
        "create-cogent-refused",
        "alice",
        "/campaigns/{cogent}/characters/new/",
        act=_refused_cogent,
        full_page=True,
    ),
    Shot("create-dad6", "alice", "/campaigns/{dad6}/characters/new/", act=_build_dad6),
    Shot("create-cold-stars", "alice", "/campaigns/{cold_stars}/characters/new/", act=_build_stars),
    # The landing page's pictures (static/img/landing-*.png) are the phone PNGs of these two:
    #   shoot.py --only landing-sheet,roll-cogent --dark --out /tmp/shots, then copy
    #   landing-sheet-phone[-dark].png and roll-cogent-phone[-dark].png to
    #   static/img/landing-sheet[-dark].png and static/img/landing-roll[-dark].png.
    Shot("landing-sheet", "alice", "/characters/{alice_cogent}/", act=_scroll_to_skills),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    return done.stdout


IDS_SCRIPT = """
import json
from sheets.models import Campaign
ids = {}
for campaign in Campaign.objects.all():
    ids[campaign.system] = campaign.pk
    ids["alice_" + campaign.system] = campaign.characters.get(owner__username="alice").pk
print(json.dumps(ids))
"""


def _serve(env: dict[str, str], port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("uvicorn")),
            "config.asgi:application",
            "--host=127.0.0.1",
            f"--port={port}",
            "--no-proxy-headers",
            "--log-level=warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(600):  # a minute: a loaded machine starts Django slowly
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("uvicorn did not start")


def _log_in(context, base: str, user: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}/")
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dark", action="store_true", help="also take each picture in dark mode")
    parser.add_argument("--only", default="", help="comma-separated page names")
    parser.add_argument("--out", default=str(HERE), help="where the PNGs go")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        env = _site_env(tmp)
        port = _free_port()
        _manage(env, "migrate", "--noinput")
        _manage(env, "createcachetable")
        _manage(env, "demo")
        _manage(env, "collectstatic", "--noinput", "--verbosity=0")
        ids = json.loads(_manage(env, "shell", "-c", IDS_SCRIPT).strip().splitlines()[-1])
        server = _serve(env, port)
        schemes = ["light", "dark"] if args.dark else ["light"]
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox"]
                )
                for size, viewport in SIZES.items():
                    for scheme in schemes:
                        shots = [shot for shot in SHOTS if not only or shot.name in only]
                        _shoot(
                            browser,
                            f"http://127.0.0.1:{port}",
                            ids,
                            shots,
                            out,
                            size=size,
                            viewport=viewport,
                            scheme=scheme,
                        )
                browser.close()
        finally:
            server.terminate()
            server.wait()


def _site_env(tmp: str) -> dict[str, str]:
    """The demo site's environment, on a new SQLite database in ``tmp``."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3",
        # Its own static root: a `staticfiles/` in the repository would be served to the
        # browser tests' live server (tests/conftest.py).
        "STATIC_ROOT": f"{tmp}/static",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "",
        # The landing page shows its one-click demo logins, as under `make run`.
        "DEMO_LOGINS": "1",
        # The webhooks page gets a webhook on this machine (nothing listens: no worker runs).
        "WEBHOOKS_ALLOW_PRIVATE": "1",
    }
    env.pop("DATABASE_POOL_SIZE", None)
    return env


def _shoot(browser, base, ids, shots, out, *, size, viewport, scheme):
    """Each shot at one size and colour scheme, one logged-in browser context per user."""
    width, height = viewport
    contexts: dict[str | None, object] = {}
    for shot in shots:
        if shot.user not in contexts:
            context = browser.new_context(
                viewport={"width": width, "height": height},
                color_scheme=scheme,
                device_scale_factor=1,
            )
            if shot.user:
                _log_in(context, base, shot.user)
            contexts[shot.user] = context
        page = contexts[shot.user].new_page()
        page.goto(base + shot.path.format(**ids))
        if shot.act:
            shot.act(page)
        suffix = "" if scheme == "light" else "-dark"
        target = out / f"{shot.name}-{size}{suffix}.png"
        page.screenshot(path=str(target), full_page=shot.full_page)
        page.close()
        print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
    for context in contexts.values():
        context.close()


if __name__ == "__main__":
    main()
