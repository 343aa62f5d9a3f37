"""Pictures for the portrait tests, good and hostile, made in memory with Pillow (or by hand where
Pillow would refuse to write them), and a helper that uploads one through the portrait page."""

from __future__ import annotations

import os
import struct
import zlib
from io import BytesIO

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

RED = (220, 20, 20)
BLUE = (20, 20, 220)


def picture(fmt: str = "PNG", size: tuple[int, int] = (64, 48), color=RED, **save) -> bytes:
    out = BytesIO()
    Image.new("RGB", size, color).save(out, fmt, **save)
    return out.getvalue()


def halves(size: tuple[int, int] = (200, 100)) -> Image.Image:
    """Left half red, right half blue: which way is up shows after an EXIF rotation."""
    image = Image.new("RGB", size, RED)
    image.paste(BLUE, (size[0] // 2, 0, size[0], size[1]))
    return image


def jpeg_with_exif(orientation: int = 6, size: tuple[int, int] = (200, 100)) -> bytes:
    """A JPEG a phone could have taken: a camera, a GPS position and a rotation in its EXIF."""
    exif = Image.Exif()
    exif[0x0112] = orientation  # Orientation: 6 is "rotate 90° clockwise to display"
    exif[0x010F] = "SecretCam"  # Make
    exif[0x8825] = {1: "N", 2: (51.0, 30.0, 0.0)}  # GPSInfo
    out = BytesIO()
    halves(size).save(out, "JPEG", exif=exif.tobytes(), quality=95)
    return out.getvalue()


def noise_png(side: int) -> bytes:
    """Random pixels: a PNG that hardly compresses, so its size is about side² × 3 bytes."""
    out = BytesIO()
    Image.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, "PNG")
    return out.getvalue()


def animated_png() -> bytes:
    out = BytesIO()
    frames = [Image.new("RGB", (40, 40), RED), Image.new("RGB", (40, 40), BLUE)]
    frames[0].save(out, "PNG", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def png_header(width: int, height: int) -> bytes:
    """A PNG of a few dozen bytes whose header claims width × height pixels (a decompression
    bomb's shape: decoding it would allocate width × height × 3 bytes)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 64)
    return (
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")
    )


SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b'<script>alert(1)</script><rect width="10" height="10"/></svg>'
)
# What a polyglot carries after the image: an archive and a page with a script.
PAYLOAD = b"PK\x03\x04" + b"\0" * 26 + b"<html><script>alert(document.cookie)</script></html>"


def upload_file(name: str, data: bytes, content_type: str = "image/png") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def post_portrait(client: Client, character, data: bytes, name: str = "me.png", **kwargs):
    return client.post(
        reverse("character_portrait", args=[character.pk]),
        {"portrait": upload_file(name, data, kwargs.pop("content_type", "image/png"))},
        **kwargs,
    )


def stored(response_or_client, character, size: str = "full") -> Image.Image:
    """The stored picture as the portrait's address serves it to ``client``."""
    character.refresh_from_db()
    url = character.portrait_url if size == "full" else character.thumbnail_url
    response = response_or_client.get(url)
    assert response.status_code == 200, response.status_code
    return Image.open(BytesIO(response.content))


def big_webp(width: int = 8000, height: int = 5000, **save) -> bytes:
    """A plain-coloured WebP of width × height pixels made in memory: lossy by default (the red
    team's 40-megapixel file of about 100 KB), or ``lossless=True`` (a few dozen bytes)."""
    out = BytesIO()
    options = {"quality": 10, "method": 0, **save}
    Image.new("RGB", (width, height), RED).save(out, "WEBP", **options)
    return out.getvalue()


def grey16_png(value: int, size: tuple[int, int] = (40, 40)) -> bytes:
    """A 16-bit greyscale PNG (Pillow's mode "I;16") of one shade, 0-65535."""
    out = BytesIO()
    Image.new("I;16", size, value).save(out, "PNG")
    return out.getvalue()
