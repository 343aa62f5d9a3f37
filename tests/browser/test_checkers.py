"""The pages pass the two checkers (tests/browser/checkers.py) on the demo campaigns: axe-core finds
no serious or critical accessibility violation on the sheet with the roll dialog and its result,
the campaign page, the log, the GM table and the statistics, in light and dark and at both sizes;
the Nu HTML checker finds no error in them but htmx's own attributes."""

import pytest

from tests.browser.checkers import (
    axe_source,
    axe_violations,
    demo_states,
    html_errors,
    visit,
    vnu_command,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
SERIOUS = ("serious", "critical")


@pytest.mark.parametrize(
    ("viewport", "scheme"),
    # Both themes at the laptop size; the phone layout in the dark theme (the colours are the
    # laptop's, what changes on a phone is the layout).
    [(LAPTOP, "light"), (LAPTOP, "dark"), (PHONE, "dark")],
    ids=["laptop-light", "laptop-dark", "phone-dark"],
)
def test_axe_finds_nothing_serious(browser, live_server, viewport, scheme):
    source = axe_source()
    problems = []
    for state, page in visit(
        browser, live_server, demo_states(), viewport=viewport, color_scheme=scheme
    ):
        problems += [f"{state.name}: {found}" for found in axe_violations(page, source, SERIOUS)]
    assert not problems, "\n".join(problems)


def test_the_pages_are_valid_html(browser, live_server, tmp_path):
    vnu_command()  # skip (or fail under CI) before the walk if the checker is missing
    documents = {}
    for state, page in visit(browser, live_server, demo_states(), viewport=LAPTOP):
        # The page as the server sent it, and as it stands after htmx and our scripts ran.
        documents[f"{state.name}-served"] = page.request.get(state.path).text()
        documents[f"{state.name}-dom"] = page.content()
        if state.name.endswith("-sheet-rolled"):
            # Without JavaScript a Roll link opens the roll panel as a page of its own.
            panel = page.locator("a.roll-button").first.get_attribute("href")
            system = state.name.removesuffix("-sheet-rolled")
            documents[f"{system}-no-js-panel-served"] = page.request.get(panel).text()
    errors = html_errors(documents, tmp_path)
    assert not errors, "\n".join(errors)
