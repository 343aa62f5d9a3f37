import pytest
from nacl.signing import SigningKey

from tests.discord.helpers import APPLICATION, at_the_table
from tests.discord.standin import DiscordStandIn


@pytest.fixture
def key(settings):
    """Discord's side of the signature, made here: the endpoint knows only its public half."""
    signing = SigningKey.generate()
    settings.DISCORD_PUBLIC_KEY = signing.verify_key.encode().hex()
    settings.DISCORD_APPLICATION_ID = APPLICATION
    settings.DISCORD_BOT_TOKEN = "test-bot-token"
    settings.SITE_URL = "https://poolside.example"
    return signing


@pytest.fixture
def table(party, key):
    """The party in a Discord channel bound to its campaign, every one of its people linked."""
    return at_the_table(party)


@pytest.fixture
def discord_api(settings):
    """Discord's REST API, stood in for on 127.0.0.1."""
    with DiscordStandIn() as api:
        settings.DISCORD_API_URL = api.url
        yield api
