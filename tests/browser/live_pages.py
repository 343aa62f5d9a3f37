"""Live pages in the browser tests: open one and wait for its stream, roll from a sheet, wait
until a condition holds in a page."""

import json

from playwright.sync_api import expect


def live(page, path):
    """Open a live page and wait until its stream is connected."""
    page.goto(path)
    expect(page.locator("[data-live-status]")).to_have_text(
        "Live: new rolls appear as they happen."
    )


def roll(page, character, skill, visibility="public"):
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{skill.pk} .roll-button").click()
    expect(page.locator("#roll-panel .roll-panel")).to_be_visible()
    if visibility != "public":  # behind the panel's "More options" fold
        page.locator("#roll-panel .roll-more summary").click()
        page.select_option("#roll_visibility", visibility)
    page.locator("#roll-action-roll").click()
    card = page.locator("#roll-result .entry").first
    expect(card).to_be_visible()
    # The result's card is result-<token>; in the log and the recent rolls it is entry-<token>.
    return "entry-" + card.get_attribute("id").removeprefix("result-")


def requests_of(page):
    """Every request ``page`` makes from now on, as (method, URL path and query)."""
    made = []
    page.on(
        "request",
        lambda request: made.append(
            (request.method, request.url.split("//", 1)[1].split("/", 1)[1])
        ),
    )
    return made


def wait_until(page, condition, timeout_ms=10_000):
    """Wait until the JavaScript expression ``condition`` holds in ``page``. Not Playwright's
    ``wait_for_function``: when its first check fails it polls with ``eval``, which the pages'
    Content Security Policy forbids; ``evaluate`` hands the whole function, condition written
    in, to the debugging protocol, which the policy doesn't govern."""
    page.evaluate(
        f"""async (timeout) => {{
              const end = Date.now() + timeout;
              while (!({condition})) {{
                if (Date.now() > end) throw new Error({json.dumps("timed out: " + condition)});
                await new Promise(resolve => setTimeout(resolve, 50));
              }}
            }}""",
        timeout_ms,
    )


def log_in_as(page, user, password="pw"):
    """Log ``page`` in through the login form, as a browser without JavaScript would."""
    page.goto("/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
