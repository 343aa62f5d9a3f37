"""Uploading a portrait: what is accepted, what is refused (with the reason beside the field and
the old portrait kept), what is stored, and that replaced and removed files go (docs/portraits.md)."""

from __future__ import annotations

import resource

import pytest
from django.urls import reverse
from pytest_django.asserts import assertContains

from sheets import portraits
from tests import portrait_files as pf

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(client, party):
    client.force_login(party.player)
    return client


def refused(response, message: str) -> None:
    """The page again (400), the message inside the field's group, nothing stored."""
    assert response.status_code == 400
    assertContains(response, message, status_code=400)
    assertContains(response, 'class="field has-error"', status_code=400)


@pytest.mark.parametrize(("fmt", "name"), [("JPEG", "a.jpg"), ("PNG", "a.png"), ("WEBP", "a.webp")])
def test_jpeg_png_and_webp_are_stored_as_square_webp(ana, party, fmt, name):
    response = pf.post_portrait(ana, party.pc, pf.picture(fmt, (300, 200)), name=name)
    assert response.status_code == 302
    assert response["Location"] == party.pc.get_absolute_url()
    full = pf.stored(ana, party.pc)
    assert (full.format, full.size) == ("WEBP", (200, 200))
    assert pf.stored(ana, party.pc, "thumb").size == (96, 96)


def test_a_large_picture_is_cropped_to_512_and_a_96_thumbnail(ana, party):
    assert pf.post_portrait(ana, party.pc, pf.picture("PNG", (1600, 900))).status_code == 302
    assert pf.stored(ana, party.pc).size == (512, 512)
    assert pf.stored(ana, party.pc, "thumb").size == (96, 96)


def test_exif_is_stripped_and_its_orientation_applied(ana, party):
    assert pf.post_portrait(ana, party.pc, pf.jpeg_with_exif(6), name="p.jpg").status_code == 302
    party.pc.refresh_from_db()
    raw = ana.get(party.pc.portrait_url).content
    assert b"Exif" not in raw and b"SecretCam" not in raw
    image = pf.stored(ana, party.pc)
    assert not image.getexif() and "icc_profile" not in image.info
    # Turned upright: the left (red) half of the stored pixels is now on top.
    assert image.size == (100, 100)
    top, bottom = image.convert("RGB").getpixel((50, 10)), image.convert("RGB").getpixel((50, 90))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]


def test_a_large_photo_is_decoded_small_and_still_turned_upright(ana, party):
    """A 4000 × 2000 JPEG is decoded at a fraction of its size and shrunk before it is turned:
    the EXIF rotation still applies."""
    data = pf.jpeg_with_exif(6, size=(4000, 2000))
    assert pf.post_portrait(ana, party.pc, data, name="p.jpg").status_code == 302
    image = pf.stored(ana, party.pc).convert("RGB")
    assert image.size == (512, 512)
    top, bottom = image.getpixel((256, 20)), image.getpixel((256, 490))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0]


def test_a_2_mb_picture_passes_the_request_limit(ana, party):
    data = pf.noise_png(830)
    assert 1024 * 1024 < len(data) <= 2 * 1024 * 1024  # over every other body's 1 MiB limit
    assert pf.post_portrait(ana, party.pc, data).status_code == 302


def test_over_2_mb_is_refused_beside_the_field(ana, party):
    response = pf.post_portrait(ana, party.pc, b"\0" * (2 * 1024 * 1024 + 1))
    refused(response, "a portrait may be at most 2 MB")


def test_far_over_the_limit_is_the_readable_413(ana, party):
    response = pf.post_portrait(ana, party.pc, b"\0" * (9 * 1024 * 1024))
    assert response.status_code == 413
    assertContains(response, "a portrait at most 2 MiB", status_code=413)


@pytest.mark.parametrize(
    ("data", "name", "content_type"),
    [
        (pf.SVG, "face.svg", "image/svg+xml"),
        (pf.SVG, "face.png", "image/png"),  # an SVG that says it is a PNG
        (b"just some text, honestly a picture", "face.png", "image/png"),
        (pf.picture("GIF"), "face.gif", "image/gif"),
        (pf.picture("BMP"), "face.png", "image/png"),
        (pf.picture("TIFF"), "face.jpg", "image/jpeg"),
    ],
    ids=["svg", "svg-named-png", "text-named-png", "gif", "bmp", "tiff"],
)
def test_what_is_not_jpeg_png_or_webp_is_refused(ana, party, data, name, content_type):
    response = pf.post_portrait(ana, party.pc, data, name=name, content_type=content_type)
    refused(response, "That is not a JPEG, PNG or WebP picture.")


@pytest.mark.parametrize(
    "data",
    [pf.noise_png(60)[:4000], pf.jpeg_with_exif()[:700], pf.picture("WEBP", (300, 300))[:60]],
    ids=["png", "jpeg", "webp"],
)
def test_a_truncated_picture_is_refused(ana, party, data):
    refused(pf.post_portrait(ana, party.pc, data), "damaged or incomplete")


def test_a_30000_pixel_square_header_is_refused_without_decoding(ana, party):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    response = pf.post_portrait(ana, party.pc, pf.png_header(30_000, 30_000))
    refused(response, "far too many pixels")
    # Decoding would have taken 2.7 GB; the process grew by less than 100 MB at most.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100 * 1024


def test_more_than_25_megapixels_is_refused_naming_the_size(ana, party):
    response = pf.post_portrait(ana, party.pc, pf.png_header(7000, 7000))
    refused(response, "7,000 × 7,000 pixels")


def test_a_polyglot_is_stored_as_its_picture_alone(ana, party):
    assert pf.post_portrait(ana, party.pc, pf.picture() + pf.PAYLOAD).status_code == 302
    party.pc.refresh_from_db()
    for url in (party.pc.portrait_url, party.pc.thumbnail_url):
        served = ana.get(url).content
        assert b"<script" not in served and b"PK\x03\x04" not in served


def test_an_animated_picture_keeps_its_first_frame(ana, party):
    assert pf.post_portrait(ana, party.pc, pf.animated_png()).status_code == 302
    image = pf.stored(ana, party.pc)
    assert getattr(image, "n_frames", 1) == 1
    assert image.convert("RGB").getpixel((20, 20))[0] > 150  # red, the first frame


def test_no_file_says_so(ana, party):
    response = ana.post(reverse("character_portrait", args=[party.pc.pk]), {})
    refused(response, "This field is required.")


def test_a_refusal_keeps_the_portrait_there_was(ana, party):
    pf.post_portrait(ana, party.pc, pf.picture())
    party.pc.refresh_from_db()
    key = party.pc.portrait
    refused(pf.post_portrait(ana, party.pc, pf.SVG), "not a JPEG")
    party.pc.refresh_from_db()
    assert party.pc.portrait == key
    assert ana.get(party.pc.portrait_url).status_code == 200


def files() -> set[str]:
    return set(portraits.storage().listdir("")[1])


def test_file_names_are_random_never_the_uploads(ana, party, django_capture_on_commit_callbacks):
    pf.post_portrait(ana, party.pc, pf.picture(), name="ada-secret-name.png")
    party.pc.refresh_from_db()
    key = party.pc.portrait
    assert len(key) >= 22
    assert {f"{key}-full.webp", f"{key}-thumb.webp"} <= files()
    assert not any("secret" in name for name in files())


def test_replacing_and_removing_delete_the_old_files(
    ana, party, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pf.post_portrait(ana, party.pc, pf.picture())
    party.pc.refresh_from_db()
    first = party.pc.portrait
    with django_capture_on_commit_callbacks(execute=True):
        assertContains(
            ana.get(party.pc.get_absolute_url()), "Change portrait"
        )  # the sheet offers the change
        pf.post_portrait(ana, party.pc, pf.picture(color=pf.BLUE))
    party.pc.refresh_from_db()
    second = party.pc.portrait
    assert second != first
    assert not any(name.startswith(first) for name in files())
    with django_capture_on_commit_callbacks(execute=True):
        response = ana.post(reverse("character_portrait", args=[party.pc.pk]), {"remove": "yes"})
    assert response.status_code == 302
    party.pc.refresh_from_db()
    assert party.pc.portrait == ""
    assert not any(name.startswith(second) for name in files())


def test_deleting_the_character_deletes_its_files(ana, party, django_capture_on_commit_callbacks):
    pf.post_portrait(ana, party.pc, pf.picture())
    party.pc.refresh_from_db()
    key = party.pc.portrait
    with django_capture_on_commit_callbacks(execute=True):
        ana.post(reverse("character_delete", args=[party.pc.pk]))
    assert not any(name.startswith(key) for name in files())


@pytest.mark.parametrize(
    "body",
    [
        {"portrait": "not a file at all"},
        {"portrait": ""},
        {"other": pf.upload_file("a.png", pf.picture())},
        {"portrait": pf.upload_file("empty.png", b"")},
        {"portrait": pf.upload_file("x" * 5000 + ".png", pf.picture())},
    ],
    ids=["text", "empty-text", "file-under-another-name", "empty-file", "huge-file-name"],
)
def test_crafted_bodies_are_refused_or_taken_never_a_500(ana, party, body):
    response = ana.post(reverse("character_portrait", args=[party.pc.pk]), body)
    assert response.status_code in (302, 400)
    party.pc.refresh_from_db()
    assert bool(party.pc.portrait) is (response.status_code == 302)


def test_two_files_keep_the_last(ana, party):
    files = [pf.upload_file("a.png", pf.SVG), pf.upload_file("b.png", pf.picture())]
    response = ana.post(reverse("character_portrait", args=[party.pc.pk]), {"portrait": files})
    assert response.status_code == 302
