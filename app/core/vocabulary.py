"""The words the data model is written in, shared by every layer."""

from __future__ import annotations

from typing import Literal

# The pgqueuer entrypoint of extraction jobs (enqueued by the API, served by the worker).
EXTRACT_ENTRYPOINT = "hindsight.extract"

# The kind of knowledge a memory unit holds.
MemoryType = Literal["fact", "preference", "constraint", "action", "result", "event"]
