"""Every URL the project serves has a permission test, and every object inside a campaign answers
404 to non-members.

The URL configuration is walked (nested ``include()``s too), so a new URL turns this module red
until it is registered: here in ``PERMISSION_TESTS`` with the tests that check who may use it and,
when it takes arguments, in ``KWARGS`` (tests/url_walker.py) with how to build them for a real
object. See docs/permissions.md, "Keeping every URL covered".
"""

from __future__ import annotations

import importlib
import inspect

import pytest
from django.urls import reverse

from tests.factories import CampaignFactory, UserFactory
from tests.fuzz import snapshot  # every row of every app table
from tests.url_walker import KWARGS, OUTSIDE_CAMPAIGN, is_api, walked, with_arguments
from tests.worlds import build_parties

# The Django admin's own URLs: staff-only by Django's admin site, checked by test_admin_is_staff_only.

# URL name -> the tests ("module::function") that check its permission rules. Each must exist and
# its module must name the URL (or use the helper that builds it), so an entry can't point at
# nothing. The generic tests below (non-member 404, anonymous) cover every pattern on top of these.
PERMISSION_TESTS: dict[str, tuple[str, ...]] = {
    # Django's auth views: open to everyone by design; these check they work and log in/out.
    "login": ("tests.sheets.test_campaigns::test_login_logout",),
    "logout": ("tests.sheets.test_campaigns::test_login_logout",),
    "password_change": ("tests.sheets.test_campaigns::test_password_change",),
    "password_change_done": ("tests.sheets.test_campaigns::test_password_change",),
    "password_reset": ("tests.sheets.test_campaigns::test_password_reset_sends_a_working_link",),
    "password_reset_done": (
        "tests.sheets.test_campaigns::test_password_reset_sends_a_working_link",
    ),
    "password_reset_confirm": (
        "tests.sheets.test_campaigns::test_password_reset_sends_a_working_link",
    ),
    "password_reset_complete": (
        "tests.sheets.test_campaigns::test_password_reset_sends_a_working_link",
    ),
    # sheets/urls.py
    "home": (
        "tests.sheets.test_permissions::test_home_lists_only_my_campaigns",
        "tests.sheets.test_permissions::test_home_for_anonymous_is_the_welcome_page",
    ),
    "signup": ("tests.sheets.test_campaigns::test_signup_logs_in",),
    "demo_login": (
        "tests.sheets.test_landing::test_demo_logins_are_off_by_default",
        "tests.sheets.test_landing::test_a_demo_user_whose_password_changed_is_refused",
        "tests.sheets.test_landing::test_only_the_demo_users_can_be_logged_in_as",
    ),
    "campaign_create": ("tests.sheets.test_campaigns::test_creator_becomes_gm",),
    "campaign_detail": ("tests.sheets.test_permissions::test_campaign_pages",),
    "campaign_edit": ("tests.sheets.test_permissions::test_campaign_pages",),
    "campaign_leave": ("tests.sheets.test_permissions::test_leave",),
    "member_remove": ("tests.sheets.test_permissions::test_member_management_is_gm_only",),
    "member_make_gm": ("tests.sheets.test_permissions::test_member_management_is_gm_only",),
    "invite_create": ("tests.sheets.test_permissions::test_invite_create_and_revoke_are_gm_only",),
    "invite_revoke": ("tests.sheets.test_permissions::test_invite_create_and_revoke_are_gm_only",),
    "portrait_avatar": (
        "tests.sheets.test_portrait_avatar::test_a_roll_goes_out_with_its_characters_portrait",
        "tests.sheets.test_portrait_avatar::test_a_hidden_npcs_portrait_never_leaves",
    ),
    "invite_accept": (
        "tests.sheets.test_invites::test_anonymous_visitor_is_asked_to_log_in_and_comes_back",
        "tests.sheets.test_invites::test_unknown_token_is_404",
    ),
    "campaign_skills": (
        "tests.sheets.test_permissions::test_campaign_skills_page",
        "tests.sheets.test_permissions::test_campaign_skill_add_is_gm_only",
    ),
    "character_create": ("tests.sheets.test_permissions::test_campaign_pages",),
    "character_import": ("tests.sheets.test_permissions::test_campaign_pages",),
    "character_detail": ("tests.sheets.test_permissions::test_character_read",),
    "character_export": ("tests.sheets.test_permissions::test_character_read",),
    "character_delete": ("tests.sheets.test_permissions::test_character_delete_page",),
    "character_portrait": (
        "tests.sheets.test_portrait_access::test_the_portrait_page_is_for_the_characters_editors",
        "tests.sheets.test_portrait_access::test_others_cannot_remove_a_portrait",
    ),
    "character_portrait_file": (
        "tests.sheets.test_portrait_access::"
        "test_portrait_files_are_served_to_the_characters_readers",
        "tests.sheets.test_portrait_access::"
        "test_a_hidden_npcs_portrait_is_404_to_players_however_the_address_is_made",
    ),
    "sheet_section": (
        "tests.sheets.test_sheet_modes::test_others_can_neither_open_nor_save_a_section",
        "tests.sheets.test_sheet_modes::test_anonymous_is_sent_to_log_in",
        "tests.sheets.test_permissions::test_every_edit_endpoint_on_the_players_character",
    ),
    **{
        name: (
            "tests.sheets.test_permissions::test_every_edit_endpoint_on_the_players_character",
            "tests.sheets.test_permissions::test_nobody_but_the_gm_edits_a_hidden_npc",
        )
        for name in (
            "character_basics",
            "cogent_vocation_add",
            "cogent_vocation_delete",
            "cogent_subskill_add",
            "cogent_subskill_delete",
            "cogent_injury_add",
            "cogent_injury_delete",
            "cogent_disability_add",
            "cogent_disability_delete",
            "dad6_skill_add",
            "dad6_skill_delete",
            "dad6_bane_delete",
            "cold_stars_domain_add",
            "cold_stars_domain_delete",
        )
    },
    # rolls/urls.py
    "roll_panel": (
        "tests.rolls.test_permissions::test_panel_odds_and_roll",
        "tests.rolls.test_permissions::test_a_row_of_another_character_is_a_404",
    ),
    "roll_odds": ("tests.rolls.test_permissions::test_panel_odds_and_roll",),
    "roll_create": ("tests.rolls.test_permissions::test_panel_odds_and_roll",),
    "roll_entry": ("tests.rolls.test_permissions::test_log_and_permalink",),
    "roll_reveal": (
        "tests.rolls.test_visibility::test_the_gm_reveals_a_hidden_roll_with_a_new_entry",
    ),
    "roll_follow_up": (
        "tests.rolls.test_permissions::test_follow_up",
        "tests.rolls.test_permissions::test_unknown_follow_up_is_a_404",
    ),
    "campaign_log": ("tests.rolls.test_permissions::test_log_and_permalink",),
    "campaign_log_csv": ("tests.rolls.test_log_export::test_non_members_get_404",),
    "campaign_log_json": ("tests.rolls.test_log_export::test_non_members_get_404",),
    "campaign_stats": ("tests.rolls.test_log_stats::test_permissions",),
    "character_stats": ("tests.rolls.test_log_stats::test_permissions",),
    "campaign_events": (
        "tests.rolls.test_live_stream::test_anonymous_users_are_sent_to_log_in",
        "tests.rolls.test_live_stream::test_non_members_and_unknown_campaigns_are_a_404",
    ),
    "campaign_dashboard": ("tests.rolls.test_gm_dashboard::test_permissions",),
    "character_resources": ("tests.rolls.test_gm_dashboard::test_resource_edit_permissions",),
    "resources_refresh": ("tests.rolls.test_refresh::test_only_the_gm_refreshes",),
    "character_prompts": (
        "tests.rolls.test_gm_calls::test_gm_creates_a_call_and_only_targets_are_prompted",
    ),
    "table_character": ("tests.rolls.test_roll_updates::test_a_table_card_is_the_gms_alone",),
    "table_roll": ("tests.rolls.test_gm_quick_rolls::test_who_may_quick_roll",),
    "call_create": ("tests.rolls.test_gm_calls::test_close_and_permissions",),
    **dict.fromkeys(
        ("session_bar", "session_start", "session_scene", "session_end"),
        ("tests.rolls.test_sessions::test_only_the_gm_runs_sessions",),
    ),
    **dict.fromkeys(
        ("session_recap", "session_recap_post"),
        ("tests.rolls.test_session_recaps::test_who_reads_and_who_posts_a_recap",),
    ),
    "message_post": (
        "tests.rolls.test_messages::test_what_may_not_be_said_is_refused_beside_the_field_and_kept",
    ),
    "message_correct": (
        "tests.rolls.test_messages::test_a_correction_is_a_new_entry_that_shows_the_edit",
    ),
    "call_close": ("tests.rolls.test_gm_calls::test_close_and_permissions",),
    "contest_create": ("tests.rolls.test_gm_contests::test_contest_permissions",),
    "contest_side": ("tests.rolls.test_gm_contests::test_contest_permissions",),
    "contest_choose": (
        "tests.rolls.test_gm_contests::test_cold_stars_active_even_lets_the_initiator_choose",
    ),
    "contest_cancel": ("tests.rolls.test_gm_contests::test_contest_permissions",),
    "assist_drop": ("tests.rolls.test_cogent_assists::test_dropping_an_assist",),
    "assist_ask": ("tests.rolls.test_cogent_assists::test_ask_for_an_assist_permissions",),
    "assist_offer": ("tests.rolls.test_cogent_assists::test_ask_for_an_assist_permissions",),
    "assist_start": (
        "tests.rolls.test_cogent_assists::test_the_gm_table_assist_form_refuses_bad_input",
    ),
    # The account page (sheets/views/accounts.py)
    "account": ("tests.test_api::test_only_your_own_tokens",),
    "token_revoke": ("tests.test_api::test_only_your_own_tokens",),
    # The API (api/v1.py): every URL also goes through the token-based generic tests below.
    "api:api-root": (
        "tests.test_url_permissions::test_the_api_asks_every_caller_for_a_token",
        "tests.test_api_edges::test_the_root_is_an_index_of_the_api_without_a_token",
    ),
    "api:openapi-json": ("tests.test_api::test_the_schema_and_the_docs_page",),
    "api:openapi-view": ("tests.test_api::test_the_schema_and_the_docs_page",),
    "api:me": ("tests.test_api::test_a_token_reads_as_its_user_and_is_stored_hashed",),
    "api:campaigns": ("tests.sheets.test_api::test_campaigns_are_the_users_own",),
    "api:campaign": ("tests.sheets.test_api::test_campaigns_are_the_users_own",),
    "api:character": ("tests.sheets.test_api::test_characters_as_the_pages_allow",),
    "api:targets": ("tests.rolls.test_api::test_the_panel_as_data_is_the_roller_s",),
    "api:target": ("tests.rolls.test_api::test_the_panel_as_data_is_the_roller_s",),
    "api:roll": (
        "tests.rolls.test_api::test_who_may_roll_through_the_api",
        "tests.rolls.test_api::test_a_read_token_cannot_roll_or_follow_up",
    ),
    "api:entry": ("tests.rolls.test_api::test_visibility_through_the_api_equals_the_pages",),
    "api:follow_up": (
        "tests.rolls.test_api::test_follow_ups_offered_and_made",
        "tests.rolls.test_api::test_a_read_token_cannot_roll_or_follow_up",
    ),
    "api:log": ("tests.rolls.test_api::test_visibility_through_the_api_equals_the_pages",),
    **dict.fromkeys(
        ("api:sessions", "api:session_scene", "api:session_end"),
        ("tests.rolls.test_sessions::test_the_api_runs_and_lists_sessions_with_the_pages_rules",),
    ),
    "api:messages": ("tests.rolls.test_api_messages::test_posting_with_the_composers_rules",),
    "api:message_correct": (
        "tests.rolls.test_api_messages::test_corrections_are_the_authors_and_messages_only",
    ),
    # Discord (discord): a signed POST endpoint outside login — its permissions are those
    # of the linked user, tested per command — and the pages that link an account.
    "discord_interactions": (
        "tests.discord.test_endpoint::test_a_bad_signature_is_refused_before_anything_is_read",
        "tests.discord.test_linking::test_an_unlinked_user_is_told_to_link_and_nothing_happens",
        "tests.discord.test_buttons::test_anyone_else_gets_a_private_refusal",
        "tests.discord.test_linking::test_only_a_gm_binds_a_channel_to_their_own_campaign",
    ),
    "discord_link": (
        "tests.discord.test_linking::test_link_gives_a_private_one_time_link_that_links_the_account",
    ),
    "discord_unlink": ("tests.discord.test_linking::test_unlink_on_the_account_page",),
    **dict.fromkeys(
        ("keys", "keys_json", "verifier", "api:keys"),
        ("tests.rolls.test_verifiable_dice::test_the_keys_and_the_verifier_are_for_anyone",),
    ),
    **dict.fromkeys(
        ("seen_head", "seen_export"),
        ("tests.rolls.test_seen::test_only_members_get_a_view_paged_and_bad_input_refused",),
    ),
    "api:view": ("tests.rolls.test_seen::test_the_api_gives_the_same_answer",),
    "campaign_webhooks": ("tests.rolls.test_webhooks::test_only_the_gm_sees_and_changes_webhooks",),
    "webhook_action": ("tests.rolls.test_webhooks::test_only_the_gm_sees_and_changes_webhooks",),
    "webhook_delete": ("tests.rolls.test_webhooks::test_only_the_gm_sees_and_changes_webhooks",),
    "webhook_witness": ("tests.rolls.test_witness::test_who_posts_the_fingerprint_now",),
}

# Where a registered test reaches its URL through a helper rather than by name.
URL_HELPERS = {
    "roll_panel": "panel_url",
    "roll_odds": "odds_url",
    "roll_create": "roll_url",
    "roll_follow_up": "follow_url",
    "campaign_events": "events_url",
    "character_resources": "resources_url",
    "contest_side": "side_url",
    "roll_entry": "entry.get_absolute_url()",
    "roll_reveal": "/reveal/",
    "password_reset_confirm": "/reset/",
    "api:api-root": "/api/v1/",
    "api:openapi-json": "/api/v1/openapi.json",
    "api:openapi-view": "/api/v1/docs",
    "api:me": "/api/v1/me",
    "api:campaigns": "/api/v1/campaigns",
    "api:campaign": "/api/v1/campaigns/",
    "api:character": "/api/v1/characters/",
    "api:targets": "targets_url",
    "api:target": "target_url",
    "api:roll": "rolls_url",
    "api:session_scene": "/current/scenes",
    "api:session_end": "/current/end",
    "message_post": "post_message(",
    "message_correct": "correct(client",
    "discord_interactions": "post(",
    "discord_link": "_link_url",
}


def _module_source(node: str) -> str:
    """The source of the module of an existing test ``module::function`` (or a failed assert)."""
    module_name, function_name = node.split("::")
    module = importlib.import_module(module_name)
    function = getattr(module, function_name, None)
    assert callable(function), f"{node} does not exist"
    assert function_name.startswith("test_"), f"{node} is not a test"
    return inspect.getsource(module)


def test_every_url_has_a_permission_test():
    missing = sorted(set(walked()) - set(PERMISSION_TESTS))
    assert not missing, (
        f"URL patterns without a permission test: {missing}. Write one and register it in "
        "PERMISSION_TESTS (tests/test_url_permissions.py)."
    )


def test_the_registry_names_only_urls_that_exist():
    gone = sorted(set(PERMISSION_TESTS) - set(walked()))
    assert not gone, f"PERMISSION_TESTS names URL patterns that no longer exist: {gone}"


@pytest.mark.parametrize("name", sorted(PERMISSION_TESTS))
def test_registered_tests_exist_and_reach_their_url(name):
    assert PERMISSION_TESTS[name], f"{name} has an empty entry"
    helper = URL_HELPERS.get(name)
    for node in PERMISSION_TESTS[name]:
        source = _module_source(node)
        assert f'"{name}"' in source or (helper and helper in source), (
            f"{node} is registered for {name} but its module never builds that URL"
        )


def test_the_walker_finds_nested_includes():
    names = walked()
    # From config/urls.py's includes: Django's auth URLs and both apps'.
    assert {"login", "home", "roll_panel", "contest_cancel"} <= set(names)
    assert names["login"] == "accounts/login/"
    assert not any(route.startswith("admin/") for route in names.values())


# ---------------------------------------------------------------------------------------------
# Every object inside a campaign: 404 for non-members, log in for anonymous visitors
# ---------------------------------------------------------------------------------------------


def test_every_url_with_arguments_has_a_way_to_build_them():
    names = set(with_arguments())
    missing = sorted(names - set(KWARGS) - set(OUTSIDE_CAMPAIGN))
    assert not missing, (
        f"URL patterns with arguments missing from KWARGS (tests/url_walker.py): {missing}"
    )
    stale = sorted((set(KWARGS) | set(OUTSIDE_CAMPAIGN)) - names)
    assert not stale, f"KWARGS names URL patterns that no longer exist: {stale}"


@pytest.fixture
def parties(transactional_db):
    # Transactional: the live stream (an async view) reads on worker threads, which see only
    # committed rows.
    return build_parties(furnished=True)


def test_non_members_get_404_for_every_object_inside_a_campaign(client, parties):
    # A stranger with a campaign of their own: a real user, just not a member of these.
    stranger = UserFactory(username="stranger")
    CampaignFactory(gm=stranger)
    client.force_login(stranger)
    before = snapshot()
    answers = {}
    for name in sorted(n for n in KWARGS if not is_api(n)):
        url = reverse(name, kwargs=KWARGS[name](parties))
        got = client.get(url).status_code
        posted = client.post(url, {"name": "x", "action": "roll"}).status_code
        answers[name] = (got, posted)
        # A view that doesn't take a method answers 405 before it looks anything up (no leak);
        # every other answer is a 404, never a 403 (which would say the object exists).
        assert {got, posted} <= {404, 405} and 404 in {got, posted}, (
            f"{name} ({url}) answered GET {got}, POST {posted} to a non-member"
        )
    assert snapshot() == before
    pages = [name for name in with_arguments() if not is_api(name)]
    assert len(answers) == len(pages) - len(OUTSIDE_CAMPAIGN)


def test_anonymous_visitors_are_sent_to_log_in(client, parties):
    login = reverse("login")
    before = snapshot()
    for name in sorted(n for n in KWARGS if not is_api(n)):
        url = reverse(name, kwargs=KWARGS[name](parties))
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code == 302 and response["Location"].startswith(login), (
                f"{name}: {method.__name__.upper()} {url} answered {response.status_code}"
            )
    assert snapshot() == before


@pytest.mark.django_db
def test_pages_without_arguments_need_a_login_where_they_are_private(client):
    private = {
        "campaign_create",
        "password_change",
        "password_change_done",
        "account",
        "discord_unlink",
    }
    public = {n for n in set(walked()) - set(with_arguments()) - private if not is_api(n)}
    for name in sorted(private):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    # POST-only: logout, the demo login (tests/sheets/test_landing.py) and Discord's signed
    # endpoint (tests/discord/test_endpoint.py).
    for name in sorted(public - {"logout", "demo_login", "discord_interactions"}):
        assert client.get(reverse(name)).status_code == 200, name


@pytest.mark.django_db
def test_admin_is_staff_only(client):
    client.force_login(UserFactory(username="member"))
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    response = client.get("/admin/sheets/campaign/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


# ---------------------------------------------------------------------------------------------
# The API: a token, never a session; non-members get a 404 for everything inside a campaign
# ---------------------------------------------------------------------------------------------

# The index, the schema and its docs page are public, and so are the server's public keys.
API_OPEN = {"api:api-root", "api:openapi-json", "api:openapi-view", "api:keys"}


def _api_urls(parties):
    names = [name for name in walked() if is_api(name) and name != "api:api-root"]
    return {
        name: reverse(name, kwargs=KWARGS[name](parties)) if name in KWARGS else reverse(name)
        for name in names
    }


def test_the_api_asks_every_caller_for_a_token(client, parties):
    """No token, or only a session cookie (even the GM's): 401, with nothing read or written."""
    before = snapshot()
    # The index says where everything is, with no token (tests/test_api_edges.py).
    assert client.get("/api/v1/").status_code == 200
    for user in (None, next(iter(parties.values())).gm):
        if user is not None:
            client.force_login(user)
            before = snapshot()  # the login itself writes (last_login, the session)
        for name, url in sorted(_api_urls(parties).items()):
            for method in (client.get, client.post):
                response = method(url, {}, content_type="application/json")
                if name in API_OPEN:
                    assert response.status_code in (200, 405), (name, response.status_code)
                else:
                    assert response.status_code in (401, 405), (name, response.status_code)
                    if response.status_code == 401:
                        assert response.json()["detail"]
    assert snapshot() == before


def test_api_non_members_get_404_for_every_object_inside_a_campaign(parties):
    from django.test import Client

    from sheets.models import ApiToken, Scope

    stranger = UserFactory(username="stranger")
    CampaignFactory(gm=stranger)
    _, raw = ApiToken.issue(stranger, name="t", scope=Scope.ROLL)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    before = snapshot()  # all but the token's own use count (tests/fuzz.py)
    names = [name for name in KWARGS if is_api(name)]
    assert names and set(names) == {n for n in with_arguments() if is_api(n)}
    for name in sorted(names):
        url = reverse(name, kwargs=KWARGS[name](parties))
        got = api.get(url).status_code
        posted = api.post(url, {}, content_type="application/json").status_code
        assert {got, posted} <= {404, 405} and 404 in {got, posted}, (
            f"{name} ({url}) answered GET {got}, POST {posted} to a non-member"
        )
    assert snapshot() == before
