"""Linking a Discord user to a Poolside account, and a channel to a campaign: who may, what an
unlinked user or an unbound channel is told, and the deferred answer to a bind, edited by the
task worker through (a stand-in for) Discord's API."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from discord.models import ChannelBinding, DiscordLink, LinkCode
from log.models import RollEntry
from tests.discord.helpers import (
    APPLICATION,
    CHANNEL,
    GUILD,
    MANAGE_CHANNELS,
    TALKS,
    autocomplete,
    bind,
    command,
    is_private,
    post,
    target_value,
)
from tests.factories import CampaignFactory, ChannelBindingFactory
from tests.rolls.helpers import athletics
from tests.rolls.receiver import run_worker
from tests.worlds import build_party

pytestmark = pytest.mark.django_db

DISCORD_USER = "910000000000000001"


def _link_url(answer):
    text = answer["data"]["content"]
    url = next(word for word in text.split() if word.startswith("https://poolside.example/"))
    return url.removeprefix("https://poolside.example")


def test_link_gives_a_private_one_time_link_that_links_the_account(client, key, party):
    answer = post(client, key, command(DISCORD_USER, "poolside", "link")).json()
    assert is_private(answer)
    url = _link_url(answer)
    assert url.startswith("/discord/link/")
    # Only the code's digest is stored.
    code = url.rstrip("/").rsplit("/", 1)[1]
    assert not LinkCode.objects.filter(digest=code).exists()
    # Logged out, the page asks for a login first.
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(party.player)
    page = client.get(url)
    assert page.status_code == 200 and "Link my Discord account" in page.content.decode()
    assert not DiscordLink.objects.exists()  # a GET links nothing
    done = client.post(url)
    assert done.status_code == 302 and done["Location"] == reverse("account")
    link = DiscordLink.objects.get()
    assert (link.user, link.discord_user) == (party.player, DISCORD_USER)
    # Once only.
    assert client.post(url).status_code == 404
    assert client.get(url).status_code == 404
    account = client.get(reverse("account")).content.decode()
    assert "Unlink Discord" in account


def test_an_expired_or_unknown_link_links_nothing(client, key, party):
    url = _link_url(post(client, key, command(DISCORD_USER, "poolside", "link")).json())
    LinkCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(party.player)
    assert client.post(url).status_code == 404
    assert client.post(reverse("discord_link", args=["nothing-of-ours"])).status_code == 404
    assert not DiscordLink.objects.exists()


def test_unlink_on_the_account_page(client, table):
    client.force_login(table.party.player)
    assert client.get(reverse("discord_unlink")).status_code == 405
    response = client.post(reverse("discord_unlink"))
    assert response.status_code == 302
    assert not DiscordLink.objects.filter(user=table.party.player).exists()
    assert DiscordLink.objects.filter(user=table.party.gm).exists()  # only one's own
    assert "Not linked to Discord" in client.get(reverse("account")).content.decode()


def test_an_unlinked_user_is_told_to_link_and_nothing_happens(client, key, table):
    party = table.party
    roll = command(
        "919999999999999999",
        "roll",
        target=target_value(party.pc, "cogent-skill", athletics(party.pc)),
    )
    answer = post(client, key, roll).json()
    assert is_private(answer) and "/poolside link" in answer["data"]["content"]
    assert not RollEntry.objects.exists()
    hints = post(client, key, autocomplete("919999999999999999", "roll", "target", target=""))
    assert hints.json() == {"type": 8, "data": {"choices": []}}


def test_an_unbound_channel_or_a_non_member_gets_only_a_private_message(client, key, table):
    party = table.party
    value = target_value(party.pc, "cogent-skill", athletics(party.pc))
    elsewhere = command(table.id("player"), "roll", target=value)
    elsewhere["channel_id"] = "800000000000000999"
    answer = post(client, key, elsewhere).json()
    assert is_private(answer) and "/poolside-bind" in answer["data"]["content"]
    stranger = post(client, key, command(table.id("nonmember"), "roll", target=value)).json()
    assert is_private(stranger) and "not a member" in stranger["data"]["content"]
    hints = post(client, key, autocomplete(table.id("nonmember"), "roll", "target", target=""))
    assert hints.json()["data"]["choices"] == []
    assert not RollEntry.objects.exists()


def test_only_a_gm_binds_a_channel_to_their_own_campaign(client, key, table):
    party = table.party
    ChannelBinding.objects.all().delete()
    mine = party.campaign.pk
    for who in ("player", "observer", "nonmember"):
        answer = post(client, key, bind(table.id(who), mine))
        assert is_private(answer.json()) and "GM of" in answer.json()["data"]["content"], who
    someone_elses = CampaignFactory()
    answer = post(client, key, bind(table.id("gm"), someone_elses.pk))
    assert "GM of" in answer.json()["data"]["content"]
    assert not ChannelBinding.objects.exists()
    # The GM's autocomplete offers their own campaigns only.
    CampaignFactory(gm=party.gm, name="Another of mine")
    hints = post(
        client, key, autocomplete(table.id("gm"), "poolside-bind", "campaign", campaign="")
    )
    names = [choice["name"] for choice in hints.json()["data"]["choices"]]
    assert len(names) == 2 and any(party.campaign.name in n for n in names)
    player_hints = post(
        client, key, autocomplete(table.id("player"), "poolside-bind", "campaign", campaign="")
    )
    assert player_hints.json()["data"]["choices"] == []


def test_a_channel_that_plays_a_campaign_is_not_taken_over(client, key, table):
    other_gm_campaign = CampaignFactory(gm=table.party.gm, system=table.party.campaign.system)
    answer = post(client, key, bind(table.id("gm"), other_gm_campaign.pk)).json()
    assert "unbinds it first" in answer["data"]["content"]
    assert ChannelBinding.objects.get().campaign == table.party.campaign


def test_a_server_plays_one_system(client, key, table):
    dad6 = CampaignFactory(gm=table.party.gm, system="dad6")
    other_channel = bind(table.id("gm"), dad6.pk)
    other_channel["channel_id"] = "800000000000000777"
    answer = post(client, key, other_channel).json()
    assert is_private(answer) and "another rule system" in answer["data"]["content"]
    assert ChannelBinding.objects.count() == 1


def test_unbind_is_the_gm_s(client, key, table):
    refused = post(client, key, command(table.id("player"), "poolside", "unbind")).json()
    assert is_private(refused) and "Only the campaign's GM, or" in refused["data"]["content"]
    assert ChannelBinding.objects.exists()
    done = post(client, key, command(table.id("gm"), "poolside", "unbind")).json()
    assert is_private(done) and not ChannelBinding.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_binding_defers_registers_the_server_s_commands_and_edits_the_answer(
    client, key, discord_api
):
    party = build_party("cold_stars")
    link = DiscordLink.objects.create(user=party.gm, discord_user="920000000000000001")
    sent = bind(link.discord_user, party.campaign.pk, MANAGE_CHANNELS)
    answer = post(client, key, sent).json()
    # Deferred and private: Discord shows "thinking…" to the GM alone meanwhile.
    assert answer == {"type": 5, "data": {"flags": 64}}
    binding = ChannelBinding.objects.get()
    assert (binding.channel, binding.guild, binding.campaign) == (CHANNEL, GUILD, party.campaign)
    assert discord_api.calls == []  # nothing called while Discord waited

    run_worker()
    register, edit = discord_api.calls
    assert register.method == "PUT"
    assert register.path == f"/api/v10/applications/{APPLICATION}/guilds/{GUILD}/commands"
    assert register.headers["Authorization"] == "Bot test-bot-token"
    roll = next(c for c in register.body if c["name"] == "roll")
    assert {"ability", "risk", "modification"} <= {o["name"] for o in roll["options"]}
    assert edit.method == "PATCH"
    assert edit.path == f"/api/v10/webhooks/{APPLICATION}/{sent['token']}/messages/@original"
    assert "Authorization" not in edit.headers  # the interaction's token is the credential
    assert "now plays" in edit.body["content"] and "/roll" in edit.body["content"]


@pytest.mark.django_db(transaction=True)
def test_a_failed_registration_is_told_in_the_deferred_answer(client, key, discord_api):
    party = build_party()
    link = DiscordLink.objects.create(user=party.gm, discord_user="920000000000000002")
    discord_api.refuse = {"PUT"}
    post(client, key, bind(link.discord_user, party.campaign.pk))
    run_worker()
    register, edit = discord_api.calls
    assert register.method == "PUT"
    text = edit.body["content"]
    assert "failed" in text and "Missing Access" in text and "discord_commands" in text


def test_a_bound_channel_of_a_deleted_campaign_goes_with_it(key):
    binding = ChannelBindingFactory()
    binding.campaign.delete()
    assert not ChannelBinding.objects.exists()


def test_binding_needs_the_members_permission_to_manage_the_server(client, key, table):
    """Channel squatting (issue 50): a linked GM of any campaign who can merely type in a
    channel bound it to their own campaign, and the server's one system went with it."""
    ChannelBinding.objects.all().delete()
    squatter = CampaignFactory(gm=table.party.player, system=table.party.campaign.system)
    for permissions in (TALKS, "", "not a number", "1" * 41):
        answer = post(client, key, bind(table.id("player"), squatter.pk, permissions)).json()
        assert is_private(answer) and "Manage Server" in answer["data"]["content"], permissions
    no_member = bind(table.id("player"), squatter.pk)
    del no_member["member"]["permissions"]
    assert "Manage Server" in post(client, key, no_member).json()["data"]["content"]
    assert not ChannelBinding.objects.exists()
    # Manage Channels or Manage Server (or Administrator) in this channel will do.
    post(client, key, bind(table.id("gm"), table.party.campaign.pk, MANAGE_CHANNELS))
    assert ChannelBinding.objects.get().campaign == table.party.campaign


def test_a_server_manager_unbinds_a_squatted_channel(client, key, table):
    squatter = CampaignFactory(gm=table.party.player, system=table.party.campaign.system)
    ChannelBinding.objects.update(campaign=squatter)
    # The table's GM, not a member of the squatter's campaign and no server manager: refused.
    refused = post(client, key, command(table.id("gm"), "poolside", "unbind")).json()
    assert is_private(refused) and "not a member" in refused["data"]["content"]
    assert ChannelBinding.objects.exists()
    # A server manager — linked or not — ends it.
    unbind = command("930000000000000001", "poolside", "unbind")
    unbind["member"]["permissions"] = MANAGE_CHANNELS
    done = post(client, key, unbind).json()
    assert is_private(done) and "no longer plays" in done["data"]["content"]
    assert not ChannelBinding.objects.exists()
    again = post(client, key, unbind | {"id": "930000000000000002"}).json()
    assert "plays no Poolside campaign" in again["data"]["content"]


def test_no_link_code_is_kept_in_any_row(client, key, party):
    """The stored answer of ``/poolside link`` held the link in clear (issue 50): a code read
    from the database linked a stranger. Every row of every table is searched for it."""
    sent = command(DISCORD_USER, "poolside", "link")
    url = _link_url(post(client, key, sent).json())
    code = url.rstrip("/").rsplit("/", 1)[1]
    assert code not in all_rows()
    # A retry of the interaction gets the stored answer: no code in it either.
    again = post(client, key, sent).json()
    assert is_private(again) and "/poolside link" in again["data"]["content"]
    assert code not in str(again)
    client.force_login(party.player)
    assert client.post(url).status_code == 302
    assert code not in all_rows()


def all_rows() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        dump = []
        for table in tables:
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            dump.extend(str(row) for row in cursor.fetchall())
    return "\n".join(dump)
