"""The site's identity on every page: the wordmark in the header and the favicon."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_every_page_has_the_wordmark_and_the_favicon(client):
    html = client.get(reverse("login")).content.decode()
    assert 'rel="icon" href="/static/img/favicon.svg" type="image/svg+xml"' in html
    # The mark is drawn (aria-hidden); the link's name is the wordmark's text.
    assert '<svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true"' in html
    assert '<span class="brand-name">Poolside</span>' in html


def test_favicon_ico_is_served_at_the_root(client):
    # Browsers and other clients ask for /favicon.ico whatever the page links.
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO file


# --- Colour contrast of the theme's tokens (static/css/poolside.css) --------------------------

TEXT = ("--fg", "--muted", "--accent", "--danger", "--ok")
SURFACES = ("--bg", "--panel", "--panel-2")
ON_COLOUR = (("--accent-fg", "--accent"), ("--danger-fg", "--danger"), ("--fg", "--accent-soft"))


def _tokens(block: str) -> dict[str, str]:
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", block))


def _themes() -> dict[str, dict[str, str]]:
    css = (settings.BASE_DIR / "static" / "css" / "poolside.css").read_text()
    light = re.search(r"^:root \{(.*?)^\}", css, re.S | re.M)
    dark = re.search(r"@media \(prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}", css, re.S)
    assert light and dark
    light_tokens = _tokens(light[1])
    return {"light": light_tokens, "dark": {**light_tokens, **_tokens(dark[1])}}


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        c_ = c / 255
        return c_ / 12.92 if c_ <= 0.03928 else ((c_ + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_helper():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert contrast("#777777", "#ffffff") < 4.5 < contrast("#767676", "#ffffff")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_colour_reads_on_every_surface(theme):
    tokens = _themes()[theme]
    pairs = [(t, s) for t in TEXT for s in SURFACES] + list(ON_COLOUR)
    low = {
        f"{text} on {surface}": round(contrast(tokens[text], tokens[surface]), 2)
        for text, surface in pairs
        if contrast(tokens[text], tokens[surface]) < 4.5
    }
    assert not low, f"{theme}: below 4.5:1 — {low}"
