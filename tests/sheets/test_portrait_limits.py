"""What keeps a portrait upload from exhausting a server's memory (docs/portraits.md, "What may
be uploaded"; docs/performance.md, "Portrait uploads"): the pixel cap read from every format's
header before decoding, one decoding turn at a time per process (a readable 503 when none comes
free), and a user's upload rate (a readable 429). The memory itself is measured on a real server
in test_portrait_memory.py."""

from __future__ import annotations

import tracemalloc

import pytest
from pytest_django.asserts import assertContains

from sheets import portraits
from tests import portrait_files as pf

pytestmark = pytest.mark.django_db

EXIF = b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x00\x00\x00\x00"


@pytest.fixture
def ana(client, party):
    client.force_login(party.player)
    return client


def beside_the_field(response, message: str, status: int) -> None:
    assert response.status_code == status
    assertContains(response, message, status_code=status)
    assertContains(response, 'class="field has-error"', status_code=status)


@pytest.fixture(scope="module")
def webp_40_mp():
    return pf.big_webp()


def test_a_40_megapixel_webp_is_refused_from_its_header(ana, party, webp_40_mp):
    assert len(webp_40_mp) < 200_000  # a small file: the pixels are the danger
    tracemalloc.start()
    try:
        response = pf.post_portrait(ana, party.pc, webp_40_mp, name="big.webp")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    beside_the_field(response, "8,000 × 5,000 pixels", 400)
    assertContains(response, "at most 25 million pixels", status_code=400)
    # Decoding would have handed Python a 160 MB frame; refused from the header, the request
    # allocated a few megabytes at most.
    assert peak < 16 * 1024 * 1024, peak
    party.pc.refresh_from_db()
    assert party.pc.portrait == ""


@pytest.mark.parametrize(
    ("save", "chunk"),
    [({}, b"VP8 "), ({"lossless": True}, b"VP8L"), ({"lossless": True, "exif": EXIF}, b"VP8X")],
    ids=["lossy", "lossless", "extended"],
)
def test_every_kind_of_webp_header_names_its_size(save, chunk):
    data = pf.big_webp(6001, 4999, **save)
    assert data[12:16] == chunk
    assert portraits.webp_size(data) == (6001, 4999)


@pytest.mark.parametrize(
    ("fmt", "size"), [("PNG", (5001, 5000)), ("JPEG", (5001, 5000)), ("WEBP", (5001, 5000))]
)
def test_over_25_megapixels_is_refused_in_every_format(ana, party, fmt, size):
    data = pf.png_header(*size) if fmt == "PNG" else pf.picture(fmt, size, quality=10)
    beside_the_field(pf.post_portrait(ana, party.pc, data), "5,001 × 5,000 pixels", 400)


def test_25_megapixels_are_taken(ana, party):
    data = pf.big_webp(5000, 5000, lossless=True)
    assert pf.post_portrait(ana, party.pc, data, name="a.webp").status_code == 302


def test_no_free_decoding_turn_is_a_readable_503(ana, party, settings):
    settings.PORTRAIT_DECODES, settings.PORTRAIT_DECODE_WAIT = 1, 0
    with portraits.decoding_turn():  # another upload is decoding
        response = pf.post_portrait(ana, party.pc, pf.picture())
    beside_the_field(response, "Many portraits are being processed right now", 503)
    assert response["Retry-After"] == "1"
    party.pc.refresh_from_db()
    assert party.pc.portrait == ""
    # The turn is back: the same upload goes through.
    assert pf.post_portrait(ana, party.pc, pf.picture()).status_code == 302


def test_a_refused_header_needs_no_decoding_turn(ana, party, settings, webp_40_mp):
    settings.PORTRAIT_DECODES, settings.PORTRAIT_DECODE_WAIT = 1, 0
    with portraits.decoding_turn():
        response = pf.post_portrait(ana, party.pc, webp_40_mp, name="big.webp")
    beside_the_field(response, "8,000 × 5,000 pixels", 400)


def test_a_users_uploads_are_rate_limited(ana, party, settings):
    settings.PORTRAIT_RATE = "2/300"
    for _ in range(2):
        assert pf.post_portrait(ana, party.pc, pf.picture()).status_code == 302
    response = pf.post_portrait(ana, party.pc, pf.picture())
    beside_the_field(response, "You have uploaded many portraits in a short time", 429)
    assert 0 < int(response["Retry-After"]) <= 300
    # Removing is never counted.
    assert ana.post(f"/characters/{party.pc.pk}/portrait/", {"remove": "yes"}).status_code == 302
    party.pc.refresh_from_db()
    assert party.pc.portrait == ""


def test_16_bit_greyscale_keeps_its_shade(ana, party):
    # 20000 of 65535 is a dark grey (78 of 255); converted straight it was stored white.
    assert pf.post_portrait(ana, party.pc, pf.grey16_png(20000)).status_code == 302
    red, green, blue = pf.stored(ana, party.pc).convert("RGB").getpixel((10, 10))
    assert abs(red - 78) <= 3 and red == green == blue
