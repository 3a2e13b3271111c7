"""The request size limits (``LIMITS__*``) the wire models are built with.

A wire model is a class: its ``max_length`` constraints, which the OpenAPI document shows and
request validation applies, are fixed when the class is created. So the limits are read here,
once, when the schemas are first imported, and nowhere else; ``create_app(settings)`` refuses
settings whose limits differ from these (``ConfigurationError``) instead of serving other
limits than it was given (docs/ARCHITECTURE.md, "Settings").
"""

from __future__ import annotations

from app.core.config import LimitsSettings, get_settings
from app.core.errors import ConfigurationError

WIRE_LIMITS: LimitsSettings = get_settings().limits


def check(limits: LimitsSettings) -> None:
    """Raise ConfigurationError unless ``limits`` are the ones the wire models use."""
    if limits != WIRE_LIMITS:
        raise ConfigurationError(
            f"LIMITS differ from the ones the API schemas were built with ({WIRE_LIMITS!r}): "
            "set LIMITS__* in the environment before the service starts"
        )
