"""The visibility rule, said in words here and held to every place that asks it, on random logs:
the log's SQL (``visible_to``, ``readable_by``, ``readable_by_everyone``), the Python predicate
(``is_readable_by``, ``is_known_to``, ``card_for``, ``is_hidden``), the members' signed views "as
when written" (rolls/seen/chain.py) and the statistics' trials and tallies, which triggers write.

The rule (docs/permissions.md): the GM reads everything; a member reads a public entry that isn't
about a hidden NPC (as the NPC stood when it was written), a revealed one (the entry or its
chain's root), their own GM-only roll, and a whisper they wrote or that is to them; the roller of
a blind roll knows of the roll itself (a placeholder), never of its follow-ups. "As when written":
a reveal counts only for what was written after it. Nobody outside the campaign reads anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from log.models import EntryRecipient, Kind, RollEntry, Visibility
from log.models.entry import HiddenEntry
from log.models.trials import Trial, TrialTally
from log.models.visibility import AsOf, knows, reads
from rolls.seen import chain
from sheets.models import Character
from tests.factories import CampaignFactory
from tests.worlds import build_party

pytestmark = pytest.mark.django_db

MEMBERS = ("gm", "player", "other_player", "observer")
SPEAKERS = ("player", "other_player", "npc", "hidden_npc", "nobody")
ROOTS = (Kind.ROLL, Kind.AUTO_PASS, Kind.SKIP, Kind.ASSIST)
FOLLOW_UPS = (Kind.CORRECT, Kind.DESTINY, Kind.CHOICE)
TRIAL_KINDS = (Kind.ROLL, Kind.CORRECT)
ROLL_VISIBILITIES = (Visibility.PUBLIC, Visibility.GM_ONLY, Visibility.BLIND, Visibility.SECRET)
# A root is named by its visibility and who wrote it, as whom.
ROLL_KEYS = [(visibility, who) for visibility in ROLL_VISIBILITIES for who in SPEAKERS[:4]]
MESSAGE_VISIBILITIES = (Visibility.PUBLIC, Visibility.GM_ONLY, Visibility.WHISPER)
MESSAGE_KEYS = [(visibility, who) for visibility in MESSAGE_VISIBILITIES for who in SPEAKERS]

# Every log holds a root of every visibility by every role (the player, another player, the GM as
# a seen NPC and as a hidden one, for messages also out of character), each of a random kind, a
# follow-up of each roll, reveals of some, and random follow-ups, reveals, corrections and changes
# of the NPC's hiding, all in a random order.
every_root = st.tuples(
    *(
        st.tuples(st.just("roll"), st.sampled_from(ROOTS), st.just(visibility), st.just(who))
        for visibility in ROLL_VISIBILITIES
        for who in SPEAKERS[:4]
    ),
    *(
        st.tuples(
            st.just("message"),
            st.just(visibility),
            st.just(who),
            # A whisper to nobody, to some, to everyone.
            st.frozensets(st.sampled_from(MEMBERS)),
        )
        for visibility in MESSAGE_VISIBILITIES
        for who in SPEAKERS
    ),
    # A follow-up of each roll, if the permutation puts it after the roll.
    *(st.tuples(st.just("follow"), st.just(key), st.sampled_from(FOLLOW_UPS)) for key in ROLL_KEYS),
)
# Reveals of some of the rolls: before or after their follow-ups, or before the roll (nothing).
reveals = st.lists(st.sampled_from(ROLL_KEYS), min_size=1, max_size=6, unique=True).map(
    lambda keys: [("reveal", key) for key in keys]
)
more = st.lists(
    st.one_of(
        st.tuples(st.just("follow"), st.sampled_from(ROLL_KEYS), st.sampled_from(FOLLOW_UPS)),
        st.tuples(st.just("reveal"), st.sampled_from(ROLL_KEYS)),
        st.tuples(st.just("correct"), st.sampled_from(MESSAGE_KEYS)),
        st.just(("toggle_hidden_npc",)),
    ),
    max_size=14,
)
plans = st.tuples(every_root, reveals, more).flatmap(
    lambda parts: st.permutations([*parts[0], *parts[1], *parts[2]])
)


@dataclass(eq=False)
class Written:
    """What the test wrote, as it meant it: the facts the rule in words is asked about."""

    at: int  # its place in the log, from 0
    visibility: str
    about_hidden_npc: bool
    roller: str  # a MEMBERS name
    to: frozenset[str]
    root: Written | None
    kind: str
    key: tuple[str, str] | None = None  # on a root: its visibility and who wrote it, as whom
    reveal_at: int | None = None  # on a root: the place of its reveal
    tail: Written | None = field(default=None, repr=False)  # on a root: its chain's newest

    def revealed(self, as_of: AsOf) -> bool:
        root = self.root or self
        if root.reveal_at is None:
            return False
        return as_of is AsOf.NOW or root.reveal_at < self.at


def read_in_words(written: Written, member: str, as_of: AsOf) -> bool:
    if member == "gm":
        return True
    return (
        (written.visibility == Visibility.PUBLIC and not written.about_hidden_npc)
        or written.revealed(as_of)
        or (written.visibility == Visibility.GM_ONLY and written.roller == member)
        or (written.visibility == Visibility.WHISPER and member in {written.roller, *written.to})
    )


def known_in_words(written: Written, member: str, as_of: AsOf) -> bool:
    own_blind_roll = (
        written.visibility == Visibility.BLIND and written.roller == member and written.root is None
    )
    return read_in_words(written, member, as_of) or own_blind_roll


class Table:
    """A fresh campaign for one example, with the party's people, and the log written into it."""

    def __init__(self, party) -> None:
        self.party = build_party(
            gm=party.gm,
            player=party.player,
            other_player=party.other_player,
            observer=party.observer,
            nonmember=party.nonmember,
        )
        self.entries: list[tuple[RollEntry, Written]] = []
        self.hidden_now = True

    def user(self, member: str):
        return getattr(self.party, member)

    def speaker(self, who: str) -> tuple[Character | None, str]:
        """The character spoken as, and the member who speaks."""
        if who == "nobody":
            return None, "gm"
        character = getattr(self.party, {"player": "pc", "other_player": "other_pc"}.get(who, who))
        return character, {"player": "player", "other_player": "other_player"}.get(who, "gm")

    def append(self, member: str, character: Character | None, **fields) -> RollEntry:
        user = self.user(member)
        campaign = self.party.campaign
        return RollEntry.objects.append(
            campaign=campaign,
            user=user,
            username=user.username,
            system=campaign.system,
            character=character,
            character_name=character.name if character else "",
            label="Athletics",
            odds="1/2",
            **fields,
        )

    def keep(self, entry: RollEntry, written: Written) -> None:
        self.entries.append((entry, written))
        if written.root is not None:
            written.root.tail = written

    def roll(self, kind: str, visibility: str, who: str) -> None:
        character, member = self.speaker(who)
        entry = self.append(member, character, kind=kind, visibility=visibility)
        hidden = who == "hidden_npc" and self.hidden_now
        written = Written(len(self.entries), visibility, hidden, member, frozenset(), None, kind)
        written.key = (visibility, who)
        self.keep(entry, written)

    def message(self, visibility: str, who: str, to: frozenset[str]) -> None:
        character, member = self.speaker(who)
        options = (
            {"to": sorted(self.user(name).pk for name in to)} if visibility == "whisper" else {}
        )
        entry = self.append(
            member, character, kind=Kind.MESSAGE, visibility=visibility, options=options
        )
        EntryRecipient.objects.bulk_create(
            EntryRecipient(entry=entry, user_ref=pk) for pk in entry.recipient_ids
        )
        hidden = who == "hidden_npc" and self.hidden_now
        written = Written(len(self.entries), visibility, hidden, member, to, None, Kind.MESSAGE)
        written.key = (visibility, who)
        self.keep(entry, written)

    def follow(self, key: tuple[str, str], kind: str, roots: tuple[str, ...]) -> None:
        """A follow-up of the newest chain whose root of ``roots`` is ``key``, at its newest."""
        chains = [pair for pair in self.entries if pair[1].key == key and pair[1].kind in roots]
        if not chains:
            return
        root_entry, root = chains[-1]
        newest = next(e for e, w in self.entries if w is (root.tail or root))
        member = root.roller
        entry = self.append(
            member,
            root_entry.character,
            kind=kind,
            follows=newest,
            options=root_entry.options,
        )
        if kind == Kind.MESSAGE_EDIT:
            EntryRecipient.objects.bulk_create(
                EntryRecipient(entry=entry, user_ref=pk) for pk in entry.recipient_ids
            )
        written = Written(
            len(self.entries), root.visibility, root.about_hidden_npc, member, root.to, root, kind
        )
        self.keep(entry, written)

    def reveal(self, key: tuple[str, str]) -> None:
        hidden = [
            pair
            for pair in self.entries
            if pair[1].key == key and pair[1].kind in ROOTS and pair[1].reveal_at is None
        ]
        if not hidden:
            return
        root_entry, root = hidden[-1]
        entry = self.append(
            "gm", root_entry.character, kind=Kind.REVEAL, reveals=root_entry, visibility="public"
        )
        root.reveal_at = len(self.entries)
        self.keep(
            entry, Written(len(self.entries), "public", False, "gm", frozenset(), None, Kind.REVEAL)
        )

    def toggle_hidden_npc(self) -> None:
        """Hide or show the NPC from now on: what was written before stays as it was."""
        self.hidden_now = not self.hidden_now
        npc = self.party.hidden_npc
        Character.objects.filter(pk=npc.pk).update(hidden_from_players=self.hidden_now)
        npc.hidden_from_players = self.hidden_now

    def write(self, plan) -> None:
        for step in plan:
            match step:
                case ("roll", kind, visibility, who):
                    self.roll(kind, visibility, who)
                case ("follow", key, kind):
                    self.follow(key, kind, ROOTS)
                case ("reveal", key):
                    self.reveal(key)
                case ("message", visibility, who, to):
                    self.message(visibility, who, to)
                case ("correct", key):
                    self.follow(key, Kind.MESSAGE_EDIT, (Kind.MESSAGE,))
                case ("toggle_hidden_npc",):
                    self.toggle_hidden_npc()

    def membership(self, member: str):
        return self.party.campaign.memberships.get(user=self.user(member))

    def expected(self, member: str, as_of: AsOf) -> dict[int, bool]:
        """pk → read in full (True) or a placeholder (False), for every entry the member knows."""
        return {
            entry.pk: read_in_words(written, member, as_of)
            for entry, written in self.entries
            if known_in_words(written, member, as_of)
        }


def check_sql(table: Table, member: str) -> None:
    membership = table.membership(member)
    expected = table.expected(member, AsOf.NOW)
    rows = RollEntry.objects.visible_to(membership)
    assert {entry.pk: entry.readable for entry in rows} == expected
    readable = {pk for pk, read in expected.items() if read}
    assert set(RollEntry.objects.readable_by(membership).values_list("pk", flat=True)) == readable
    # The statistics: the trigger-written rows (revealed by the reveal trigger) and their sums.
    trials = {entry.pk for entry, w in table.entries if w.kind in TRIAL_KINDS} & readable
    assert set(Trial.objects.readable_by(membership).values_list("entry_id", flat=True)) == trials
    tallied = TrialTally.objects.readable_by(membership).aggregate(n=Sum("rolls"))["n"] or 0
    assert tallied == len(trials)


def check_python(table: Table, member: str) -> None:
    membership = table.membership(member)
    expected = table.expected(member, AsOf.NOW)
    as_written = table.expected(member, AsOf.WRITTEN)
    for entry, _ in table.entries:
        entry = RollEntry.objects.get(pk=entry.pk)  # no annotation: the predicate itself
        assert entry.is_known_to(membership) == (entry.pk in expected), entry
        assert entry.is_readable_by(membership) == expected.get(entry.pk, False), entry
        card = entry.card_for(membership)
        assert isinstance(card, HiddenEntry) == (not expected.get(entry.pk, False))
        assert knows(entry, membership, AsOf.WRITTEN) == (entry.pk in as_written), entry
        assert reads(entry, membership, AsOf.WRITTEN) == as_written.get(entry.pk, False), entry


def check_seen(table: Table, member: str) -> None:
    """The member's signed view: what they were shown when each entry was written."""
    membership = table.membership(member)
    expected = table.expected(member, AsOf.WRITTEN)
    rows = chain.seen_entries(membership).values_list("pk", "seen_readable")
    assert {pk: bool(read) for pk, read in rows} == expected
    head, complete = chain.catch_up(membership)
    assert complete and head.length == len(expected)


def check_everyone_and_strangers(table: Table, elsewhere) -> None:
    """What every member reads (the webhooks' rule, ``is_hidden``), and that the GM of another
    campaign, a stranger here, reads and knows nothing of this one."""
    # "anyone": a member who neither made the entry nor is a whisper's recipient.
    everyone = {
        entry.pk for entry, written in table.entries if read_in_words(written, "anyone", AsOf.NOW)
    }
    in_this = RollEntry.objects.filter(campaign=table.party.campaign)
    assert set(in_this.readable_by_everyone().values_list("pk", flat=True)) == everyone
    assert not RollEntry.objects.visible_to(elsewhere).filter(campaign=table.party.campaign)
    for entry in in_this:
        assert entry.is_hidden == (entry.pk not in everyone)
        assert not entry.is_known_to(elsewhere) and not entry.is_known_to(None)
        assert not knows(entry, elsewhere, AsOf.WRITTEN)


@settings(
    max_examples=25,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=plans)
def test_sql_python_and_the_signed_views_say_what_the_rule_says(party, plan):
    table = Table(party)
    table.write(plan)
    elsewhere = CampaignFactory(gm=party.nonmember).memberships.get()
    for member in MEMBERS:
        check_sql(table, member)
        check_python(table, member)
        check_seen(table, member)
    check_everyone_and_strangers(table, elsewhere)


def test_a_hidden_npc_s_public_roll_is_in_no_player_s_view_until_revealed(party):
    """The example the issue named: a hidden NPC's public roll, before and after its reveal."""
    table = Table(party)
    hidden_public = (Visibility.PUBLIC, "hidden_npc")
    table.write(
        [
            ("roll", Kind.ROLL, Visibility.PUBLIC, "hidden_npc"),
            ("follow", hidden_public, Kind.CORRECT),
        ]
    )
    for member in MEMBERS[1:]:
        check_sql(table, member)
        check_seen(table, member)
        assert not table.expected(member, AsOf.WRITTEN)
    table.write([("reveal", hidden_public), ("follow", hidden_public, Kind.DESTINY)])
    for member in MEMBERS:
        check_sql(table, member)
        check_python(table, member)
        check_seen(table, member)
