"""The words the data model is written in, shared by every layer."""

from __future__ import annotations

from typing import Literal

# The kind of knowledge a memory unit holds.
MemoryType = Literal["fact", "preference", "constraint", "action", "result", "event"]
