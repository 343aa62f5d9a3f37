"""The GM table's own stream (``?view=table``, rolls/live/stream.py): each roll arrives drawn as
its card's row, so the table puts it on the card without fetching it (docs/live.md). The GM's
alone; every visibility reaches it (the GM reads every roll), and resuming draws rows too.

Runs on SQLite (in-memory hub) and PostgreSQL (NOTIFY/LISTEN), whichever the suite runs on."""

import pytest

from log.models import RollEntry
from tests.rolls.helpers import athletics, token
from tests.rolls.live_helpers import (
    client_for,
    events_url,
    off_loop,
    open_stream,
    post_roll,
    roll,
    run,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seeded")]


def row_of(entry) -> str:
    return f'<li data-character="{entry.character_id}">'


@pytest.mark.parametrize("who", ["player", "other_player", "observer"])
def test_only_the_gm_opens_the_tables_stream(client, party, who):
    client.force_login(getattr(party, who))
    response = client.get(events_url(party.campaign, view="table"))
    assert response.status_code == 403


@pytest.mark.parametrize(
    "query", [{"view": "cards"}, {"view": ""}, {"view": "table", "character": 1}]
)
def test_a_view_that_is_no_view_is_a_400_with_a_message(client, party, query):
    client.force_login(party.gm)
    query = {k: (party.pc.pk if v == 1 else v) for k, v in query.items()}
    response = client.get(events_url(party.campaign), query)
    assert response.status_code == 400
    assert "“view” is “log”, or “table”" in response.content.decode()


@pytest.mark.parametrize("visibility", ["public", "gm_only", "blind", "secret"])
def test_every_roll_reaches_the_table_as_its_cards_row(party, visibility):
    """The row the card lists (with its chain number), not the log's item: no day heading, and
    nothing to fetch. A secret roll is the GM's own; the others the player's."""
    client = client_for(party.gm)
    user = "gm" if visibility == "secret" else "player"

    async def scenario():
        stream = await open_stream(client, party.campaign, view="table")
        entry = await roll(party, user, visibility)
        message = await stream.next_event()
        assert message.event == "entry" and message.id == token(entry)
        assert message.data.startswith(row_of(entry)) and message.data.endswith("</li>")
        assert "log-day" not in message.data and "data-spent" not in message.data
        assert f'id="entry-{token(entry)}"' in message.data and f"#{entry.seq}" in message.data
        assert entry.breakdown in message.data  # the GM reads every roll: the full card
        await stream.close()

    run(scenario)


def test_a_roll_that_spent_says_so_and_the_card_fetches_its_news(party):
    """Destiny spent: the card's figures changed, which the row can't show (live.js then fetches
    that card's news, table_character ?entry=)."""
    sheet = party.pc.cogent
    sheet.destiny_points = 2
    sheet.save()
    client = client_for(party.gm)

    async def scenario():
        stream = await open_stream(client, party.campaign, view="table")

        def go():
            skill = athletics(party.pc)
            assert post_roll(party.player, party.pc, skill, destiny_before="on").status_code == 302
            return RollEntry.objects.order_by("-pk").first()

        entry = await off_loop(go)
        assert entry.resource_changes == {"destiny": -1}
        message = await stream.next_event()
        assert message.data.startswith(f'<li data-character="{party.pc.pk}" data-spent>')
        await stream.close()

    run(scenario)


def test_resuming_the_tables_stream_replays_rows(party):
    client = client_for(party.gm)

    def roll_now():
        assert post_roll(party.player, party.pc, athletics(party.pc)).status_code == 302
        return RollEntry.objects.order_by("-pk").first()

    first, second = roll_now(), roll_now()

    async def scenario():
        stream = await open_stream(
            client, party.campaign, view="table", headers={"Last-Event-ID": token(first)}
        )
        message = await stream.next_event()
        assert message.id == token(second) and message.data.startswith(row_of(second))
        await stream.close()

    run(scenario)


def test_the_table_and_the_log_of_one_gm_get_each_their_own_drawing(party):
    """Shared reads are per audience and view: the GM's log still gets the log's item."""
    client = client_for(party.gm)

    async def scenario():
        table = await open_stream(client, party.campaign, view="table")
        log = await open_stream(client, party.campaign)
        entry = await roll(party, "player", "public")
        on_table, on_log = await table.next_event(), await log.next_event()
        assert on_table.data.startswith(row_of(entry))
        assert on_log.data.startswith('<li class="log-day"')
        assert f'<li class="log-item" data-character="{party.pc.pk}">' in on_log.data
        await table.close()
        await log.close()

    run(scenario)
