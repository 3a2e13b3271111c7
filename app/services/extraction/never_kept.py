"""The secrets extraction never keeps (:mod:`app.services.extraction.secrets`) are refused on
every other write path too (tester hbreak6 G39: ``/store`` and MCP ``memory_store`` kept a
card number with its CVV and a bank password, and recall served them back): a unit's value
or trigger scenario holding one is a 422 naming the field and the kind, never the value, and
nothing of the request is written."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import BadRequestError
from app.services.extraction import secrets


def refuse_secrets(texts: Sequence[tuple[str, str | None]]) -> None:
    """Raise BadRequestError (422) for the first ``(field, text)`` whose text holds a secret
    (``field`` is its dotted location, e.g. ``memories.0.value``)."""
    for where, text in texts:
        found = secrets.find(text) if text else []
        if not found:
            continue
        msg = (
            f"holds {found[0].kind}: never kept (passwords, PINs, card numbers and security "
            "codes, access codes, API keys and national ids are not stored); store the unit "
            "without it"
        )
        error = {"loc": ["body", *where.split(".")], "msg": msg, "type": "secret_never_kept"}
        raise BadRequestError(f"{where}: {msg}", extra={"errors": [error]})
