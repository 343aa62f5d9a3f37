"""Installable: Chromium reads the web app manifest without a complaint and finds nothing that
keeps Poolside off a home screen; no service worker is registered (a sheet is never served from
a cache as if it were live)."""

import json
import struct

import pytest

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 1280, "height": 800}],
    ids=["phone", "laptop"],
)
def test_chromium_finds_the_app_installable(page, viewport):
    page.set_viewport_size(viewport)
    page.goto("/")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest")
    assert manifest["errors"] == []
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # (Playwright's contexts are incognito profiles, which never install anything.)
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    data = json.loads(manifest["data"])
    assert (data["display"], data["start_url"]) == ("standalone", "/")
    for icon in data["icons"]:
        response = page.request.get(icon["src"])
        assert response.ok and response.headers["content-type"] == "image/png"
        width, height = png_size(response.body())
        assert f"{width}x{height}" == icon["sizes"]
    assert {icon["purpose"] for icon in data["icons"]} == {"any", "maskable"}
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
