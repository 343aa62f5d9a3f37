"""Per-roll visibility, filtered on the server: a hidden roll's dice, outcome and pool never reach
someone who may not read them — not in the log, the permalink, the sheet or the roll response."""

import re

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from tests.factories import CharacterFactory
from tests.rolls.helpers import (
    FULL,
    NOTHING,
    PLACEHOLDER,
    athletics,
    follow_url,
    latest,
    roll_athletics,
    roll_url,
    secrets_of,
    seen_by,
)

# ana's Ada rolls Athletics at 6d6 (tests/rolls/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]


@pytest.mark.parametrize(
    ("visibility", "expected"),
    [
        (Visibility.PUBLIC, {"gm": FULL, "player": FULL, "other_player": FULL, "observer": FULL}),
        (
            Visibility.GM_ONLY,
            {"gm": FULL, "player": FULL, "other_player": NOTHING, "observer": NOTHING},
        ),
        (
            Visibility.BLIND,
            {"gm": FULL, "player": PLACEHOLDER, "other_player": NOTHING, "observer": NOTHING},
        ),
    ],
)
def test_who_sees_a_players_roll(client, party, visibility, expected):
    entry = roll_athletics(client, party, visibility)
    assert entry.visibility == visibility and entry.roller == party.player
    assert {user: seen_by(client, party, user, entry) for user in expected} == expected


def test_a_secret_roll_is_the_gms_alone(client, party):
    entry = roll_athletics(client, party, Visibility.SECRET, as_user="gm")
    seen = {
        user: seen_by(client, party, user, entry)
        for user in ("gm", "player", "other_player", "observer")
    }
    assert seen == {"gm": FULL, "player": NOTHING, "other_player": NOTHING, "observer": NOTHING}


def test_players_cannot_roll_secret(client, party):
    client.force_login(party.player)
    response = client.post(
        roll_url(party.pc, "cogent-skill", athletics(party.pc)),
        {"challenge_level": 1, "extra_penalty": 0, "visibility": Visibility.SECRET},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not RollEntry.objects.exists()


def offered(client, user, party):
    client.force_login(user)
    panel = reverse("roll_panel", args=[party.pc.pk, "cogent-skill", athletics(party.pc).pk])
    html = client.get(panel).content.decode()
    return re.findall(
        r'<option value="(\w+)"', html.split('name="visibility"')[1].split("</select>")[0]
    )


def test_each_offers_only_choices_with_a_different_audience(client, party):
    # For the GM's own roll, GM-only and blind mean "only me", the same as secret.
    assert offered(client, party.gm, party) == ["public", "secret"]
    assert offered(client, party.player, party) == ["public", "gm_only", "blind"]
    client.force_login(party.gm)
    for visibility in (Visibility.GM_ONLY, Visibility.BLIND):
        response = client.post(
            roll_url(party.pc, "cogent-skill", athletics(party.pc)),
            {"challenge_level": 1, "extra_penalty": 0, "visibility": visibility},
        )
        assert response.status_code == 400
        assert "Select a valid choice" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_the_blind_roller_hears_only_that_the_roll_was_made(client, party):
    client.force_login(party.player)
    response = client.post(
        roll_url(party.pc, "cogent-skill", athletics(party.pc)),
        {"challenge_level": 2, "extra_penalty": 0, "visibility": Visibility.BLIND},
        headers={"HX-Request": "true"},
    )
    entry = latest()
    html = response.content.decode()
    assert response.status_code == 200 and "a blind roll was made" in html
    # The panel still shows the pool the player chose before rolling; the result shows nothing.
    result = html.split('id="roll-result"')[1]
    assert not any(secret in result for secret in secrets_of(entry))
    assert entry.detail not in html and entry.dice[0].label not in html
    assert entry.outcome_label not in result
    assert 'id="follow-up-' not in html


def test_follow_ups_inherit_visibility_and_the_blind_roller_cannot_make_them(client, party):
    gm_only = roll_athletics(client, party, Visibility.GM_ONLY)
    client.force_login(party.player)
    assert client.post(follow_url(gm_only, "destiny")).status_code == 302
    follow_up = latest()
    assert (follow_up.kind, follow_up.visibility, follow_up.roller) == (
        Kind.DESTINY,
        Visibility.GM_ONLY,
        party.player,
    )
    assert seen_by(client, party, "other_player", follow_up) == NOTHING

    blind = roll_athletics(client, party, Visibility.BLIND)
    client.force_login(party.player)
    assert client.post(follow_url(blind, "destiny")).status_code == 403
    client.force_login(party.other_player)
    assert client.post(follow_url(blind, "destiny")).status_code == 404
    assert RollEntry.objects.filter(follows=blind).count() == 0


def test_the_gm_reveals_a_hidden_roll_with_a_new_entry(client, party):
    blind = roll_athletics(client, party, Visibility.BLIND)
    client.force_login(party.gm)
    client.post(follow_url(blind, "destiny"))  # the GM may follow it up: same chain, same audience
    follow_up = latest()
    reveal_url = reverse("roll_reveal", args=[blind.pk])
    for user in ("player", "other_player"):
        client.force_login(getattr(party, user))
        assert client.post(reveal_url).status_code in (403, 404)
    assert not RollEntry.objects.filter(kind=Kind.REVEAL).exists()

    client.force_login(party.gm)
    page = client.get(blind.get_absolute_url()).content.decode()
    assert "Reveal to everyone" in page
    response = client.post(reveal_url)
    reveal = RollEntry.objects.get(kind=Kind.REVEAL)
    assert response.status_code == 302 and response["Location"] == reveal.get_absolute_url()
    assert (reveal.reveals, reveal.visibility, reveal.faces) == (blind, "public", blind.faces)
    blind.refresh_from_db()  # the original entry is untouched
    assert blind.visibility == Visibility.BLIND
    for user in ("gm", "player", "other_player", "observer"):
        assert seen_by(client, party, user, RollEntry.objects.get(pk=blind.pk)) == FULL
        assert seen_by(client, party, user, RollEntry.objects.get(pk=follow_up.pk)) == FULL
    # Revealing again adds nothing.
    client.force_login(party.gm)
    client.post(reveal_url)
    assert RollEntry.objects.filter(kind=Kind.REVEAL).count() == 1


def test_a_public_roll_cannot_be_revealed_and_follow_ups_are_revealed_through_their_root(
    client, party
):
    public = roll_athletics(client, party, Visibility.PUBLIC)
    client.force_login(party.gm)
    assert "Reveal to everyone" not in client.get(public.get_absolute_url()).content.decode()
    client.post(reverse("roll_reveal", args=[public.pk]))
    assert not RollEntry.objects.filter(kind=Kind.REVEAL).exists()


def test_a_campaign_can_force_every_roll_public(client, party):
    campaign = party.campaign
    campaign.force_public_rolls = True
    campaign.save()
    client.force_login(party.player)
    panel = client.get(f"/characters/{party.pc.pk}/roll/cogent-skill/{athletics(party.pc).pk}/")
    assert 'name="visibility"' not in panel.content.decode()
    entry = roll_athletics(client, party, Visibility.BLIND)
    assert entry.visibility == Visibility.PUBLIC
    with pytest.raises(ValueError, match="every roll public"):
        RollEntry.objects.append(campaign=campaign, **_fields(entry, Visibility.SECRET))


@pytest.mark.parametrize(
    ("visibility", "who"), [(Visibility.SECRET, "gm"), (Visibility.GM_ONLY, "player")]
)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_hidden_roll_made_before_every_roll_went_public_is_not_followed_up(
    client, party, visibility, who, htmx
):
    """Its follow-up would keep the roll's hidden audience, which the campaign no longer allows
    (that was a 500), and making it public would give the roll away: a 4xx, nothing written."""
    hidden = roll_athletics(client, party, visibility, as_user=who)
    party.campaign.force_public_rolls = True
    party.campaign.save()
    client.force_login(getattr(party, who))
    page = client.get(hidden.get_absolute_url()).content.decode()
    assert follow_url(hidden, "destiny") not in page
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(follow_url(hidden, "destiny"), headers=headers)
    # htmx gets the card back with the reason in it (static/js/feedback.js), a plain POST a 4xx.
    assert response.status_code == 200 if htmx else 400 <= response.status_code < 500
    assert "every roll public" in response.content.decode()
    assert not RollEntry.objects.filter(follows=hidden).exists()


def test_the_gm_sets_all_rolls_public_on_the_campaign_form(client, party):
    campaign = party.campaign
    client.force_login(party.gm)
    response = client.post(
        f"/campaigns/{campaign.pk}/edit/",
        {"name": campaign.name, "description": "", "force_public_rolls": "on"},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.force_public_rolls


def test_a_hidden_npcs_public_rolls_stay_hidden_from_players_until_revealed(client, party):
    npc = CharacterFactory(
        campaign=party.campaign, owner=party.gm, is_npc=True, hidden_from_players=True
    )
    template = roll_athletics(client, party, Visibility.PUBLIC)
    npc_fields = {"character": npc, "character_name": "The Lurker", "user": party.gm}
    entry = RollEntry.objects.append(
        campaign=party.campaign, **(_fields(template, "public") | npc_fields)
    )
    client.force_login(party.other_player)
    log = client.get(f"/campaigns/{party.campaign.pk}/log/").content.decode()
    assert "The Lurker" not in log
    assert client.get(entry.get_absolute_url()).status_code == 404
    client.force_login(party.gm)
    client.post(reverse("roll_reveal", args=[entry.pk]))
    client.force_login(party.other_player)
    assert client.get(entry.get_absolute_url()).status_code == 200


def _fields(entry, visibility):
    names = [
        "character",
        "user",
        "character_name",
        "username",
        "system",
        "kind",
        "label",
        "options",
        "pool",
        "breakdown",
        "faces",
        "outcome",
        "outcome_label",
        "detail",
        "result",
        "odds",
        "odds_display",
        "odds_table",
        "resource_changes",
    ]
    return {name: getattr(entry, name) for name in names} | {"visibility": visibility}


def test_the_sql_and_python_rules_agree(client, party):
    """visible_to/readable_by (SQL) and is_known_to/is_readable_by (Python) say the same thing."""
    entries = [
        roll_athletics(client, party, v)
        for v in (Visibility.PUBLIC, Visibility.GM_ONLY, Visibility.BLIND)
    ]
    entries.append(roll_athletics(client, party, Visibility.SECRET, as_user="gm"))
    client.force_login(party.gm)
    client.post(reverse("roll_reveal", args=[entries[2].pk]))  # one revealed blind roll
    entries.append(roll_athletics(client, party, Visibility.BLIND))
    campaign = party.campaign
    for membership in campaign.memberships.all():
        known = set(RollEntry.objects.visible_to(membership).values_list("pk", flat=True))
        readable = set(RollEntry.objects.readable_by(membership).values_list("pk", flat=True))
        annotated = {e.pk: e.readable for e in RollEntry.objects.visible_to(membership)}
        for entry in RollEntry.objects.filter(campaign=campaign):
            fresh = RollEntry.objects.get(pk=entry.pk)
            assert (entry.pk in known) == fresh.is_known_to(membership), (membership, entry)
            assert (entry.pk in readable) == fresh.is_readable_by(membership), (membership, entry)
            if entry.pk in annotated:
                assert annotated[entry.pk] == (entry.pk in readable)


# --- hiddenness is frozen into the entry when it is written ---------------------------------------


def _npc_roll(client, party, npc):
    client.force_login(party.gm)
    athletics = npc.cogent.skills.get(name="Athletics")
    response = client.post(
        roll_url(npc, "cogent-skill", athletics),
        {"challenge_level": 2, "extra_penalty": 0, "visibility": Visibility.PUBLIC},
    )
    assert response.status_code == 302, response.content.decode()
    return latest()


def _player_reads(client, party, entry):
    """Does ben read ``entry`` anywhere: permalink, log page, JSON export?"""
    client.force_login(party.other_player)
    campaign = party.campaign.pk
    permalink = client.get(entry.get_absolute_url()).status_code == 200
    log = client.get(f"/campaigns/{campaign}/log/").content.decode()
    export = b"".join(client.get(reverse("campaign_log_json", args=[campaign])).streaming_content)
    in_log = f'href="{entry.get_absolute_url()}"' in log
    assert in_log == permalink == (entry.hash in export.decode()), entry
    return permalink


@pytest.mark.parametrize("change", ["delete", "unhide"])
def test_a_hidden_npcs_rolls_stay_hidden_whatever_happens_to_the_npc_later(client, party, change):
    npc = CharacterFactory(
        campaign=party.campaign,
        owner=party.gm,
        is_npc=True,
        hidden_from_players=True,
        name="The Lurker",
    )
    entry = _npc_roll(client, party, npc)
    assert not _player_reads(client, party, entry)
    client.force_login(party.gm)
    if change == "delete":
        assert client.post(reverse("character_delete", args=[npc.pk])).status_code == 302
        assert not type(npc).objects.filter(pk=npc.pk).exists()
    else:
        npc.hidden_from_players = False
        npc.save()
    assert not _player_reads(client, party, entry)
    # Only the GM's reveal opens it — and the reveal itself reaches the players.
    client.force_login(party.gm)
    assert client.post(reverse("roll_reveal", args=[entry.pk])).status_code == 302
    assert _player_reads(client, party, entry)
    reveal = latest()
    assert reveal.kind == Kind.REVEAL and _player_reads(client, party, reveal)


def test_hiding_an_npc_hides_its_rolls_from_then_on_not_the_ones_already_seen(client, party):
    npc = CharacterFactory(campaign=party.campaign, owner=party.gm, is_npc=True)
    seen = _npc_roll(client, party, npc)
    npc.hidden_from_players = True
    npc.save()
    later = _npc_roll(client, party, npc)
    assert _player_reads(client, party, seen)
    assert not _player_reads(client, party, later)
    assert (seen.hidden_character, later.hidden_character) == (False, True)
