"""`manage.py check --deploy` warns when a setting meant for demos and tests is on in production:
DEMO_LOGINS and WEBHOOKS_ALLOW_PRIVATE (web/checks.py, README "Production")."""

from __future__ import annotations

import pytest
from django.core.checks import Tags, run_checks

from tests.deploy import PRODUCTION_ENV, deploy_check


def deploy_ids(deploy=True):
    found = run_checks(tags=[Tags.security], include_deployment_checks=deploy)
    return {message.id for message in found}


@pytest.mark.parametrize(
    ("setting", "check_id"),
    [("DEMO_LOGINS", "poolside.W001"), ("WEBHOOKS_ALLOW_PRIVATE", "poolside.W002")],
)
def test_each_setting_on_is_a_deploy_warning(settings, setting, check_id):
    settings.DEMO_LOGINS = settings.WEBHOOKS_ALLOW_PRIVATE = False
    assert check_id not in deploy_ids()
    setattr(settings, setting, True)
    assert check_id in deploy_ids()
    # Only with --deploy: `make run` and tests turn these on and must start without a word.
    assert check_id not in deploy_ids(deploy=False)


@pytest.mark.parametrize("setting", ["DEMO_LOGINS", "WEBHOOKS_ALLOW_PRIVATE"])
def test_the_documented_production_check_fails_with_either_on(setting):
    result = deploy_check(PRODUCTION_ENV | {setting: "1"})
    assert result.returncode != 0
    assert setting in result.stdout + result.stderr


def test_the_development_signing_key_is_a_deploy_warning(settings, tmp_path):
    settings.SIGNING_KEY_FILE = settings.BASE_DIR / ".signing_key"
    assert "poolside.W003" in deploy_ids()
    assert "poolside.W003" not in deploy_ids(deploy=False)
    settings.SIGNING_KEY_FILE = tmp_path / "signing.key"
    assert "poolside.W003" not in deploy_ids()
