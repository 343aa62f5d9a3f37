"""The statistics' SQL aggregates (rolls/log/tallies.py) over ``rolls_trial`` and over
``rolls_trial_tally`` (kept by the triggers of migrations 0015 and 0018) against the Python
``Tally`` walking the entries as the page did before: equal on random logs, for every audience and
with filters, reveals and unlinked characters included."""

import pytest
from django.db import transaction
from django.http import QueryDict
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rolls.log.filters import LogFilterForm, StatsFilterForm
from rolls.log.statistics import TRIAL_KINDS, Summary, Tally
from rolls.log.tallies import readable_rows, tally
from rolls.models import RollEntry, Trial, Visibility
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
)


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


def append_step(party, roots, step):
    what, who, visibility, outcome, odds_table, faces, pick = step
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


FILTERS = st.sampled_from(
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
@given(log=st.lists(steps, max_size=14), wanted=FILTERS)
def test_sql_statistics_equal_the_python_tally(party, log, wanted):
    with transaction.atomic():
        roots: list = []
        for step in log:
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
