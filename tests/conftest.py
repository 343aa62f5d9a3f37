import pytest


@pytest.fixture(autouse=True)
def _fast_and_self_contained(settings):
    # MD5 hashing keeps the suite fast on 2 cores; tests never need real password strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The manifest storage needs `collectstatic`; tests render templates without it.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # WhiteNoise warns about a missing STATIC_ROOT on a fresh clone; the sources stand in for it.
    settings.STATIC_ROOT = settings.BASE_DIR / "static"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """On PostgreSQL the roll log refuses TRUNCATE unless its owner sets the maintenance switch
    (rolls/migrations/0006). Tests that commit (live servers, concurrency) are emptied with a
    TRUNCATE between tests, so the throwaway test database turns the switch on for every session;
    tests/rolls/test_integrity.py turns it off again to show the refusal."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        name = connection.ops.quote_name(connection.settings_dict["NAME"])
        cursor.execute(f"ALTER DATABASE {name} SET poolside.log_maintenance = 'on'")
        cursor.execute("SET poolside.log_maintenance = 'on'")
