"""The ``<id:…>`` path converter for database ids in URLs.

Django's ``<int:…>`` takes any number of digits, and an id beyond the database's 64-bit range
then reaches a query: SQLite raises OverflowError on a foreign-key lookup (a 500). No row can
have such an id, so the URL simply doesn't match: a 404, like any other unknown id.
"""

from django.urls import register_converter


class IdConverter:
    # 18 digits stay below 2**63 - 1, the top of every integer primary key Django creates.
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
