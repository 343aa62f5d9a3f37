"""The statistics' SQL aggregates (rolls/log/tallies.py) over ``rolls_trial``, over
``rolls_trial_tally`` and over ``rolls_trial_day_tally`` (kept by the triggers of migrations 0015,
0018 and 0020) against the Python ``Tally`` walking the entries as the page did before: equal on
random logs spread over days, for every audience and with filters — date ranges in several time
zones included — reveals and unlinked characters included."""

from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from unittest import mock

import pytest
from django.db import transaction
from django.http import QueryDict
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from log.models import RollEntry, Trial, Visibility
from rolls.log.filters import LogFilterForm, StatsFilterForm
from rolls.log.statistics import TRIAL_KINDS, Summary, Tally
from rolls.log.tallies import HALF_DAY, campaign_figures, day_parts, readable_rows, tally
from tests.factories import RollEntryFactory

pytestmark = pytest.mark.django_db

BANDS = ("critical_success", "success", "costly_success", "failure", "critical_failure")
SIDES = {"d6": 6, "ability": 10, "skill": 10, "risk": 10}

chances = st.builds(lambda d, n: f"{min(n, d)}/{d}", st.integers(1, 36), st.integers(0, 36))
odds_tables = st.one_of(st.just({}), st.dictionaries(st.sampled_from(BANDS), chances, max_size=5))
dice = st.sampled_from(sorted(SIDES)).flatmap(
    lambda kind: st.builds(
        lambda face: {"kind": kind, "face": face, "reading": "x"}, st.integers(1, SIDES[kind])
    )
)
# A step of a random log: (what, who, visibility, outcome, odds table, faces, which earlier root).
steps = st.tuples(
    st.sampled_from(("roll", "roll", "roll", "correct", "destiny", "auto_pass", "reveal")),
    st.sampled_from(("pc", "other_pc", "npc", "hidden_npc")),
    st.sampled_from(("public", "gm_only", "blind", "secret")),
    st.sampled_from(BANDS),
    odds_tables,
    st.lists(dice, max_size=6),
    st.integers(0, 30),
    st.integers(0, 900),  # minutes after the step before
)
# The random logs start here and spread over about a week of UTC days.
START = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)
ZONES = ("UTC", "Europe/Berlin", "Asia/Kolkata", "America/St_Johns", "Pacific/Kiritimati")


def reference(entries):
    """The page's figures as it computed them before: every readable trial through ``Tally``."""
    overall = Tally(frozenset(RollEntry.SUCCESS_OUTCOMES))
    per_character: dict = {}
    rows = entries.filter(kind__in=TRIAL_KINDS).values_list(
        "character_id", "character_name", "kind", "outcome", "odds_table", "faces"
    )
    for character_id, name, kind, outcome, odds_table, faces in rows:
        overall.add(kind, outcome, odds_table, faces)
        key = (character_id, name)
        per_character.setdefault(key, Tally(overall.success_outcomes))
        per_character[key].add(kind, outcome, odds_table, faces)
    characters = sorted(
        ((pk, name, t.summary()) for (pk, name), t in per_character.items()),
        key=lambda row: (row[1].casefold(), row[0] or 0),
    )
    return overall.summary(), characters


def assert_same(got: Summary, want: Summary):
    counts = ("rolls", "successes", "measured", "measured_successes")
    assert [getattr(got, n) for n in counts] == [getattr(want, n) for n in counts]
    assert got.expected_successes == pytest.approx(want.expected_successes, rel=1e-9, abs=1e-9)
    assert got.variance == pytest.approx(want.variance, rel=1e-9, abs=1e-9)
    assert [(t.key, t.total, [r.observed for r in t.rows]) for t in got.fairness] == [
        (t.key, t.total, [r.observed for r in t.rows]) for t in want.fairness
    ]
    for a, b in zip(got.fairness, want.fairness, strict=True):
        assert a.p_value == pytest.approx(b.p_value, rel=1e-9, abs=1e-12)


def assert_tallies_equal(got, want):
    assert_same(got[0], want[0])
    assert [(pk, name) for pk, name, _ in got[1]] == [(pk, name) for pk, name, _ in want[1]]
    for (_, _, a), (_, _, b) in zip(got[1], want[1], strict=True):
        assert_same(a, b)


@contextmanager
def appended_at(moment):
    """Entries appended inside are stamped ``moment`` (the append reads ``timezone.now()``)."""
    with mock.patch("log.models.chain.timezone.now", return_value=moment):
        yield


def append_step(party, roots, step):
    what, who, visibility, outcome, odds_table, faces, pick, _ = step
    character = getattr(party, who)
    user = character.owner if who in ("pc", "other_pc") else party.gm
    if what in ("roll", "auto_pass"):
        if user == party.gm:
            visibility = "secret" if visibility != "public" else "public"
        elif visibility == "secret":
            visibility = "public"
        fields = {"outcome": outcome, "odds_table": odds_table, "faces": faces}
        roots.append(
            RollEntryFactory(
                character=character, user=user, kind=what, visibility=visibility, **fields
            )
        )
        return
    if not roots:
        return
    root = roots[pick % len(roots)]
    if what == "reveal":
        if (
            root.visibility != Visibility.PUBLIC
            and not RollEntry.objects.filter(reveals=root).exists()
        ):
            RollEntryFactory(
                character=root.character, user=party.gm, kind="reveal", reveals=root,
                visibility=Visibility.PUBLIC, outcome=root.outcome, faces=root.faces,
            )  # fmt: skip
        return
    # A follow-up (a Correct re-roll is a trial; destiny is not); it follows the chain's newest.
    newest = RollEntry.objects.filter(root=root).order_by("-seq").first() or root
    if RollEntry.objects.filter(follows=newest).exists():
        return
    RollEntryFactory(
        character=root.character, user=root.user, kind=what, follows=newest,
        outcome=outcome, odds_table=odds_table, faces=faces,
    )  # fmt: skip


days = st.dates(date(2026, 11, 27), date(2026, 12, 8)).map(date.isoformat)
FILTERS = st.one_of(
    st.sampled_from(
        (
            {},
            {"character": "pc"},
            {"player": "player"},
            {"outcome": "any_success"},
            {"outcome": "failure"},
            {"skill": "Athletics"},
            {"date_from": "2000-01-01"},
            {"date_to": "2000-01-01"},
        )
    ),
    st.fixed_dictionaries({"date_from": days}),
    st.fixed_dictionaries({"date_to": days}),
    st.fixed_dictionaries(
        {"date_from": days, "date_to": days},
        optional={"character": st.just("pc"), "outcome": st.just("any_success")},
    ),
)


def querydict(party, wanted):
    data = QueryDict(mutable=True)
    for name, value in wanted.items():
        if name == "character" or name == "player":
            value = str(getattr(party, value).pk)
        data[name] = value
    return data


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(log=st.lists(steps, max_size=14), wanted=FILTERS, zone=st.sampled_from(ZONES))
def test_sql_statistics_equal_the_python_tally(party, log, wanted, zone):
    with transaction.atomic(), timezone.override(zone):
        roots: list = []
        moment = START
        for step in log:
            moment += timedelta(minutes=step[-1])
            with appended_at(moment):
                append_step(party, roots, step)
        data = querydict(party, wanted)
        for membership in party.campaign.memberships.all():
            campaign = party.campaign
            stats_form = StatsFilterForm(data, campaign=campaign, membership=membership)
            log_form = LogFilterForm(data, campaign=campaign, membership=membership)
            entries = RollEntry.objects.visible_to(membership).filter(campaign=campaign)
            want = reference(log_form.apply(entries).filter(readable=True))
            dated = bool({"date_from", "date_to"} & stats_form.active.keys())
            # The trials take every filter; the tallies every one but the dates.
            for rows in (
                readable_rows(membership, dated=True),
                readable_rows(membership, dated=dated),
            ):
                assert_tallies_equal(tally(stats_form.apply(rows)), want)
            # The page: day tallies for the range's whole UTC days, trials for its edges.
            assert_tallies_equal(campaign_figures(stats_form, membership), want)
            # Unfiltered, the page's figures are exactly the readable entries' trials'.
            for rows in (
                readable_rows(membership, dated=True),
                readable_rows(membership, dated=False),
            ):
                assert_tallies_equal(
                    tally(rows), reference(RollEntry.objects.readable_by(membership))
                )
        transaction.set_rollback(True)


def rolls_for(membership):
    trials, tallies = (tally(readable_rows(membership, dated=d))[0].rolls for d in (True, False))
    assert trials == tallies
    return trials


def test_a_reveal_moves_the_tallies_in_its_own_transaction(party):
    ada = party.pc
    ana, ben, gm = (
        party.campaign.memberships.get(user=u) for u in (party.player, party.other_player, party.gm)
    )
    blind = RollEntryFactory(character=ada, visibility=Visibility.BLIND)
    correct = RollEntryFactory(character=ada, kind="correct", follows=blind)
    RollEntryFactory(character=ada, visibility=Visibility.GM_ONLY)
    secret = RollEntryFactory(character=party.hidden_npc, user=party.gm, visibility="secret")
    # Blind: only the GM reads it (its roller sees a placeholder); GM-only: the roller and the GM.
    assert [rolls_for(m) for m in (gm, ana, ben)] == [4, 1, 0]
    with transaction.atomic():
        reveal(party, blind)
        # The reveal opens the roll and its follow-up, inside the appending transaction.
        assert [rolls_for(m) for m in (gm, ana, ben)] == [4, 3, 2]
        transaction.set_rollback(True)
    assert [rolls_for(m) for m in (gm, ana, ben)] == [4, 1, 0]
    reveal(party, secret)
    assert [rolls_for(m) for m in (gm, ana, ben)] == [4, 2, 1]
    reveal(party, blind)
    assert [rolls_for(m) for m in (gm, ana, ben)] == [4, 4, 3]
    # A follow-up appended after its root's reveal is readable from the start.
    RollEntryFactory(character=ada, kind="correct", follows=correct)
    assert [rolls_for(m) for m in (gm, ana, ben)] == [5, 5, 4]


def reveal(party, entry):
    return RollEntryFactory(
        character=entry.character, user=party.gm, kind="reveal", reveals=entry, visibility="public"
    )


def test_only_trials_have_rows_and_the_hash_is_untouched(party):
    roll = RollEntryFactory(character=party.pc, faces=[{"kind": "d6", "face": 6, "reading": "win"}])
    RollEntryFactory(character=party.pc, kind="destiny", follows=roll)
    RollEntryFactory(character=party.pc, kind="auto_pass")
    assert list(Trial.objects.values_list("entry_id", "d6_6", "success")) == [(roll.pk, 1, True)]
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact


def test_deleting_a_character_moves_its_tallies(party):
    gm = party.campaign.memberships.get(user=party.gm)
    RollEntryFactory(character=party.npc, user=party.gm, faces=[{"kind": "d6", "face": 2}])
    RollEntryFactory(character=party.pc)
    before = reference(RollEntry.objects.readable_by(gm))
    party.npc.delete()  # the entries keep the name; their link (and the trials') is nulled
    after = reference(RollEntry.objects.readable_by(gm))
    assert [pk for pk, _, _ in after[1]] != [pk for pk, _, _ in before[1]]
    for dated in (True, False):
        assert_tallies_equal(tally(readable_rows(gm, dated=dated)), after)


def moment(text):
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("start", "end", "parts"),
    [
        # UTC midnights: whole days only, no trial read.
        ("2026-12-01 00:00", "2026-12-05 00:00", [(1, "days", "2026-12-01", "2026-12-05")]),
        # Berlin's 1–4 December: an hour before, 23 hours of the 4th = the 4th less an hour.
        (
            "2026-11-30 23:00",
            "2026-12-04 23:00",
            [
                (1, "trials", "2026-11-30 23:00", "2026-12-01 00:00"),
                (-1, "trials", "2026-12-04 23:00", "2026-12-05 00:00"),
                (1, "days", "2026-12-01", "2026-12-05"),
            ],
        ),
        # Inside one UTC day: its trials.
        ("2026-12-01 03:00", "2026-12-01 09:00", [(1, "trials", "2026-12-01 03:00", "2026-12-01 09:00")]),
        # Open ends.
        (None, "2026-12-02 00:00", [(1, "days", None, "2026-12-02")]),
        (
            "2026-12-01 05:30",
            None,
            [(-1, "trials", "2026-12-01 00:00", "2026-12-01 05:30"), (1, "days", "2026-12-01", None)],
        ),
    ],
)  # fmt: skip
def test_a_date_range_reads_whole_days_from_the_day_tallies(start, end, parts):
    got = day_parts(start and moment(start), end and moment(end))
    want = []
    for sign, source, lo, hi in parts:
        parse = moment if source == "trials" else date.fromisoformat
        want.append((sign, source, lo and parse(lo), hi and parse(hi)))
    assert [(p.sign, p.source, p.start, p.end) for p in got] == want
    for part in got:  # no edge reads more than half a day of trials
        if part.source == "trials" and part.start and part.end:
            assert part.end - part.start <= HALF_DAY or len(got) == 1


@pytest.mark.parametrize("zone", ZONES)
def test_date_ranges_equal_the_python_tally_around_midnights(party, zone):
    """Rolls an hour either side of each UTC midnight and at midday, for every member: each
    day range, in each time zone, gives the entries' own figures (edges added, or a day less
    its rest)."""
    faces = [{"kind": "d6", "face": 3, "reading": "x"}]
    for day in range(4):
        midnight = datetime(2026, 12, 1 + day, tzinfo=UTC)
        for hours in (-1, 1, 12, 22):
            with appended_at(midnight + timedelta(hours=hours)):
                RollEntryFactory(character=party.pc, faces=faces, outcome="failure")
                RollEntryFactory(character=party.npc, user=party.gm, faces=faces)
    ranges = [("2026-12-01", "2026-12-01"), ("2026-12-02", "2026-12-03"), ("2026-11-30", "")]
    with timezone.override(zone):
        for membership in party.campaign.memberships.all():
            entries = RollEntry.objects.visible_to(membership).filter(campaign=party.campaign)
            for date_from, date_to in ranges:
                data = QueryDict(mutable=True)
                data.update({"date_from": date_from, "date_to": date_to})
                stats_form = StatsFilterForm(data, campaign=party.campaign, membership=membership)
                log_form = LogFilterForm(data, campaign=party.campaign, membership=membership)
                want = reference(log_form.apply(entries).filter(readable=True))
                assert want[0].rolls  # the range holds rolls
                assert_tallies_equal(campaign_figures(stats_form, membership), want)
