"""Settings as the command line reports them: a bad value is one line naming the variable as
the user wrote it (``TTL__EVENT_DAYS: Input should be a valid number, got 'abc'``), not a
traceback naming ``ttl.event_days`` (tester hbreak5 F30); a variable that looks like a setting
of a section but misses its double underscore (``TTL_EVENT_DAYS``) is a warning, since
pydantic-settings ignores it without a word.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ValidationError

from app.core.config import Settings, get_settings


def variable(loc: tuple[int | str, ...]) -> str:
    """The environment variable of a setting's location: ("ttl", "event_days") →
    ``TTL__EVENT_DAYS``."""
    return "__".join(str(part).upper() for part in loc)


def problems(exc: ValidationError) -> list[str]:
    """One line per invalid setting: the variable, pydantic's message and the value given."""
    lines = []
    for error in exc.errors():
        given = error.get("input")
        shown = "" if isinstance(given, dict | list) else f", got {given!r}"
        lines.append(f"{variable(error['loc'])}: {error['msg']}{shown}")
    return lines


def misspelt(environ: Mapping[str, str]) -> list[str]:
    """Variables named like a section's setting with one underscore where two belong
    (``TTL_EVENT_DAYS`` for ``TTL__EVENT_DAYS``), each with the name it was meant to be."""
    out = []
    for name, field in Settings.model_fields.items():
        section = field.annotation
        if not (isinstance(section, type) and issubclass(section, BaseModel)):
            continue
        for sub in section.model_fields:
            wrong, right = f"{name}_{sub}".upper(), f"{name}__{sub}".upper()
            if any(key.upper() == wrong for key in environ) and wrong != right:
                out.append(f"{wrong} is not a setting (ignored); did you mean {right}?")
    return out


def checked_settings() -> Settings | list[str]:
    """The process-wide settings, or the lines that say why they are invalid."""
    try:
        return get_settings()
    except ValidationError as exc:
        return problems(exc)
