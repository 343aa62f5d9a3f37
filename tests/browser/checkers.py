"""The two page checkers: axe-core (accessibility) and the Nu HTML checker (valid HTML), both from
the npm packages in package.json (`make test` installs them into node_modules/ when npm is there).

Without them, or without Java for the Nu checker, the tests that need them skip with a message;
under CI=true they fail instead, so CI always runs both.

The pages they look at are the demo campaigns (`manage.py demo`): the same data a new user sees,
with a roll made from each system's sheet so the roll dialog and its result are checked too."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from rolls.models import Webhook, WebhookDelivery, WebhookFormat
from sheets import portraits
from sheets.models import Campaign, Character, Invite, Role
from tests.portrait_files import picture, upload_file

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
DEMO_PASSWORD = "poolside"

# htmx's attributes are not HTML's; everything else the Nu checker reports is an error of ours.
HTMX_ATTRIBUTE = re.compile(r"^Attribute “(hx|sse)-[a-z-]+” not allowed on element")


def _missing(what: str) -> None:
    message = f"{what} Install the checkers with `make test` (npm ci), or `npm ci` by hand."
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} They are mandatory under CI=true.")
    pytest.skip(f"{message} Skipped.")


def axe_source() -> str:
    if not AXE.is_file():
        _missing("axe-core is not installed (node_modules/axe-core).")
    return AXE.read_text()


def vnu_command() -> list[str]:
    if not VNU.is_file():
        _missing("The Nu HTML checker is not installed (node_modules/vnu-jar).")
    java = shutil.which("java")
    if java is None:
        _missing(
            "The Nu HTML checker needs Java (Debian: apt-get install -y default-jre-headless)."
        )
    return [java, "-jar", str(VNU), "--errors-only", "--format", "json"]


@dataclass(frozen=True)
class PageState:
    """A page as a user sees it: who is logged in, where, and what they did there."""

    name: str
    user: str | None
    path: str
    act: Callable | None = None


def _roll_from_a_row(page) -> None:
    """Open the roll dialog from a row halfway down the sheet and roll: the sheet, the dialog and
    the result card are all on the page afterwards."""
    rolls = page.locator("a.roll-button:visible")  # not the rows folded under "Show all"
    rolls.nth(rolls.count() // 2).click()
    roll = page.locator("#roll-dialog[open] .roll-actions button").first
    roll.wait_for()
    roll.click()
    page.locator("#roll-dialog[open] #roll-result .entry").wait_for()
    # The dice tumble in and the headline fades in: check the result as it settles, not midway
    # through its fade (axe would measure a half-transparent headline's contrast).
    # (evaluate, not wait_for_function: the latter evals its predicate, which the CSP forbids.)
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished))")


def _open_every_fold(page) -> None:
    """Open every <details> (the GM's call and contest forms, the log's filters) so the checkers
    see what is folded away too."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def demo_states() -> list[PageState]:
    """Load the demo campaigns and list the page states to check (sheet, roll dialog, log, GM
    table and statistics of each system, and the pages around them)."""
    call_command("demo", verbosity=0)
    portrait_page = _portrait_page()
    states = [
        PageState("landing", None, "/"),
        PageState("login", None, "/accounts/login/"),
        PageState("home", "alice", "/"),
        PageState("account", "alice", "/account/"),
    ]
    for campaign in Campaign.objects.order_by("pk"):
        system, pk = campaign.system, campaign.pk
        sheet = campaign.characters.get(owner__username="alice").get_absolute_url()
        states += [
            PageState(f"{system}-sheet-rolled", "alice", sheet, _roll_from_a_row),
            PageState(f"{system}-campaign", "alice", f"/campaigns/{pk}/"),
            PageState(f"{system}-gm-table", "gm", f"/campaigns/{pk}/dashboard/", _open_every_fold),
            PageState(f"{system}-log", "gm", f"/campaigns/{pk}/log/", _open_every_fold),
            PageState(f"{system}-player-log", "alice", f"/campaigns/{pk}/log/"),
            PageState(f"{system}-stats", "gm", f"/campaigns/{pk}/stats/"),
        ]
    first = Campaign.objects.order_by("pk").first()
    assert first is not None
    invite = Invite.objects.create(
        campaign=first, created_by=first.memberships.get(role=Role.GM).user
    )
    states.append(PageState("invite", None, invite.get_absolute_url()))
    states.append(PageState("gm-campaign", "gm", first.get_absolute_url()))
    states.append(PageState("webhooks", "gm", _webhooks_page()))
    states.append(PageState("portrait", "alice", portrait_page))
    states.append(PageState("gm-table-finished", "gm", _finished_table(), _open_every_fold))
    return states


def _finished_table() -> str:
    """The first demo campaign's GM table with a decided contest and a closed, answered call (the
    demo has neither): a finished card's links must stay readable on it. Made through the pages'
    own URLs, as the GM and the players would."""
    campaign = Campaign.objects.order_by("pk").first()
    assert campaign is not None
    gm = campaign.memberships.get(role=Role.GM).user
    first, second = campaign.characters.filter(is_npc=False).order_by("pk")[:2]
    client = Client()
    client.force_login(gm)
    dashboard = reverse("campaign_dashboard", args=[campaign.pk])
    client.post(
        reverse("call_create", args=[campaign.pk]),
        {"call-characters": [first.pk], "call-skill": "Athletics", "call-difficulty": 2},
    )
    call = campaign.roll_calls.latest("pk")
    athletics = first.cogent.skills.get(name="Athletics")
    client.force_login(first.owner)
    data = {"challenge_level": 2, "extra_penalty": 0, "call": call.pk}
    client.post(reverse("roll_create", args=[first.pk, "cogent-skill", athletics.pk]), data)
    client.force_login(gm)
    client.post(reverse("call_close", args=[call.pk]))
    client.post(
        reverse("contest_create", args=[campaign.pk]),
        {
            "contest-kind": "cogent_conflict",
            "contest-character_a": first.pk,
            "contest-skill_a": "Athletics",
            "contest-character_b": second.pk,
            "contest-skill_b": "Athletics",
        },
    )
    contest = campaign.contests.latest("pk")
    for _round in range(50):  # a tie starts another round; one of 50 decides it
        for character, side in ((first, "a"), (second, "b")):
            client.force_login(character.owner)
            client.post(reverse("contest_side", args=[contest.pk, side, "roll"]))
        contest.refresh_from_db()
        if contest.state == "decided":
            break
    call.refresh_from_db()
    assert contest.state == "decided" and not call.is_open
    return dashboard


def _portrait_page() -> str:
    """Alice's first character with a portrait (the demo has none), so its sheet, the GM table
    and the logs are checked with one; the page that changes it."""
    character = Character.objects.filter(owner__username="alice").order_by("pk").first()
    assert character is not None
    portraits.store(character, portraits.process(upload_file("portrait.png", picture())))
    return f"/characters/{character.pk}/portrait/"


def _webhooks_page() -> str:
    """The GM's webhooks page of the first demo campaign, with an active webhook whose delivery
    failed and one paused (the demo has none: nothing is ever sent from these tests)."""
    campaign = Campaign.objects.order_by("pk").first()
    assert campaign is not None
    failing = Webhook(campaign=campaign, url="https://hooks.example/poolside", format="json")
    failing.add()
    WebhookDelivery.objects.create(
        webhook=failing,
        status="failed",
        attempts=1,
        last_status_code=500,
        last_error="The receiver answered 500 Internal Server Error.",
    )
    paused = Webhook(campaign=campaign, url="https://hooks.example/x", format=WebhookFormat.DISCORD)
    paused.add()
    paused.pause("Paused by the GM.")
    return f"/campaigns/{campaign.pk}/webhooks/"


def visit(browser, live_server, states: list[PageState], **context_options) -> Iterator:
    """Yield (state, page) for each state, logged in as its user (one browser context per user).
    The event stream is answered with 501 as in conftest.py's `page` fixture: live updates are
    not what these checks are about."""
    contexts: dict[str | None, object] = {}
    try:
        for state in states:
            if state.user not in contexts:
                context = browser.new_context(base_url=live_server.url, **context_options)
                context.set_default_timeout(10_000)
                context.route(
                    "**/campaigns/*/events/**",
                    lambda route: route.fulfill(status=501, body="Live updates need ASGI."),
                )
                if state.user:
                    login = context.new_page()
                    login.goto("/accounts/login/")
                    login.fill("#id_username", state.user)
                    login.fill("#id_password", DEMO_PASSWORD)
                    login.click("main form button[type=submit]")
                    login.wait_for_url(lambda url: "/accounts/login/" not in url)
                    login.close()
                contexts[state.user] = context
            page = contexts[state.user].new_page()
            page.goto(state.path)
            if state.act:
                state.act(page)
            yield state, page
            page.close()
    finally:
        for context in contexts.values():
            context.close()


def axe_violations(page, source: str, impacts: tuple[str, ...]) -> list[str]:
    """Run axe-core in the page and describe each violation of the given impacts. The script is
    evaluated through the DevTools protocol, which the page's CSP does not govern."""
    page.evaluate(source)
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} — "
        + "; ".join(node["target"][0] if node["target"] else "?" for node in violation["nodes"][:5])
        for violation in found
        if violation["impact"] in impacts
    ]


def html_errors(documents: dict[str, str], workdir: Path) -> list[str]:
    """Validate each named document with the Nu HTML checker in one run; htmx's attributes aside,
    return every error as 'name:line: message'."""
    command = vnu_command()
    paths = []
    for name, html in documents.items():
        path = workdir / f"{name}.html"
        path.write_text(html)
        paths.append(str(path))
    done = subprocess.run([*command, *paths], capture_output=True, text=True, timeout=300)
    report = json.loads(done.stderr or done.stdout or '{"messages": []}')
    errors = []
    for message in report["messages"]:
        if message.get("type") != "error" or HTMX_ATTRIBUTE.match(message.get("message", "")):
            continue
        name = Path(message.get("url", "?")).stem
        errors.append(f"{name}:{message.get('lastLine', '?')}: {message['message']}")
    return errors
