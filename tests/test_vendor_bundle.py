"""The one vendored script (static/vendor/README.md): built from the versions package.json pins,
carrying both packages' licence texts, and importing nothing from anywhere else."""

import json
import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
BUNDLE = (ROOT / "static" / "vendor" / "noble-ed25519-bundle.js").read_text()


def test_the_bundle_names_the_pinned_versions_and_keeps_their_licences():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]
    header = BUNDLE.split("*/", 1)[0]
    for name in ("@noble/curves", "@noble/hashes"):
        # Exact pins only: a range would let `npm ci` build a bundle the header doesn't name.
        assert re.fullmatch(r"\d+\.\d+\.\d+", pinned[name])
        assert f"{name} {pinned[name]} (MIT)" in header
    # MIT asks for its notice in every copy: both packages' full texts, in the header.
    assert header.count("Permission is hereby granted, free of charge") == 2
    assert header.count("Copyright (c) 2022 Paul Miller") == 2


def test_the_bundle_loads_nothing_at_run_time():
    assert not re.search(r"^\s*import\s", BUNDLE, re.M)
    assert "import(" not in BUNDLE and "fetch(" not in BUNDLE
    assert BUNDLE.rstrip().endswith("};")  # one ES module whose exports close it
