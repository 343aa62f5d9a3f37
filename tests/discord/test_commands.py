"""The command definitions within Discord's documented limits, for every rule system, and
`manage.py discord_commands` registering them (against the stand-in) or printing them."""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from sheets.models import System
from sheets.registry import rule_system_keys
from tests.discord.helpers import APPLICATION, GUILD
from tests.factories import ChannelBindingFactory

# Discord: "Application Command Naming" (lowercase, for chat commands) and the documented limits.
NAME = re.compile(r"^[-_\w]{1,32}$")


def _printed() -> dict:
    out = StringIO()
    call_command("discord_commands", dry_run=True, stdout=out)
    return json.loads(out.getvalue())


def _check_options(options: list) -> None:
    assert len(options) <= 25
    required = [bool(o.get("required")) for o in options]
    assert required == sorted(required, reverse=True), "required options come first"
    assert len({o["name"] for o in options}) == len(options)
    for option in options:
        assert NAME.match(option["name"]) and option["name"] == option["name"].lower()
        assert 1 <= len(option["description"]) <= 100, option
        choices = option.get("choices", [])
        assert len(choices) <= 25
        assert not (choices and option.get("autocomplete")), "choices or autocomplete, not both"
        for choice in choices:
            assert 1 <= len(choice["name"]) <= 100 and len(choice["value"]) <= 100
        if option["type"] == 1:
            _check_options(option.get("options", []))


@pytest.mark.django_db
def test_every_command_is_within_discord_s_limits():
    printed = _printed()
    # Every registered system, the tests' own fourth one too (tests/d10pool): nothing per system
    # is written for Discord, the panel's fields are the options.
    assert set(printed) == {"global", *rule_system_keys()}
    for commands in printed.values():
        assert len(commands) <= 100
        for command in commands:
            assert NAME.match(command["name"]) and 1 <= len(command["description"]) <= 100
            _check_options(command.get("options", []))
    for system in System.values:
        roll = next(c for c in printed[system] if c["name"] == "roll")
        assert roll["options"][0]["name"] == "target" and roll["options"][0]["autocomplete"]
        assert {"visibility", "action", "call"} <= {o["name"] for o in roll["options"]}
        odds = next(c for c in printed[system] if c["name"] == "odds")
        assert "visibility" not in {o["name"] for o in odds["options"]}


@pytest.mark.django_db
def test_registering_needs_the_credentials(settings):
    settings.DISCORD_APPLICATION_ID = ""
    settings.DISCORD_BOT_TOKEN = ""
    with pytest.raises(CommandError, match="DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN"):
        call_command("discord_commands", stdout=StringIO())


@pytest.mark.django_db
def test_registering_puts_the_global_and_each_bound_server_s_commands(key, discord_api):
    ChannelBindingFactory(guild=GUILD, campaign__system=System.DAD6)
    out = StringIO()
    call_command("discord_commands", stdout=out)
    put_global, put_guild = discord_api.calls
    assert (put_global.method, put_global.path) == (
        "PUT",
        f"/api/v10/applications/{APPLICATION}/commands",
    )
    assert [c["name"] for c in put_global.body] == ["poolside", "poolside-bind"]
    # Linking is everyone's; binding is shown by default only to who may manage channels.
    poolside, bind = put_global.body
    assert "default_member_permissions" not in poolside
    assert bind["default_member_permissions"] == str(0x10)
    assert put_guild.path == f"/api/v10/applications/{APPLICATION}/guilds/{GUILD}/commands"
    roll = next(c for c in put_guild.body if c["name"] == "roll")
    assert {"difficulty", "task"} <= {o["name"] for o in roll["options"]}
    assert put_guild.headers["Authorization"] == "Bot test-bot-token"
    assert "DAD6" in out.getvalue()


@pytest.mark.django_db
def test_a_refusal_from_discord_is_said(key, discord_api):
    discord_api.refuse = {"PUT"}
    with pytest.raises(CommandError, match="403"):
        call_command("discord_commands", stdout=StringIO())
