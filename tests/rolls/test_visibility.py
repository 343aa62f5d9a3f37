"""Per-roll visibility, filtered on the server: a hidden roll's dice, outcome and pool never reach
someone who may not read them — not in the log, the permalink, the sheet or the roll response."""

import pytest
from django.urls import reverse

from rolls.models import Kind, RollEntry, Visibility
from sheets.models import Role, System
from tests.factories import CharacterFactory, MembershipFactory
from tests.rolls.helpers import follow_url, latest, roll_url, token

pytestmark = pytest.mark.django_db

FULL, PLACEHOLDER, NOTHING = "full", "placeholder", "nothing"


@pytest.fixture
def table(client):
    """A Cogent table: GM, alice playing Rob (6d6 Athletics), bob playing Jack, an observer."""
    rob = CharacterFactory(campaign__system=System.COGENT, name="Rob")
    campaign = rob.campaign
    rob.cogent.strength = 1
    rob.cogent.save()
    rob.cogent.skills.filter(name="Athletics").update(rating=2)
    jack = CharacterFactory(campaign=campaign, name="Jack")
    observer = MembershipFactory(campaign=campaign, role=Role.OBSERVER).user
    gm = campaign.memberships.get(role=Role.GM).user
    return {
        "campaign": campaign,
        "rob": rob,
        "athletics": rob.cogent.skills.get(name="Athletics"),
        "gm": gm,
        "alice": rob.owner,
        "bob": jack.owner,
        "observer": observer,
    }


def roll(client, table, visibility, *, as_user="alice", **extra):
    client.force_login(table[as_user])
    response = client.post(
        roll_url(table["rob"], "cogent-skill", table["athletics"]),
        {"challenge_level": 2, "extra_penalty": 0, "visibility": visibility, **extra},
    )
    assert response.status_code == 302, response.content.decode()
    return latest()


def secrets_of(entry):
    """Text only a reader of the entry may see: pool in words, outcome in words, a die's label."""
    return [entry.breakdown, entry.detail, entry.dice[0].label]


def seen_by(client, table, user, entry):
    """What ``user`` gets of ``entry`` on the log, the permalink and Rob's sheet."""
    client.force_login(table[user])
    pages = {
        "log": client.get(f"/campaigns/{table['campaign'].pk}/log/"),
        "sheet": client.get(table["rob"].get_absolute_url()),
        "permalink": client.get(entry.get_absolute_url()),
    }
    for name, response in pages.items():
        if name == "permalink" and response.status_code == 404:
            continue
        assert response.status_code == 200, (name, response.status_code)
    html = {name: r.content.decode() for name, r in pages.items()}
    leaked = [s for s in secrets_of(entry) for page in html.values() if s in page]
    shown = f'id="entry-{token(entry)}"' in html["log"]
    if pages["permalink"].status_code == 404:
        assert not shown and not leaked, (user, leaked)
        return NOTHING
    if leaked:
        assert shown and all(s in html["permalink"] for s in secrets_of(entry))
        return FULL
    assert shown and "roll was made" in html["log"] and "roll was made" in html["permalink"]
    return PLACEHOLDER


@pytest.mark.parametrize(
    ("visibility", "expected"),
    [
        (Visibility.PUBLIC, {"gm": FULL, "alice": FULL, "bob": FULL, "observer": FULL}),
        (Visibility.GM_ONLY, {"gm": FULL, "alice": FULL, "bob": NOTHING, "observer": NOTHING}),
        (Visibility.BLIND, {"gm": FULL, "alice": PLACEHOLDER, "bob": NOTHING, "observer": NOTHING}),
    ],
)
def test_who_sees_a_players_roll(client, table, visibility, expected):
    entry = roll(client, table, visibility)
    assert entry.visibility == visibility and entry.roller == table["alice"]
    assert {user: seen_by(client, table, user, entry) for user in expected} == expected


def test_a_secret_roll_is_the_gms_alone(client, table):
    entry = roll(client, table, Visibility.SECRET, as_user="gm")
    seen = {
        user: seen_by(client, table, user, entry) for user in ("gm", "alice", "bob", "observer")
    }
    assert seen == {"gm": FULL, "alice": NOTHING, "bob": NOTHING, "observer": NOTHING}


def test_players_cannot_roll_secret(client, table):
    client.force_login(table["alice"])
    response = client.post(
        roll_url(table["rob"], "cogent-skill", table["athletics"]),
        {"challenge_level": 1, "extra_penalty": 0, "visibility": Visibility.SECRET},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_the_blind_roller_hears_only_that_the_roll_was_made(client, table):
    client.force_login(table["alice"])
    response = client.post(
        roll_url(table["rob"], "cogent-skill", table["athletics"]),
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


def test_follow_ups_inherit_visibility_and_the_blind_roller_cannot_make_them(client, table):
    gm_only = roll(client, table, Visibility.GM_ONLY)
    client.force_login(table["alice"])
    assert client.post(follow_url(gm_only, "destiny")).status_code == 302
    follow_up = latest()
    assert (follow_up.kind, follow_up.visibility, follow_up.roller) == (
        Kind.DESTINY,
        Visibility.GM_ONLY,
        table["alice"],
    )
    assert seen_by(client, table, "bob", follow_up) == NOTHING

    blind = roll(client, table, Visibility.BLIND)
    client.force_login(table["alice"])
    assert client.post(follow_url(blind, "destiny")).status_code == 403
    client.force_login(table["bob"])
    assert client.post(follow_url(blind, "destiny")).status_code == 404
    assert RollEntry.objects.filter(follows=blind).count() == 0


def test_the_gm_reveals_a_hidden_roll_with_a_new_entry(client, table):
    blind = roll(client, table, Visibility.BLIND)
    client.force_login(table["gm"])
    client.post(follow_url(blind, "destiny"))  # the GM may follow it up: same chain, same audience
    follow_up = latest()
    reveal_url = reverse("roll_reveal", args=[blind.pk])
    for user in ("alice", "bob"):
        client.force_login(table[user])
        assert client.post(reveal_url).status_code in (403, 404)
    assert not RollEntry.objects.filter(kind=Kind.REVEAL).exists()

    client.force_login(table["gm"])
    page = client.get(blind.get_absolute_url()).content.decode()
    assert "Reveal to everyone" in page
    response = client.post(reveal_url)
    reveal = RollEntry.objects.get(kind=Kind.REVEAL)
    assert response.status_code == 302 and response["Location"] == reveal.get_absolute_url()
    assert (reveal.reveals, reveal.visibility, reveal.faces) == (blind, "public", blind.faces)
    blind.refresh_from_db()  # the original entry is untouched
    assert blind.visibility == Visibility.BLIND
    for user in ("gm", "alice", "bob", "observer"):
        assert seen_by(client, table, user, RollEntry.objects.get(pk=blind.pk)) == FULL
        assert seen_by(client, table, user, RollEntry.objects.get(pk=follow_up.pk)) == FULL
    # Revealing again adds nothing.
    client.force_login(table["gm"])
    client.post(reveal_url)
    assert RollEntry.objects.filter(kind=Kind.REVEAL).count() == 1


def test_a_public_roll_cannot_be_revealed_and_follow_ups_are_revealed_through_their_root(
    client, table
):
    public = roll(client, table, Visibility.PUBLIC)
    client.force_login(table["gm"])
    assert "Reveal to everyone" not in client.get(public.get_absolute_url()).content.decode()
    client.post(reverse("roll_reveal", args=[public.pk]))
    assert not RollEntry.objects.filter(kind=Kind.REVEAL).exists()


def test_a_campaign_can_force_every_roll_public(client, table):
    campaign = table["campaign"]
    campaign.force_public_rolls = True
    campaign.save()
    client.force_login(table["alice"])
    panel = client.get(f"/characters/{table['rob'].pk}/roll/cogent-skill/{table['athletics'].pk}/")
    assert 'name="visibility"' not in panel.content.decode()
    entry = roll(client, table, Visibility.BLIND)
    assert entry.visibility == Visibility.PUBLIC
    with pytest.raises(ValueError, match="every roll public"):
        RollEntry.objects.append(campaign=campaign, **_fields(entry, Visibility.SECRET))


def test_the_gm_sets_all_rolls_public_on_the_campaign_form(client, table):
    campaign = table["campaign"]
    client.force_login(table["gm"])
    response = client.post(
        f"/campaigns/{campaign.pk}/edit/",
        {"name": campaign.name, "description": "", "force_public_rolls": "on"},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.force_public_rolls


def test_a_hidden_npcs_public_rolls_stay_hidden_from_players_until_revealed(client, table):
    npc = CharacterFactory(
        campaign=table["campaign"], owner=table["gm"], is_npc=True, hidden_from_players=True
    )
    template = roll(client, table, Visibility.PUBLIC)
    npc_fields = {"character": npc, "character_name": "The Lurker", "user": table["gm"]}
    entry = RollEntry.objects.append(
        campaign=table["campaign"], **(_fields(template, "public") | npc_fields)
    )
    client.force_login(table["bob"])
    log = client.get(f"/campaigns/{table['campaign'].pk}/log/").content.decode()
    assert "The Lurker" not in log
    assert client.get(entry.get_absolute_url()).status_code == 404
    client.force_login(table["gm"])
    client.post(reverse("roll_reveal", args=[entry.pk]))
    client.force_login(table["bob"])
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


def test_the_sql_and_python_rules_agree(client, table):
    """visible_to/readable_by (SQL) and is_known_to/is_readable_by (Python) say the same thing."""
    entries = [
        roll(client, table, v) for v in (Visibility.PUBLIC, Visibility.GM_ONLY, Visibility.BLIND)
    ]
    entries.append(roll(client, table, Visibility.SECRET, as_user="gm"))
    client.force_login(table["gm"])
    client.post(reverse("roll_reveal", args=[entries[2].pk]))  # one revealed blind roll
    entries.append(roll(client, table, Visibility.BLIND))
    campaign = table["campaign"]
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


def _npc_roll(client, table, npc):
    client.force_login(table["gm"])
    athletics = npc.cogent.skills.get(name="Athletics")
    response = client.post(
        roll_url(npc, "cogent-skill", athletics),
        {"challenge_level": 2, "extra_penalty": 0, "visibility": Visibility.PUBLIC},
    )
    assert response.status_code == 302, response.content.decode()
    return latest()


def _player_reads(client, table, entry):
    """Does bob read ``entry`` anywhere: permalink, log page, JSON export?"""
    client.force_login(table["bob"])
    campaign = table["campaign"].pk
    permalink = client.get(entry.get_absolute_url()).status_code == 200
    log = client.get(f"/campaigns/{campaign}/log/").content.decode()
    export = b"".join(client.get(reverse("campaign_log_json", args=[campaign])).streaming_content)
    in_log = f'href="{entry.get_absolute_url()}"' in log
    assert in_log == permalink == (entry.hash in export.decode()), entry
    return permalink


@pytest.mark.parametrize("change", ["delete", "unhide"])
def test_a_hidden_npcs_rolls_stay_hidden_whatever_happens_to_the_npc_later(client, table, change):
    npc = CharacterFactory(
        campaign=table["campaign"],
        owner=table["gm"],
        is_npc=True,
        hidden_from_players=True,
        name="The Lurker",
    )
    entry = _npc_roll(client, table, npc)
    assert not _player_reads(client, table, entry)
    client.force_login(table["gm"])
    if change == "delete":
        assert client.post(reverse("character_delete", args=[npc.pk])).status_code == 302
        assert not type(npc).objects.filter(pk=npc.pk).exists()
    else:
        npc.hidden_from_players = False
        npc.save()
    assert not _player_reads(client, table, entry)
    # Only the GM's reveal opens it — and the reveal itself reaches the players.
    client.force_login(table["gm"])
    assert client.post(reverse("roll_reveal", args=[entry.pk])).status_code == 302
    assert _player_reads(client, table, entry)
    reveal = latest()
    assert reveal.kind == Kind.REVEAL and _player_reads(client, table, reveal)


def test_hiding_an_npc_hides_its_rolls_from_then_on_not_the_ones_already_seen(client, table):
    npc = CharacterFactory(campaign=table["campaign"], owner=table["gm"], is_npc=True)
    seen = _npc_roll(client, table, npc)
    npc.hidden_from_players = True
    npc.save()
    later = _npc_roll(client, table, npc)
    assert _player_reads(client, table, seen)
    assert not _player_reads(client, table, later)
    assert (seen.hidden_character, later.hidden_character) == (False, True)
