"""The committed sample progress files as the current course would write them: their content hash made current."""

from __future__ import annotations

import json
from typing import Any

from helpers.core.paths import fixtures_dir
from helpers.trainee.cases.generators import generators_fingerprint

SAMPLES = fixtures_dir() / "sample_progress"


def current_sample(name: str) -> dict[str, Any]:
    """``fixtures/sample_progress/<name>.json``, its ``content_hash`` that of the current generators."""
    data = json.loads((SAMPLES / f"{name}.json").read_text("utf-8"))
    data["content_hash"] = generators_fingerprint()
    return data
