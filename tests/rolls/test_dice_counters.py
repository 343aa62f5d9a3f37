"""Each roller's counter (alpha version 2, docs/verifiable-dice.md): a roll's dice are proven for
the roller's next number, not for a place in the chain the server could vary. A roll the server
drew and didn't log is a gap in the roller's own numbers, which verify_log, the GM's export and
the roller's own export (the standalone verifier) each find; a retry after a lost race draws the
same dice."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from log.models import LogHead, RollEntry, Visibility
from log.models.keys import keys_by_id
from proofs import protocol
from rolls.rolling.dice import LogDice
from tests.rolls.counters import grind
from tests.rolls.helpers import roll_athletics
from tests.rolls.helpers import verify_log as verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]


def numbers(entries, user) -> list[int | None]:
    secret = protocol.roller_secret(
        LogHead.objects.get(campaign_id=entries[0].campaign_id).position_secret,
        entries[0].campaign_id,
        user.pk,
    )
    return [protocol.counter_n(e.proof["alpha"], user.pk, secret, 50) for e in entries]


def export_of(client, party, who):
    client.force_login(getattr(party, who))
    response = client.get(reverse("campaign_log_json", args=[party.campaign.pk]))
    return json.loads(b"".join(response.streaming_content))


def test_each_roller_counts_their_own_rolls_and_the_head_keeps_the_count(client, party):
    mine = [roll_athletics(client, party, Visibility.PUBLIC) for _ in range(2)]
    gms = roll_athletics(client, party, Visibility.SECRET, as_user="gm")
    mine.append(roll_athletics(client, party, Visibility.BLIND))
    assert numbers(mine, party.player) == [1, 2, 3]
    assert numbers([gms], party.gm) == [1]
    assert numbers([gms], party.player) == [None]  # another's secret opens none of them
    head = LogHead.objects.get(campaign_id=party.campaign.pk)
    assert head.counters == {str(party.player.pk): 3, str(party.gm.pk): 1}
    assert not any("position" in e.proof["alpha"] for e in [*mine, gms])
    code, out = verify(party.campaign.pk)
    assert code == 0, out
    # Each member's export gives them their own secret, never another's.
    for who in ("player", "gm"):
        exported = export_of(client, party, who)
        user = getattr(party, who)
        assert exported["counter"] == {
            "roller": user.pk,
            "secret": protocol.roller_secret(head.position_secret, party.campaign.pk, user.pk),
        }
        assert protocol.verify_export(exported).ok


def test_a_roll_drawn_and_not_logged_is_caught_by_verify_log_and_both_exports(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    grind(party.campaign, party.player)
    roll_athletics(client, party, Visibility.PUBLIC)
    code, err = verify(party.campaign.pk)
    assert code == 1
    assert (
        f"BROKEN at entry #2 (id {RollEntry.objects.latest('pk').pk}): roller "
        f"{party.player.pk}'s roll #3, but #2 is not in the log: dice were drawn for it and "
        "never logged" in err
    )
    gm = protocol.verify_export(
        export_of(client, party, "gm"), {"keys": list(keys_by_id().values())}
    )
    assert gm.problems == [
        f"entry 2: roller {party.player.pk}'s roll #3, but #2 is not in the log: dice were "
        "drawn for it and never logged"
    ]
    player = protocol.verify_export(export_of(client, party, "player"))
    assert player.problems == [
        "entry 2: your roll #3, but #2 is not in the log: dice were drawn for it and never logged"
    ]


def test_a_blind_roll_is_no_gap_for_its_roller(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    roll_athletics(client, party, Visibility.BLIND)  # a placeholder for the roller
    roll_athletics(client, party, Visibility.PUBLIC)
    exported = export_of(client, party, "player")
    assert [e["placeholder"] for e in exported["entries"]] == [False, True, False]
    assert protocol.verify_export(exported).ok


def test_a_retry_at_another_place_draws_the_same_dice(party):
    """A lost race (HeadMoved): the roll is made again where it will land, with the same nonce
    and the same counter, so the same dice: refusing a roll buys no re-roll."""
    groups = (("d6", 6, 6),)
    first = LogDice(party.campaign, "browser-nonce-1234", "Athletics", party.player.pk)
    faces = first.draw(groups)
    RollEntry.objects.append_by(party.gm, party.npc, kind="message", label="", detail="Hm.")
    again = LogDice(party.campaign, "browser-nonce-1234", "Athletics", party.player.pk)
    assert again.draw(groups) == faces
    assert again.seq == first.seq + 1 and again.n == first.n == 1
    assert again.record()["alpha"] == first.record()["alpha"]
    protocol.check_proof(
        {
            "label": "Athletics",
            "faces": [{"kind": "d6", "face": f} for f in faces[0]],
            "proof": again.record(),
        },
        keys_by_id(),
    )
