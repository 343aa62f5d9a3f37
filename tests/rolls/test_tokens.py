"""Opaque roll-entry tokens (log/tokens.py): a keyed permutation of the pk, and the URLs, cursor
and stream ids that use it."""

import itertools
import random
import re

import pytest
from django.test import override_settings
from django.urls import clear_script_prefix, reverse, set_script_prefix, set_urlconf

from log.tokens import MAX_PK, EntryConverter, entry_pk, entry_token, entry_url
from tests.factories import CharacterFactory, RollEntryFactory


def test_every_id_comes_back_from_its_token():
    rng = random.Random(7)
    ids = [*range(1, 3000), MAX_PK, MAX_PK - 1, 2**32, 2**32 - 1, 2**32 + 1]
    ids += [rng.randrange(1, MAX_PK) for _ in range(2000)]
    tokens = [entry_token(pk) for pk in ids]
    assert all(re.fullmatch(r"[0-9a-f]{16}", token) for token in tokens)
    assert len(set(tokens)) == len(ids)  # a permutation: no two ids share a token
    assert [entry_pk(token) for token in tokens] == ids


def test_tokens_say_nothing_of_order_or_gaps():
    tokens = [entry_token(pk) for pk in range(1, 201)]
    # Neighbouring ids give unrelated tokens: sorting them doesn't give the ids' order back,
    # and about half of the neighbours compare the "wrong" way round.
    assert sorted(tokens) != tokens
    rising = sum(a < b for a, b in itertools.pairwise(tokens))
    assert 60 < rising < 140
    # Nor do they share long prefixes, as a counter in disguise would.
    assert len({token[:4] for token in tokens}) > 190


@override_settings(SECRET_KEY="x" * 50)
def test_tokens_stay_what_they_were():
    """Known answers: a link to an entry stays valid as long as SECRET_KEY does, so the scheme
    (the round keys, the round function, the rounds) may be made faster but never different."""
    tokens = [entry_token(pk) for pk in (1, 2, 99999, 2**40, MAX_PK)]
    assert tokens == [
        "4f6a4ca0ea216007",
        "37fcc623349f7fc8",
        "5bedbdd06143bae4",
        "09cef2ad9a7de6df",
        "b93f33eed59af7a2",
    ]


def test_tokens_are_keyed_by_the_secret_key():
    before = entry_token(42)
    with override_settings(SECRET_KEY="another secret key, at least fifty characters long!!"):
        other = entry_token(42)
        assert other != before and entry_pk(other) == 42
    assert entry_token(42) == before


@pytest.mark.parametrize("pk", [0, -1, MAX_PK + 1, 2**64])
def test_no_token_for_what_cannot_be_an_id(pk):
    with pytest.raises(ValueError, match="is not an entry id"):
        entry_token(pk)


def out_of_range_token() -> str:
    """A well-formed token that names no possible id (half of all tokens do)."""
    for n in range(1000):
        token = f"{n * 0x9E3779B97F4A7C15 % 2**64:016x}"
        if entry_pk(token) is None:
            return token
    raise AssertionError("none found")  # pragma: no cover


MALFORMED = [
    "",
    "12",
    "0" * 15,
    "0" * 17,
    "ABCDEF0123456789",  # capitals: one spelling per entry
    "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦",  # Arabic-Indic digits
    "１２３４５６７８９０１２３４５６",  # fullwidth digits
    "zzzzzzzzzzzzzzzz",
    "0123456789abcde ",
    None,
]


@pytest.mark.parametrize("token", MALFORMED)
def test_malformed_tokens_name_nothing(token):
    assert entry_pk(token) is None


def test_the_converter_refuses_what_names_no_id():
    converter = EntryConverter()
    with pytest.raises(ValueError, match="Not an entry token"):
        converter.to_python(out_of_range_token())
    assert converter.to_python(entry_token(5)) == 5
    assert converter.to_url(5) == entry_token(5)


def test_entry_urls_are_what_reverse_writes_under_any_script_prefix_and_urlconf():
    pks = [1, 2, 41, 2**40, MAX_PK]
    assert [entry_url(pk) for pk in pks] == [reverse("roll_entry", args=[pk]) for pk in pks]
    # Served under a path (SCRIPT_NAME), then with a request's own URL conf, then back.
    set_script_prefix("/table/")
    try:
        assert (
            entry_url(41) == reverse("roll_entry", args=[41]) == f"/table/rolls/{entry_token(41)}/"
        )
        set_urlconf("tests.rolls.mounted_urls")
        assert entry_url(41) == reverse("roll_entry", args=[41])
        assert entry_url(41) == f"/table/mounted/rolls/{entry_token(41)}/"
    finally:
        set_urlconf(None)
        clear_script_prefix()
    assert entry_url(41) == f"/rolls/{entry_token(41)}/"
    with override_settings(SECRET_KEY="another key for these tokens, long enough to be a key"):
        assert entry_url(41) == reverse("roll_entry", args=[41]) != f"/rolls/{entry_token(1)}/"


@pytest.mark.django_db
def test_entry_urls_take_tokens_and_answer_anything_else_with_a_404(client):
    entry = RollEntryFactory(character=CharacterFactory())
    client.force_login(entry.character.owner)
    url = reverse("roll_entry", args=[entry.pk])
    assert url == f"/rolls/{entry_token(entry.pk)}/" == entry.get_absolute_url()
    assert client.get(url).status_code == 200
    bad = [t for t in MALFORMED if t] + [str(entry.pk), out_of_range_token()]
    bad.append(entry_token(entry.pk + 1))  # a well-formed token of no entry
    for token in bad:
        assert client.get(f"/rolls/{token}/").status_code == 404, token
        assert client.post(f"/rolls/{token}/reveal/").status_code == 404, token
        assert client.post(f"/rolls/{token}/destiny/").status_code == 404, token


@pytest.mark.django_db
def test_the_log_cursor_takes_tokens_and_refuses_anything_else(client):
    character = CharacterFactory()
    entries = [RollEntryFactory(character=character) for _ in range(30)]
    client.force_login(character.owner)
    url = reverse("campaign_log", args=[character.campaign_id])
    page = client.get(url).text
    older = f"?before={entry_token(entries[5].pk)}"
    assert older in page
    rest = client.get(url + older).text
    assert rest.count('class="entry ') == 5
    for bad in [t for t in MALFORMED if t] + [str(entries[5].pk), out_of_range_token()]:
        response = client.get(url, {"before": bad})
        assert response.status_code == 400, bad
        assert "must be the link of an older page" in response.text
