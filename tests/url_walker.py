"""Walking the URL configuration, and how to build each pattern's arguments for a real object of
a furnished party per system (tests/worlds.py). tests/test_url_permissions.py checks every URL
with them; tests/test_cache_control.py and tests/test_bad_input_rolls.py reuse them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from log.tokens import entry_token
from sheets.models import System
from tests.worlds import Party

# The Django admin's own URLs: staff-only by Django's admin site, checked by test_admin_is_staff_only.
ADMIN_NAMESPACE = "admin"


# The API's URLs (api/v1.py): named "api:…", answered with a token, not a session.
API_NAMESPACE = "api"


def walk(
    resolver: URLResolver | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, Any]]:
    """Every named pattern outside the admin, as (name, pattern), through nested resolvers; a
    namespaced include's names as ``namespace:name``, as ``reverse`` takes them."""
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == ADMIN_NAMESPACE:
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            if not entry.name:
                raise AssertionError(f"The URL {prefix}{entry.pattern} has no name: name it.")
            yield namespace + entry.name, prefix + str(entry.pattern)


def is_api(name: str) -> bool:
    return name.startswith(API_NAMESPACE + ":")


def walked() -> dict[str, str]:
    return dict(walk())


def with_arguments() -> dict[str, str]:
    return {name: route for name, route in walked().items() if "<" in route}


# URL name -> how to build its kwargs for a real object of ``parties`` (a furnished party per
# system). Patterns that take arguments but name nothing inside a campaign say why in
# OUTSIDE_CAMPAIGN.
T = dict[str, Party]
Build = Callable[[T], dict[str, Any]]
COGENT, DAD6, STARS = System.COGENT, System.DAD6, System.COLD_STARS


def campaign(system: str = COGENT) -> Build:
    return lambda t: {"pk": t[system].campaign.pk}


def pc(system: str = COGENT) -> Build:
    return lambda t: {"pk": t[system].pc.pk}


def npc(system: str = COGENT) -> Build:
    return lambda t: {"pk": t[system].npc.pk}


def pc_row(system: str, param: str, row: str) -> Build:
    return lambda t: {"pk": t[system].pc.pk, param: t[system].rows[row].pk}


def portrait(system: str = COGENT) -> Build:
    """The PC's portrait file: a furnished party's pc has one; an unfurnished one's address
    names none (a 404 for everyone)."""
    return lambda t: {
        "pk": t[system].pc.pk,
        "version": t[system].pc.portrait or "a" * 22,
        "size": "thumb",
    }


def member(system: str = COGENT) -> Build:
    return lambda t: {"pk": t[system].campaign.pk, "member_pk": t[system].player_membership.pk}


KWARGS: dict[str, Build] = {
    **dict.fromkeys(
        (
            "campaign_detail",
            "campaign_edit",
            "campaign_leave",
            "invite_create",
            "character_create",
            "character_import",
            "campaign_log",
            "campaign_log_csv",
            "campaign_log_json",
            "seen_head",
            "seen_export",
            "campaign_stats",
            "campaign_events",
            "campaign_dashboard",
            "call_create",
            "session_bar",
            "session_start",
            "session_scene",
            "session_end",
            "message_post",
            "contest_create",
            "assist_start",
            "campaign_webhooks",
            "webhook_witness",
        ),
        campaign(),
    ),
    "campaign_skills": campaign(STARS),
    "resources_refresh": campaign(STARS),
    # furnish() starts session 1, which the entry belongs to.
    **dict.fromkeys(
        ("session_recap", "session_recap_post"),
        lambda t: {"pk": t[COGENT].campaign.pk, "number": 1},
    ),
    "member_remove": member(),
    "member_make_gm": member(),
    "invite_revoke": lambda t: {"pk": t[COGENT].campaign.pk, "invite_pk": t[COGENT].invite.pk},
    "webhook_delete": lambda t: {"pk": t[COGENT].campaign.pk, "webhook_pk": t[COGENT].webhook.pk},
    "webhook_action": lambda t: {
        "pk": t[COGENT].campaign.pk,
        "webhook_pk": t[COGENT].webhook.pk,
        "action": "pause",
    },
    **dict.fromkeys(
        (
            "character_detail",
            "character_export",
            "character_delete",
            "character_basics",
            "character_portrait",
            "character_stats",
            "character_prompts",
            "table_character",
            "cogent_vocation_add",
            "cogent_injury_add",
            "cogent_disability_add",
            "assist_ask",
        ),
        pc(),
    ),
    "sheet_section": lambda t: pc(COGENT)(t) | {"section": "skills"},
    "character_portrait_file": portrait(),
    "character_resources": pc(STARS),
    "table_roll": npc(STARS),
    "dad6_skill_add": pc(DAD6),
    "cogent_vocation_delete": pc_row(COGENT, "row_pk", "vocation"),
    "cogent_subskill_add": pc_row(COGENT, "row_pk", "vocation"),
    "cogent_subskill_delete": pc_row(COGENT, "row_pk", "subskill"),
    "cogent_injury_delete": pc_row(COGENT, "row_pk", "injury"),
    "cogent_disability_delete": pc_row(COGENT, "row_pk", "disability"),
    "dad6_skill_delete": pc_row(DAD6, "row_pk", "skill"),
    "dad6_bane_delete": pc_row(DAD6, "row_pk", "bane"),
    "cold_stars_domain_add": pc_row(STARS, "row_pk", "skill"),
    "cold_stars_domain_delete": pc_row(STARS, "row_pk", "domain"),
    **dict.fromkeys(
        ("roll_panel", "roll_odds", "roll_create"),
        lambda t: pc_row(DAD6, "target_pk", "target")(t) | {"kind": t[DAD6].rows["kind"]},
    ),
    "roll_entry": lambda t: {"pk": t[COGENT].entry.pk},
    "roll_reveal": lambda t: {"pk": t[COGENT].entry.pk},
    "message_correct": lambda t: {"pk": t[COGENT].entry.pk},
    "assist_drop": lambda t: {"pk": t[COGENT].entry.pk},
    "assist_offer": lambda t: {
        "pk": t[COGENT].pc.pk,
        "ask_pk": t[COGENT].rows["assist_request"].pk,
    },
    "roll_follow_up": lambda t: {"pk": t[COGENT].entry.pk, "action": "destiny"},
    "call_close": lambda t: {"pk": t[COGENT].call.pk},
    "contest_side": lambda t: {"pk": t[COGENT].contest.pk, "side": "a", "action": "roll"},
    "contest_choose": lambda t: {"pk": t[STARS].contest.pk},
    "contest_cancel": lambda t: {"pk": t[COGENT].contest.pk},
    # The API (api/v1.py)
    **dict.fromkeys(
        (
            "api:campaign",
            "api:log",
            "api:view",
            "api:sessions",
            "api:session_scene",
            "api:session_end",
            "api:messages",
        ),
        campaign(DAD6),
    ),
    **dict.fromkeys(("api:character", "api:targets"), pc(STARS)),
    **dict.fromkeys(
        ("api:target", "api:roll"),
        lambda t: pc_row(STARS, "target_pk", "target")(t) | {"kind": t[STARS].rows["kind"]},
    ),
    "api:entry": lambda t: {"entry_id": entry_token(t[DAD6].entry.pk)},
    "api:follow_up": lambda t: {"entry_id": entry_token(t[STARS].entry.pk), "action": "correct"},
    "api:message_correct": lambda t: {"entry_id": entry_token(t[DAD6].entry.pk)},
}


OUTSIDE_CAMPAIGN = {
    # An invite link is how a non-member joins: its page is meant for them (tests/sheets/test_invites.py).
    "invite_accept": "token",
    # Django's password reset link: a signed token for one user, nothing of a campaign.
    "password_reset_confirm": "uidb64, token",
    # One of the user's own API tokens; anyone else's is a 404 (tests/test_api.py).
    "token_revoke": "pk",
    # A portrait as Discord fetches a roll's avatar: no login, by a token this site signed, never
    # a hidden NPC's (tests/sheets/test_portrait_avatar.py).
    "portrait_avatar": "token",
    # A one-time code that /poolside link gave one Discord user; it names no campaign and links
    # only the logged-in user's own account (tests/discord/test_linking.py).
    "discord_link": "code",
}
