"""Portraits: an uploaded picture checked, decoded and re-encoded by Pillow, stored through
Django's storage API (the ``portraits`` alias of STORAGES), and removed once nothing names it.

What is accepted and why is in docs/portraits.md. In short: at most PORTRAIT_MAX_BYTES, a JPEG,
PNG or WebP by its content (Pillow's own detection, never the name or the browser's word), at
most MAX_PIXELS by its header before a pixel is decoded, and decodable to its last byte. What is
stored is drawn afresh from the decoded pixels, so EXIF and every other metadata, colour
profiles, later frames and anything appended to the file (a polyglot's payload) are left behind.

Decoding is the one costly step (a 25-megapixel WebP needs about 400 MB while it decodes), so a
process decodes at most PORTRAIT_DECODES pictures at a time; an upload that can't get a turn
within PORTRAIT_DECODE_WAIT seconds is PortraitBusy (the page answers a readable 503).
"""

from __future__ import annotations

import secrets
import struct
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from typing import TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.core.files.base import ContentFile, File
from django.core.files.storage import Storage, storages
from django.db import transaction
from PIL import Image, ImageOps, UnidentifiedImageError

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile

    from sheets.models import Character

# Pillow is asked to try these decoders only, so a GIF, TIFF, BMP or an SVG (which Pillow can't
# read at all) is "not a picture we take" before any of its bytes are interpreted.
FORMATS = ("JPEG", "PNG", "WEBP")
# 25 megapixels is more than a portrait ever needs (it is kept at 512 px) and than most phones'
# photos; bounded before decoding from the header's width and height (a 30,000 x 30,000 PNG of a
# few hundred bytes would ask for 3.6 GB). A WebP costs the most: Pillow's decoder holds about 16
# bytes a pixel while it decodes, so 40 megapixels took 610 MiB and 25 take about 390 MiB
# (docs/performance.md, "Portrait uploads").
MAX_PIXELS = 25_000_000
# The stored sizes, by the name their URL carries: a square crop for the sheet and a thumbnail
# for cards, log rows and toasts (both at twice their largest CSS size, for sharp phone screens).
SIZES = {"full": 512, "thumb": 96}
# WebP: every browser we support shows it, and it is a third of a JPEG's bytes at this quality.
CONTENT_TYPE = "image/webp"
QUALITY = 85


class PortraitError(ValueError):
    """An upload refused, with the sentence to show beside the field."""


class PortraitBusy(Exception):
    """Every decoding turn of this process stayed taken for PORTRAIT_DECODE_WAIT seconds: the
    upload was not looked at, and may be sent again in a moment (a 503, not the file's fault)."""

    message = (
        "Many portraits are being processed right now, so yours was not looked at. "
        "Please send it again in a few seconds."
    )


@dataclass(frozen=True)
class Rendered:
    """A portrait's stored files, by size name, as WebP bytes."""

    files: dict[str, bytes]


def storage() -> Storage:
    return storages["portraits"]


def file_name(key: str, size: str) -> str:
    return f"{key}-{size}.webp"


def _megabytes(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_size(upload: UploadedFile) -> None:
    """Refuse a file over the limit before reading it."""
    limit = settings.PORTRAIT_MAX_BYTES
    if upload.size is not None and upload.size > limit:
        raise PortraitError(
            f"That file is {_megabytes(upload.size)}; a portrait may be at most "
            f"{limit // (1024 * 1024)} MB."
        )


def _check_pixels(width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise PortraitError(
            f"That picture is {width:,} × {height:,} pixels; a portrait may have at most "
            f"{MAX_PIXELS // 1_000_000} million pixels. Please make it smaller first."
        )


def webp_size(data: bytes) -> tuple[int, int] | None:
    """A WebP's canvas size read from its first chunk's header, or None if ``data`` is no WebP
    (or one too short to say; Pillow then refuses it). Read by hand because Pillow's WebP opener
    sets up the whole decoder, with two canvas-sized buffers, before it tells the size."""
    if len(data) < 30 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    chunk, body = data[12:16], data[20:30]
    if chunk == b"VP8X":  # extended: the canvas, 24 bits each, stored minus one
        return 1 + int.from_bytes(body[4:7], "little"), 1 + int.from_bytes(body[7:10], "little")
    if chunk == b"VP8L":  # lossless: a signature byte, then 14 bits each, stored minus one
        bits = int.from_bytes(body[1:5], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 ":  # lossy: after the frame tag and start code, 14 bits each
        width, height = struct.unpack("<HH", body[6:10])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _open(data: bytes) -> Image.Image:
    """The image with only its header read, refused if it is too large to decode."""
    if (size := webp_size(data)) is not None:
        _check_pixels(*size)
    with warnings.catch_warnings():
        # Pillow's own bomb check (MAX_IMAGE_PIXELS) warns, then raises, on far larger images
        # than ours; as an error it stops at the header like ours does.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        image = Image.open(BytesIO(data), formats=FORMATS)
    _check_pixels(*image.size)
    return image


@contextmanager
def _worded() -> Iterator[None]:
    """Pillow's errors as the sentences shown beside the field."""
    try:
        yield
    except PortraitError:
        raise  # ours, already worded (a ValueError, which the last clause would reword)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PortraitError(
            "That picture has far too many pixels to open. Please make it smaller first."
        ) from None
    except UnidentifiedImageError:
        raise PortraitError(
            "That is not a JPEG, PNG or WebP picture. Please choose one of those."
        ) from None
    except (OSError, SyntaxError, ValueError, EOFError):
        raise PortraitError(
            "That picture is damaged or incomplete and can't be read. Please choose another."
        ) from None


def opened(upload: UploadedFile) -> Image.Image:
    """The upload with its header read and checked (size, format, pixels), no pixel decoded:
    every refusal that costs nothing comes before waiting for a turn to decode."""
    check_size(upload)
    data = upload.read(settings.PORTRAIT_MAX_BYTES + 1)
    with _worded():
        image = _open(data)
        if image.format == "PNG":
            # verify() checks a PNG's chunk checksums, which decoding alone would not, without
            # decoding; it leaves the image unusable, so the pixels come from a second open
            # (of the header only). The other formats are opened once.
            image.verify()
            image = _open(data)
    return image


def load(image: Image.Image) -> Image.Image:
    """The first frame decoded, once, or PortraitError saying what is wrong."""
    with _worded():
        # A JPEG decodes straight at a half, quarter or eighth of its size, still larger than
        # what is kept: a 24-megapixel photo then needs a sixteenth of the memory.
        image.draft("RGB", (2 * SIZES["full"], 2 * SIZES["full"]))
        image.load()  # every byte of the first frame: a truncated file fails here
    return image


@cache
def _turns(count: int) -> threading.BoundedSemaphore:
    # One per process and per setting (a test may change PORTRAIT_DECODES).
    return threading.BoundedSemaphore(count)


@contextmanager
def decoding_turn() -> Iterator[None]:
    """Hold one of the process's PORTRAIT_DECODES turns to decode, waiting at most
    PORTRAIT_DECODE_WAIT seconds for it; PortraitBusy if none came free."""
    turns = _turns(max(1, settings.PORTRAIT_DECODES))
    if not turns.acquire(timeout=settings.PORTRAIT_DECODE_WAIT):
        raise PortraitBusy(PortraitBusy.message)
    try:
        yield
    finally:
        turns.release()


def render(image: Image.Image) -> Rendered:
    """The square centre crop and the thumbnail, upright, drawn from the pixels alone."""
    # Shrunk first (in place, keeping its EXIF), so that turning, converting and cropping never
    # copy the decoded picture at its full size.
    image.thumbnail((4 * SIZES["full"], 4 * SIZES["full"]), Image.Resampling.LANCZOS)
    upright = ImageOps.exif_transpose(image)
    if upright.mode.startswith("I"):
        # 16-bit greyscale (a PNG's "I;16"): converting it to RGB straight clips every value
        # over 255 to white, so its 0-65535 range is scaled down to 8 bits first.
        upright = upright.convert("I").point(lambda value: value / 256).convert("L")
    mode = "RGBA" if "A" in upright.getbands() or "transparency" in upright.info else "RGB"
    upright = upright.convert(mode)
    side = min(SIZES["full"], *upright.size)
    square = ImageOps.fit(upright, (side, side), Image.Resampling.LANCZOS)
    files = {}
    for name, size in SIZES.items():
        drawn = square if size >= side else square.resize((size, size), Image.Resampling.LANCZOS)
        # A new image from the pixels alone: nothing of the upload's info (EXIF, XMP, ICC,
        # comments) can ride along into the encoder.
        clean = Image.frombytes(mode, drawn.size, drawn.tobytes())
        out = BytesIO()
        clean.save(out, "WEBP", quality=QUALITY)
        files[name] = out.getvalue()
    return Rendered(files)


def process(upload: UploadedFile) -> Rendered:
    """Check and re-encode an upload; PortraitError says why it was refused, PortraitBusy that
    no turn to decode came free."""
    image = opened(upload)
    with decoding_turn():
        try:
            return render(load(image))
        finally:
            # The decoded pixels (and a WebP's decoder) are let go inside the turn, so the
            # next decode starts only once this one's memory is free.
            image.close()


def _remove_files(key: str) -> None:
    for size in SIZES:
        storage().delete(file_name(key, size))


def remove_after_commit(key: str) -> None:
    """Delete a portrait's files once the transaction that let go of them commits (a rollback
    keeps them, as the row still names them)."""
    if key:
        transaction.on_commit(lambda: _remove_files(key))


def store(character: Character, rendered: Rendered) -> None:
    """Save the new files under a fresh random key, point the character at them, and drop the
    old ones after commit. Names are never the upload's: nothing about them can be guessed."""
    key = secrets.token_urlsafe(16)
    for size, data in rendered.files.items():
        storage().save(file_name(key, size), ContentFile(data))
    old = character.portrait
    try:
        with transaction.atomic():
            character.portrait = key
            character.save(update_fields=["portrait", "updated_at"])
            remove_after_commit(old)
    except Exception:
        _remove_files(key)
        raise


def remove(character: Character) -> None:
    old = character.portrait
    with transaction.atomic():
        character.portrait = ""
        character.save(update_fields=["portrait", "updated_at"])
        remove_after_commit(old)


def open_file(key: str, size: str) -> File[bytes] | None:
    """A stored portrait file to stream, or None if it isn't there."""
    try:
        return storage().open(file_name(key, size), "rb")
    except OSError:  # FileNotFoundError among them
        return None


def forget_deleted(sender: type[Character], instance: Character, **kwargs: object) -> None:
    """post_delete of a character (alone or with its campaign): its files go after commit."""
    remove_after_commit(instance.portrait)


# --- the webhooks' avatar --------------------------------------------------------------------

# Discord shows a roll posted by a webhook under the character's name and, given ``avatar_url``,
# its portrait — fetched by Discord, which has no login. So the webhooks name the portrait by a
# signed token instead of the readers' address: it names one character's current portrait (its
# key), so replacing or removing the portrait retires it; and it never expires, because Discord
# fetches an old message's avatar again long after it was posted.
AVATAR_SALT = "poolside.portraits.avatar"


def avatar_token(character_pk: int, key: str) -> str:
    return signing.dumps([character_pk, key], salt=AVATAR_SALT, compress=True)


def avatar_of(token: str) -> tuple[int, str] | None:
    """The (character, key) a token names, or None for one this site didn't sign."""
    try:
        pk, key = signing.loads(token, salt=AVATAR_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(pk, int) or not isinstance(key, str):
        return None
    return pk, key
