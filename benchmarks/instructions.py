"""Instructions per request, counted by valgrind: a figure that doesn't move with the machine.

The other benchmarks time requests, and on a shared virtual machine a timing swings by a quarter
between two runs minutes apart (docs/performance.md), so a change that saves 3% of a roll can't be
seen in them. ``valgrind --tool=callgrind`` counts the instructions the interpreter executes: the
same code with the same data gives the same count to a few parts in ten thousand, whatever else
the machine is doing. Instructions are not time (a cache miss costs more than an instruction), but
a change that removes work removes instructions, so a step can be measured before it is timed.

For each system's plain roll and for the bare view, the same in-process requests as
``roll_path.py`` (Django's test client, DEBUG off, the benchmark database; the form posted
urlencoded, as a browser posts it) run under callgrind
twice — ``FEW`` and ``MANY`` requests after the same setup and warm-up — and the difference
divided by ``MANY - FEW`` is one request's count. Python's hash seed is fixed so that both runs
iterate dictionaries alike. Report only, no target. Needs valgrind and PostgreSQL (it skips
without either); about four minutes.

Run with ``make bench-instructions``.
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from benchmarks import common, roll_path

WARMUP = 50
FEW, MANY = 20, 220
# The measured requests: each system's plain roll (roll_path.PLAIN_ROLLS) and the bare view.
REQUESTS = [*roll_path.PLAIN_ROLLS, "bare"]
_COLLECTED = re.compile(r"Collected : (\d+)")


def per_request(few: int, many: int) -> float:
    """One request's instructions from the totals of FEW and MANY requests after the same setup."""
    return (many - few) / (MANY - FEW)


def requests(name: str, count: int) -> None:
    """In the process valgrind watches: set up, warm up, then ``count`` requests of ``name``.
    :func:`main` migrated the database already: each run under valgrind would check it again."""
    if not common.setup("Instructions benchmark", migrate=False):
        sys.exit(1)
    from django.test import Client
    from django.urls import reverse

    from web.memory import tune_garbage_collector

    system = "cogent" if name == "bare" else name
    hero, row = roll_path.roller(f"bench-instructions-{system}", system)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(hero.owner)
    if name == "bare":
        path, data, expect = "/bench/bare/", {}, 200
    else:
        kind, data = roll_path.PLAIN_ROLLS[name]
        path, expect = reverse("roll_create", args=[hero.pk, kind, row.pk]), 302
    # Encoded as a browser's form posts it (the test client's default is multipart).
    body, form = urlencode(data), "application/x-www-form-urlencoded"
    for _ in range(WARMUP):
        assert client.post(path, body, content_type=form).status_code == expect
    # The collector as a server runs it (web/memory.py), from the same state in both runs:
    # with CPython's defaults a full collection fell in one run and not the other, and a
    # request's count swung by a fifth with it.
    gc.collect()
    tune_garbage_collector()
    for _ in range(count):
        client.post(path, body, content_type=form)


def counted(name: str, count: int) -> int:
    """The instructions of a whole run of ``requests(name, count)`` under callgrind."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            os.path.abspath(__file__),
            "--requests",
            name,
            str(count),
        ],
        env={**os.environ, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    found = _COLLECTED.search(done.stderr)
    if done.returncode or found is None:
        raise RuntimeError(f"valgrind run of {name} ×{count} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    if shutil.which("valgrind") is None:
        print(
            "Instructions benchmark: SKIPPED — valgrind is not installed (apt-get install valgrind)."
        )
        return common.SKIPPED
    if not common.setup("Instructions benchmark"):
        return common.SKIPPED
    print(
        f"Poolside instructions per request — callgrind, {MANY} against {FEW} requests "
        f"in-process after {WARMUP}"
    )
    print(common.machine())
    runs = [(name, count) for name in REQUESTS for count in (FEW, MANY)]
    # Two at a time: a count doesn't depend on what else runs, and valgrind is slow.
    with ThreadPoolExecutor(max_workers=max(1, min(2, os.cpu_count() or 1))) as pool:
        totals = dict(zip(runs, pool.map(lambda run: counted(*run), runs), strict=True))
    figures = {name: per_request(totals[name, FEW], totals[name, MANY]) for name in REQUESTS}
    bare = figures["bare"]
    rows = [
        (
            "bare view" if name == "bare" else f"roll ({name})",
            f"{count / 1e6:.3f}",
            "—" if name == "bare" else f"{(count - bare) / 1e6:.3f}",
            f"{count / bare:.2f}×",
        )
        for name, count in figures.items()
    ]
    common.table(("request", "M instructions", "beyond the bare view", "of the bare view"), rows)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--requests"]:
        requests(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
