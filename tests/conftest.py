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
