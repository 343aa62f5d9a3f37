"""The bytes an entry's hash is taken over, and the JSON its columns are written as, are the
standard library's (docs/roll-log.md: an outside verifier hashes ``json.dumps(...)``), though
orjson writes them: for every float-free JSON value, and by the standard library's own way for
what orjson refuses."""

import json

from hypothesis import given
from hypothesis import strategies as st

from log.models import canonical_json
from log.models.chain_sql import json_bytes

# Every character but the lone surrogates UTF-8 can't carry (control characters, quotes,
# backslashes, U+2028, astral planes …), and integers of any size (orjson stops at 64 bits).
TEXT = st.text(st.characters(exclude_categories=["Cs"]))
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=40,
)


def standard(content) -> bytes:
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@given(st.dictionaries(TEXT, VALUES, max_size=12))
def test_canonical_json_is_the_standard_librarys(content):
    assert canonical_json(content) == standard(content)


def test_what_orjson_refuses_is_written_the_standard_way():
    deep: list = []
    for _ in range(300):  # past orjson's 254 levels
        deep = [deep]
    for content in (
        {"big": 2**70, "small": -(2**70)},
        {"options": {10: "ten", 9: "nine"}},  # integer keys: sorted as integers, then written
        {"deep": deep},
    ):
        assert canonical_json(content) == standard(content)


@given(VALUES)
def test_columns_are_written_as_the_same_json(value):
    assert json.loads(json_bytes(value)) == value
