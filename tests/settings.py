"""The tests' settings: the app's own, plus a fourth rule system that lives only in tests/
(tests/d10pool/): its app (models, migration, templates) and its seam object; and a kind of log
entry that lives only there too (tests/note/)."""

from config.settings import *  # noqa: F403
from config.settings import INSTALLED_APPS, LOG_KINDS, RULE_SYSTEMS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.d10pool", "tests.note"]
RULE_SYSTEMS = [*RULE_SYSTEMS, "tests.d10pool.system.D10PoolSystem"]
# And a kind of log entry that lives only in tests/ (tests/note/): its KindInfo, its action, its card.
LOG_KINDS = [*LOG_KINDS, "tests.note.kind.TABLE_NOTE"]

# A key that signs only tests' logs, kept with them: every worker and every server the tests
# start signs and proves with the same key (docs/verifiable-dice.md).
from pathlib import Path as _Path  # noqa: E402

SIGNING_KEY_FILE = _Path(__file__).resolve().parent / "signing_test.key"

# Portraits go to a directory of this test run's own, removed when the process that made it
# ends: tests never write into the repository. The servers the tests start (tests/live_servers.py)
# inherit the environment, so they read and write the same directory as the test that started
# them; their files are named by random keys, so parallel workers can't collide.
import atexit  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

from config.settings import STORAGES  # noqa: E402

_PORTRAITS = os.environ.get("POOLSIDE_TEST_PORTRAITS", "")
if not _PORTRAITS:
    _PORTRAITS = os.environ["POOLSIDE_TEST_PORTRAITS"] = tempfile.mkdtemp(
        prefix="poolside-test-portraits-"
    )
    atexit.register(shutil.rmtree, _PORTRAITS, ignore_errors=True)
STORAGES = {
    **STORAGES,
    "portraits": {**STORAGES["portraits"], "OPTIONS": {"location": _PORTRAITS, "base_url": None}},
}
