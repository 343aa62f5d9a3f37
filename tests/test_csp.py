"""The Content-Security-Policy: nonces, no 'unsafe-inline', no 'unsafe-eval' — and templates that
need neither (no inline scripts, no inline styles, no htmx features that eval)."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.factories import CharacterFactory

TEMPLATES = Path(settings.BASE_DIR) / "templates"


@pytest.mark.django_db
def test_every_page_sends_a_strict_policy_with_a_fresh_nonce(client):
    character = CharacterFactory()
    client.force_login(character.owner)
    nonces = set()
    for url in ("/", character.campaign.get_absolute_url(), character.get_absolute_url()):
        policy = client.get(url)["Content-Security-Policy"]
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
        assert "default-src 'self'" in policy and "object-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy
        nonces.add(re.search(r"'nonce-([^']+)'", policy).group(1))
    assert len(nonces) == 3  # one per response


def test_htmx_is_configured_for_the_policy(client):
    html = client.get("/accounts/login/").content.decode()
    assert '"includeIndicatorStyles": false' in html and '"allowEval": false' in html


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_templates_need_no_inline_script_or_style(path):
    text = path.read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), "inline <script>"
    assert "<style" not in text, "inline <style>"
    assert not re.search(r"\sstyle\s*=", text), "style= attribute"
    assert not re.search(r"\shx-on[:-]", text), "hx-on needs eval"
    assert "js:" not in text, "hx-vals/hx-headers js: needs eval"
