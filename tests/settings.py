"""The tests' settings: the app's own, plus a fourth rule system that lives only in tests/
(tests/d10pool/): its app (models, migration, templates) and its seam object."""

from config.settings import *  # noqa: F403
from config.settings import INSTALLED_APPS, RULE_SYSTEMS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.d10pool"]
RULE_SYSTEMS = [*RULE_SYSTEMS, "tests.d10pool.system.D10PoolSystem"]
