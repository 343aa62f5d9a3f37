"""Hidden rolls in contests: no member learns a side's dice, outcome or detail, nor the verdict or
the winner, unless they may read every roll that decides it (docs/gm-table.md) — not on the log,
the verdict's permalink, the dashboard, a sheet's prompt, a contest action's response (HTMX and
plain) or the live stream. Per contest kind × how the hidden side is hidden × who is looking."""

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from log.models import Kind, RollEntry, Visibility
from log.tokens import entry_token
from rolls.models import Contest, ContestState
from rolls.table import verdicts
from rules import cogent
from sheets.models import System
from tests.factories import ContestFactory
from tests.rolls.helpers import roll_url, seed_where
from tests.rolls.live_helpers import client_for, off_loop, open_stream, run
from tests.worlds import build_party

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
HIDDEN = "the result is hidden from you"
VIEWERS = ("gm", "player", "other_player", "observer")
SINGLE = ("dad6_opposed", "cold_stars_passive")
BOTH = ("cogent_conflict", "cold_stars_active")
SYSTEMS = {
    "dad6_opposed": System.DAD6,
    "cold_stars_passive": System.COLD_STARS,
    "cogent_conflict": System.COGENT,
    "cold_stars_active": System.COLD_STARS,
}
SKILLS = {System.DAD6: "Climb", System.COLD_STARS: "Stealth", System.COGENT: "Athletics"}


def table_for(kind):
    """The shared party (tests/worlds.py) of the contest's system: ana plays Ada, ben plays Bo, the
    GM runs Warden (visible for now), and an observer; each of them can take part in the contest."""
    system = SYSTEMS[kind]
    party = build_party(system)
    for character in (party.pc, party.other_pc, party.npc):
        if system == System.DAD6:
            character.dad6.skills.create(name="Climb", competence="expert")
        elif system == System.COLD_STARS:
            sheet = character.cold_stars
            sheet.momentum_max = sheet.momentum = 2
            sheet.willpower_max = sheet.willpower = 2
            sheet.agility = 3
            sheet.save()
    return party


def client_as(user):
    client = Client()
    client.force_login(user)
    return client


def side_url(contest, side, action="roll"):
    return reverse("contest_side", args=[contest.pk, side, action])


def contest_between(t, kind, a, b):
    return ContestFactory(
        campaign=t.campaign,
        kind=kind,
        character_a=a,
        character_b=b,
        skill_a=SKILLS[t.campaign.system],
        skill_b="" if kind == "dad6_opposed" else SKILLS[t.campaign.system],
        ability_a="agility" if "cold_stars" in kind else "",
        ability_b="agility" if "cold_stars" in kind else "",
        opposition=1,
    )


def hide(character):
    character.hidden_from_players = True
    character.save()


def roll_single(t, contest, character, user, visibility):
    """Side A's roll through its roll panel, kept in Cold Stars; the verdict follows. The contest fixes the
    difficulty (DAD6) or the Risk (Cold Stars): they are left to it."""
    if contest.kind == "dad6_opposed":
        skill = character.dad6.skills.get(name="Climb")
        url = roll_url(character, "dad6-skill", skill)
        data = {"task": "mundane", "traded_boons": 0}
        data |= {"tools": 0, "helpers": 0, "advantages": 0, "time": 0}
    else:
        skill = character.cold_stars.skills.get(name="Stealth")
        url = roll_url(character, "cold-stars-skill", skill)
        data = {"ability": "agility", "modification": "none"}
    response = client_as(user).post(url, data | {"contest": contest.pk, "visibility": visibility})
    assert response.status_code == 302, response.content.decode()[:3000]
    if contest.kind == "cold_stars_passive":
        # Cold Stars: the verdict waits for side A to keep its roll (or Correct it).
        response = client_as(user).post(side_url(contest, "a", "keep"))
        assert response.status_code == 302, response.content.decode()[:3000]


def play_both(t, contest, settings, first, last):
    """Both sides roll (and keep, in Cold Stars) until the contest is decided or even: ``first``
    = (side, user, visibility) goes first each round, ``last`` second. Returns the last
    player's HTMX responses, the ones that decided it."""
    responses = []
    for attempt in range(20):
        contest.refresh_from_db()
        if contest.state != ContestState.OPEN:
            return responses
        responses = []
        for (side, user, visibility), seed in ((first, 2 * attempt), (last, 2 * attempt + 1)):
            settings.ROLLS_RNG_SEED = seed + 100
            client = client_as(user)
            data = {"visibility": visibility}
            responses.append(client.post(side_url(contest, side), data, headers=HX))
            if contest.kind == "cold_stars_active":
                responses.append(client.post(side_url(contest, side, "keep"), headers=HX))
        assert all(r.status_code == 200 for r in responses), [r.status_code for r in responses]
    raise AssertionError("the contest never ended")  # pragma: no cover


# Who reads the contest's outcome, per way its hidden side is hidden (the rest see it decided,
# its result hidden): the hidden side's roller is ana unless the GM rolled it.
READERS = {
    "public": {"gm", "player", "other_player", "observer"},
    "gm_only": {"gm", "player"},
    "blind": {"gm"},
    "secret": {"gm"},
    "hidden_npc": {"gm"},
}
# Who knows the verdict entry exists at all (a reader, or a blind roller's placeholder).
KNOWN = READERS | {"blind": {"gm", "player"}}

CASES = [(kind, how) for kind in SINGLE + BOTH for how in READERS]


def play(t, kind, how, settings):
    """The contest, played to its end: returns it, and who decided it (a both-roll contest's
    last roll, made by a member who can't read the hidden one) with their HTMX responses."""
    settings.ROLLS_RNG_SEED = 5
    if kind in SINGLE:
        acting = t.npc if how == "hidden_npc" else t.pc
        contest = contest_between(t, kind, acting, t.other_pc)
        if how == "hidden_npc":
            hide(t.npc)
        roller = t.gm if how in ("secret", "hidden_npc") else t.player
        visibility = "public" if how == "hidden_npc" else how
        roll_single(t, contest, acting, roller, visibility)
        deciding = (None, [])
    else:
        b = t.npc if how == "hidden_npc" else t.other_pc
        contest = contest_between(t, kind, t.pc, b)
        if how == "hidden_npc":
            hide(t.npc)
        # The hidden roll first; the other side's roll decides.
        if how in ("gm_only", "blind"):
            first, last = ("a", t.player, how), ("b", t.other_player, "public")
        else:
            b_user = t.other_player if how == "public" else t.gm
            b_visibility = "secret" if how == "secret" else "public"
            first, last = ("b", b_user, b_visibility), ("a", t.player, "public")
        decider = "other_player" if last[1] == t.other_player else "player"
        deciding = (decider, play_both(t, contest, settings, first, last))
        contest.refresh_from_db()
        if contest.state == ContestState.CHOOSING:  # side A's player if they read it all, or the GM
            response = client_as(t.player if how in ("public", "gm_only") else t.gm).post(
                reverse("contest_choose", args=[contest.pk]), {"choice": "failure"}
            )
            assert response.status_code == 302
    contest.refresh_from_db()
    assert contest.state == ContestState.DECIDED
    return contest, deciding


def secrets(contest):
    """What only a reader may see: the verdict in words, its outcome, the hidden sides' dice
    and pools (for a reader of some sides: only what differs from the sides they read)."""
    verdict = RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    found = [escape(verdict.outcome_label), escape(verdict.detail), f"outcome-{verdict.outcome}"]
    return verdict, found


def hidden_side_secrets(contest, membership):
    entries = list(contest.entries.exclude(kind=Kind.CONTEST))
    readable = [e for e in entries if e.is_readable_by(membership)]
    shown = {d.label for e in readable for d in e.dice}
    found = []
    for entry in entries:
        if entry not in readable:
            found += [escape(entry.breakdown)] + [
                d.label for d in entry.dice if d.label not in shown
            ]
    return found


def side_of(contest, t, name):
    """The side this viewer acts for (the GM: side B), or None."""
    if name == "gm":
        return "b"
    character = {"player": t.pc, "other_player": t.other_pc}.get(name)
    return None if character is None else contest.side_of(character)


def membership_of(t, name):
    return t.campaign.memberships.get(user=getattr(t, name))


@pytest.mark.parametrize(("kind", "how"), CASES)
def test_a_hidden_side_hides_the_contest_everywhere(kind, how, settings):
    t = table_for(kind)
    contest, deciding = play(t, kind, how, settings)
    verdict, verdict_secrets = secrets(contest)
    readers, known = READERS[how], KNOWN[how]
    if how == "public":
        assert verdict.visibility == Visibility.PUBLIC
    for name in VIEWERS:
        client = client_as(getattr(t, name))
        membership = membership_of(t, name)
        reads = name in readers
        assert verdict.is_readable_by(membership) == reads, name
        side_secrets = hidden_side_secrets(contest, membership)
        assert reads or side_secrets or kind in SINGLE, "nothing hidden to test"
        log = client.get(reverse("campaign_log", args=[t.campaign.pk])).content.decode()
        permalink = client.get(verdict.get_absolute_url())
        pages = {"log": log, "permalink": permalink.content.decode()}
        if name == "gm":
            dashboard = client.get(reverse("campaign_dashboard", args=[t.campaign.pk]))
            pages["dashboard"] = dashboard.content.decode()
        if reads:
            assert permalink.status_code == 200
            for page, html in pages.items():
                missing = [s for s in verdict_secrets[:2] if s not in html]
                assert not missing, (name, page, missing)
        else:
            assert permalink.status_code == (200 if name in known else 404), name
            for page, html in pages.items():
                leaked = [s for s in verdict_secrets + side_secrets if s in html]
                assert not leaked, (name, page, leaked)
        # The contest's own actions answer with the card (HTMX) or a refusal page (plain).
        side = side_of(contest, t, name)
        if side is None:
            assert client.post(side_url(contest, "a"), headers=HX).status_code in (403, 404)
            continue
        for headers in (HX, {}):
            response = client.post(side_url(contest, side), headers=headers)
            assert response.status_code == (200 if headers else 409), (name, response.status_code)
            html = response.content.decode()
            if reads and headers:
                assert escape(contest.verdict) in html, name
            elif not reads:
                leaked = [s for s in verdict_secrets + side_secrets if s in html]
                leaked += [escape(contest.verdict)] if escape(contest.verdict) in html else []
                assert not leaked, (name, leaked)
                if headers:
                    assert HIDDEN in html, name
    # The responses to the rolls that decided a both-roll contest, made by a non-reader here.
    decider, responses = deciding
    for response in responses if decider not in readers else []:
        html = response.content.decode()
        side_secrets = hidden_side_secrets(contest, membership_of(t, decider))
        leaked = [s for s in verdict_secrets + side_secrets if s in html]
        assert not leaked and escape(contest.verdict) not in html, leaked
        assert HIDDEN in responses[-1].content.decode()
    assert not RollEntry.objects.filter(contest=contest, kind=Kind.CONTEST).count() > 1


@pytest.mark.parametrize(
    ("sides", "expected"),
    [
        # Every side open: public.
        ([("public", "player", False), ("public", "other_player", False)], ("public", None, False)),
        # One GM-only side: GM-only to its roller.
        (
            [("public", "other_player", False), ("gm_only", "player", False)],
            ("gm_only", "player", False),
        ),
        # Blind beats GM-only; its roller keeps the placeholder.
        (
            [("gm_only", "other_player", False), ("blind", "player", False)],
            ("blind", "player", False),
        ),
        # GM-only sides of two rollers: neither reads the other's, so only the GM reads it.
        (
            [("gm_only", "player", False), ("gm_only", "other_player", False)],
            ("secret", "player", False),
        ),
        ([("blind", "player", False), ("secret", "gm", False)], ("secret", "gm", False)),
        # A hidden NPC's roll: filed under the NPC, hidden exactly as its rolls are.
        ([("gm_only", "player", False), ("public", "gm", True)], ("public", "gm", True)),
    ],
)
def test_the_verdict_takes_the_audience_of_its_most_hidden_roll(sides, expected):
    t = table_for("cogent_conflict")
    hide(t.npc)
    entries = []
    for visibility, user, npc in sides:
        character = t.npc if npc else t.pc
        entries.append(
            RollEntry.objects.append(
                campaign=t.campaign,
                character=character,
                user=getattr(t, user),
                character_name=character.name,
                username=getattr(t, user).username,
                system=t.campaign.system,
                kind=Kind.ROLL,
                label="Athletics",
                visibility=visibility,
                breakdown="",
                outcome="contest_roll",
                outcome_label="Rolled for a contest",
                odds="1/2",
                odds_display="50%",
            )
        )
    audience = verdicts.verdict_audience(entries)
    visibility, roller, npc = expected
    assert audience["visibility"] == visibility
    assert audience.get("roller_id") == (getattr(t, roller).pk if roller else None)
    assert (audience.get("character") == t.npc) == npc


def test_an_even_contest_with_a_hidden_side_is_settled_by_the_gm(client, settings):
    """Cold Stars, exactly even: the initiator's player would learn the result by choosing,
    so while a side is hidden from them their prompt shows it decided and only the GM chooses."""
    t = table_for("cold_stars_active")
    contest = contest_between(t, "cold_stars_active", t.pc, t.npc)
    hide(t.npc)
    settings.ROLLS_RNG_SEED = 11  # same pools, same dice: exactly even
    gm, ana = client_as(t.gm), client_as(t.player)
    gm.post(side_url(contest, "b"))
    gm.post(side_url(contest, "b", "keep"))
    ana.post(side_url(contest, "a"))
    response = ana.post(side_url(contest, "a", "keep"), headers=HX)
    contest.refresh_from_db()
    assert contest.state == ContestState.CHOOSING
    for html in (
        response.content.decode(),
        ana.get(t.pc.get_absolute_url()).content.decode(),
    ):
        assert HIDDEN in html and "Exactly even" not in html and "state-choosing" not in html
        assert "Take a Costly Success" not in html and "the initiator chooses" not in html
    choose = reverse("contest_choose", args=[contest.pk])
    for headers in (HX, {}):
        response = ana.post(choose, {"choice": "costly_success"}, headers=headers)
        assert "the GM settles it" in response.content.decode()
        assert response.status_code == (200 if headers else 409)
    contest.refresh_from_db()
    assert contest.state == ContestState.CHOOSING
    # The GM reads every roll: sees the even result and chooses.
    dashboard = gm.get(reverse("campaign_dashboard", args=[t.campaign.pk])).content.decode()
    assert "Exactly even" in dashboard and "Take a Costly Success" in dashboard
    assert gm.post(choose, {"choice": "failure"}).status_code == 302
    verdict = RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    assert not verdict.is_readable_by(membership_of(t, "player"))


def test_keeping_a_roll_after_the_verdict_is_refused(settings):
    t = table_for("cold_stars_active")
    contest = contest_between(t, "cold_stars_active", t.pc, t.other_pc)
    play_both(t, contest, settings, ("b", t.other_player, "public"), ("a", t.player, "public"))
    contest.refresh_from_db()
    if contest.state == ContestState.CHOOSING:
        client_as(t.player).post(
            reverse("contest_choose", args=[contest.pk]), {"choice": "failure"}
        )
    response = client_as(t.player).post(side_url(contest, "a", "keep"))
    assert response.status_code == 409
    assert RollEntry.objects.filter(contest=contest, kind=Kind.CONTEST).count() == 1
    # Keeping is a Cold Stars step: a Cogent conflict refuses it.
    other = table_for("cogent_conflict")
    conflict = contest_between(other, "cogent_conflict", other.pc, other.other_pc)
    assert client_as(other.player).post(side_url(conflict, "a", "keep")).status_code == 409


def test_non_gms_see_no_entry_numbers_on_contest_cards(settings):
    t = table_for("cogent_conflict")
    contest = contest_between(t, "cogent_conflict", t.pc, t.other_pc)
    play_both(t, contest, settings, ("b", t.other_player, "public"), ("a", t.player, "public"))
    verdict = RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    numbered = [f'<a href="{side["url"]}">#{side["seq"]}</a>' for side in verdict.contest_sides]
    for name in VIEWERS:
        client = client_as(getattr(t, name))
        for url in (reverse("campaign_log", args=[t.campaign.pk]), verdict.get_absolute_url()):
            html = client.get(url).content.decode()
            assert all((n in html) == (name == "gm") for n in numbered), (name, url)
    # The contest card in an action's response: numbers for the GM only.
    for user, side in ((t.player, "a"), (t.gm, "a")):
        html = client_as(user).post(side_url(contest, side), headers=HX).content.decode()
        assert (f"the contest card #{verdict.seq}" in html) == (user == t.gm)
        assert "the contest card" in html


def test_an_open_contest_shows_a_hidden_sides_roll_without_its_result(settings):
    t = table_for("cogent_conflict")
    contest = contest_between(t, "cogent_conflict", t.pc, t.npc)
    hide(t.npc)
    settings.ROLLS_RNG_SEED = 3
    client_as(t.gm).post(side_url(contest, "b"))
    roll = RollEntry.objects.get(contest=contest)
    html = client_as(t.player).get(t.pc.get_absolute_url()).content.decode()
    assert f"contest-{contest.pk}" in html and "rolled — the result is hidden from you" in html
    assert roll.detail not in html and roll.get_absolute_url() not in html
    html = client_as(t.gm).get(t.pc.get_absolute_url()).content.decode()
    assert roll.detail in html and f"(#{roll.seq})" in html
    assert Contest.objects.get(pk=contest.pk).state == ContestState.OPEN


@pytest.mark.parametrize(
    ("kind", "how", "reveal"),
    [
        ("dad6_opposed", "blind", "side"),
        ("cold_stars_passive", "gm_only", "verdict"),
        ("cogent_conflict", "hidden_npc", "verdict"),
        ("cold_stars_active", "hidden_npc", "side"),
    ],
)
def test_revealing_a_contest_reveals_its_verdict_and_rolls_together(kind, how, reveal, settings):
    """The verdict holds every side's dice, and the sides decide the verdict: the GM's reveal of
    either reveals what the contest would otherwise still hide — never one without the other."""
    t = table_for(kind)
    contest, _ = play(t, kind, how, settings)
    verdict, verdict_secrets = secrets(contest)
    ben = membership_of(t, "other_player")
    hidden_rolls = [e for e in contest.entries.exclude(kind=Kind.CONTEST) if e.follows_id is None]
    hidden_rolls = [e for e in hidden_rolls if not e.is_readable_by(ben)]
    assert hidden_rolls and not verdict.is_readable_by(ben)
    gm = client_as(t.gm)
    target = verdict if reveal == "verdict" else hidden_rolls[0]
    response = gm.post(reverse("roll_reveal", args=[target.pk]), follow=True)
    assert response.status_code == 200
    revealed = set(RollEntry.objects.filter(kind=Kind.REVEAL).values_list("reveals", flat=True))
    assert revealed == {verdict.pk, *(e.pk for e in hidden_rolls)}
    assert "and with it the contest" in response.content.decode()
    client = client_as(t.other_player)
    html = client.get(verdict.get_absolute_url()).content.decode()
    assert all(s in html for s in verdict_secrets[:2])
    for entry in hidden_rolls:
        page = client.get(entry.get_absolute_url())
        assert page.status_code == 200 and escape(entry.breakdown) in page.content.decode()
    # Readable by every member now, the contest card shows its result to the players too.
    if contest.character_b == t.other_pc:
        html = client.post(side_url(contest, "b"), headers=HX).content.decode()
        assert escape(contest.verdict) in html and HIDDEN not in html


def test_a_reveal_outside_a_contest_reveals_nothing_else(client):
    t = table_for("dad6_opposed")
    contest = contest_between(t, "dad6_opposed", t.pc, t.other_pc)
    roll_single(t, contest, t.pc, t.player, "blind")
    skill = t.other_pc.dad6.skills.get(name="Climb")
    data = {"difficulty": 1, "task": "mundane", "traded_boons": 0, "visibility": "blind"}
    data |= {"tools": 0, "helpers": 0, "advantages": 0, "time": 0}
    client_as(t.other_player).post(roll_url(t.other_pc, "dad6-skill", skill), data)
    other = RollEntry.objects.filter(contest__isnull=True).get()
    client_as(t.gm).post(reverse("roll_reveal", args=[other.pk]))
    assert list(RollEntry.objects.filter(kind=Kind.REVEAL).values_list("reveals", flat=True)) == [
        other.pk
    ]


def marker_roll(t):
    """A public roll by Bo after the contest: every stream gets it, so each knows it's caught up."""
    system = t.campaign.system
    bo = t.other_pc
    if system == System.DAD6:
        url = roll_url(bo, "dad6-skill", bo.dad6.skills.get(name="Climb"))
        data = {"difficulty": 1, "task": "mundane", "traded_boons": 0}
        data |= {"tools": 0, "helpers": 0, "advantages": 0, "time": 0}
    elif system == System.COLD_STARS:
        url = roll_url(bo, "cold-stars-skill", bo.cold_stars.skills.get(name="Stealth"))
        data = {"ability": "agility", "risk": 0, "modification": "none"}
    else:
        url = roll_url(bo, "cogent-skill", bo.cogent.skills.get(name="Athletics"))
        data = {"challenge_level": 1, "extra_penalty": 0}
    assert client_as(t.other_player).post(url, data | {"visibility": "public"}).status_code == 302
    return RollEntry.objects.order_by("-pk").first()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("kind", "how"),
    [
        ("dad6_opposed", "blind"),
        ("cold_stars_passive", "gm_only"),
        ("cogent_conflict", "hidden_npc"),
        ("cold_stars_active", "hidden_npc"),
        ("cold_stars_active", "public"),
    ],
)
def test_the_live_stream_carries_a_contest_only_to_its_readers(kind, how, settings):
    t = table_for(kind)
    streams_for = {name: client_for(getattr(t, name)) for name in VIEWERS}
    memberships = {name: membership_of(t, name) for name in VIEWERS}

    def play_then_mark():
        contest, _ = play(t, kind, how, settings)
        verdict, found = secrets(contest)
        sides = {name: hidden_side_secrets(contest, m) for name, m in memberships.items()}
        return verdict, found, sides, marker_roll(t)

    async def scenario():
        streams = {name: await open_stream(c, t.campaign) for name, c in streams_for.items()}
        verdict, found, sides, marker = await off_loop(play_then_mark)
        for name, stream in streams.items():
            got = {}
            while entry_token(marker.pk) not in got:
                message = await stream.next_event()
                if message.event == "entry":
                    got[message.id] = message.data
            card = got.get(entry_token(verdict.pk))
            # (The marker is left out: seeded dice may give it the hidden rolls' faces.)
            text = "\n".join(data for pk, data in got.items() if pk != entry_token(marker.pk))
            if name in READERS[how]:
                assert card is not None and all(s in card for s in found[:2]), name
                continue
            leaked = [s for s in found + sides[name] if s in text]
            assert not leaked, (name, leaked)
            assert (card is not None) == (name in KNOWN[how]), name
            # Replayed from the start (a reconnect), the same holds.
            replay = await open_stream(streams_for[name], t.campaign, last_id=0)
            replayed = "\n".join(
                m.data
                for m in replay.pending
                if m.event == "entry" and m.id != entry_token(marker.pk)
            )
            assert not [s for s in found + sides[name] if s in replayed], name
            await replay.close()

    run(scenario)


def test_a_side_roll_takes_the_visibility_its_roller_may_choose(settings):
    settings.ROLLS_RNG_SEED = 5
    t = table_for("cold_stars_active")
    contest = contest_between(t, "cold_stars_active", t.pc, t.npc)
    ana, gm = client_as(t.player), client_as(t.gm)
    # The prompt offers the roll panel's choices: secret only to the GM.
    html = ana.get(t.pc.get_absolute_url()).content.decode()
    assert 'name="visibility"' in html and 'value="blind"' in html and 'value="secret"' not in html
    html = gm.get(reverse("campaign_dashboard", args=[t.campaign.pk])).content.decode()
    assert 'value="secret"' in html
    # A choice the member may not make is refused, with the reason, and writes nothing.
    for value in ("secret", "everyone"):
        for headers in (HX, {}):
            response = ana.post(side_url(contest, "a"), {"visibility": value}, headers=headers)
            assert response.status_code == (200 if headers else 409)
            assert "Who sees the result: choose one of" in response.content.decode()
    assert not RollEntry.objects.exists()
    # A blind roll: its roller may keep it but not Correct a result they can't read.
    assert ana.post(side_url(contest, "a"), {"visibility": "blind"}).status_code == 302
    roll = RollEntry.objects.get()
    assert (roll.visibility, roll.roller) == (Visibility.BLIND, t.player)
    html = ana.get(t.pc.get_absolute_url()).content.decode()
    assert "Keep this roll" in html and "Correct: re-roll" not in html
    assert ana.post(side_url(contest, "a", "correct")).status_code == 403
    assert not RollEntry.objects.filter(kind=Kind.CORRECT).exists()
    # The GM reads it, so may Correct it — and the Correct stays blind, like its roll.
    assert gm.post(side_url(contest, "a", "correct")).status_code == 302
    correct = RollEntry.objects.get(kind=Kind.CORRECT)
    assert (correct.visibility, correct.roller) == (Visibility.BLIND, t.player)


def test_a_campaign_with_every_roll_public_ignores_a_side_visibility(settings):
    settings.ROLLS_RNG_SEED = 5
    t = table_for("cogent_conflict")
    t.campaign.force_public_rolls = True
    t.campaign.save()
    contest = contest_between(t, "cogent_conflict", t.pc, t.other_pc)
    ana = client_as(t.player)
    assert 'name="visibility"' not in ana.get(t.pc.get_absolute_url()).content.decode()
    assert ana.post(side_url(contest, "a"), {"visibility": "blind"}).status_code == 302
    assert RollEntry.objects.get().visibility == Visibility.PUBLIC


def test_a_hidden_roll_from_before_every_roll_was_public_stops_the_verdict(settings):
    settings.ROLLS_RNG_SEED = 5
    t = table_for("cogent_conflict")
    contest = contest_between(t, "cogent_conflict", t.pc, t.other_pc)
    assert client_as(t.player).post(side_url(contest, "a"), {"visibility": "blind"}).status_code
    t.campaign.force_public_rolls = True
    t.campaign.save()
    # Dice for Bo that don't tie Ada's (the same pool): a verdict is due.
    pool = RollEntry.objects.get().pool["dice"]
    ada = cogent.roll(pool, random.Random(5))
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: not cogent.conflict(ada, faces).tie, lambda rng: cogent.roll(pool, rng)
    )
    response = client_as(t.other_player).post(side_url(contest, "b"))
    assert response.status_code == 409 and "the GM can call the contest off" in (
        response.content.decode()
    )
    assert not RollEntry.objects.filter(kind=Kind.CONTEST).exists()
    assert RollEntry.objects.count() == 1  # ben's roll went with the refused verdict
