"""The ``<id:…>`` path converter for database ids in URLs.

Django's ``<int:…>`` takes any number of digits, and an id beyond the database's 64-bit range
then reaches a query: SQLite raises OverflowError on a foreign-key lookup (a 500). No row can
have such an id, so the URL simply doesn't match: a 404, like any other unknown id.
"""

from django.urls import register_converter

# 18 digits stay below 2**63 - 1, the top of every integer primary key Django creates.
ID_DIGITS = 18


def parse_id(value: object) -> int | None:
    """A row id from a query or form parameter, or None when it can't be one: only ASCII digits,
    at most ``ID_DIGITS`` of them, as the converter below takes. ``str.isdigit`` also accepts
    "²" and "①", which ``int`` can't read (a 500), and a number past 64 bits overflows SQLite's
    integers (another)."""
    text = str(value)
    if text.isascii() and text.isdigit() and len(text) <= ID_DIGITS:
        return int(text)
    return None


class IdConverter:
    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
