"""Log records as one JSON object per line, carrying the current request id.

The request id lives in a context variable set by the API's request middleware
(``app/api/observability.py``); every record logged while a request is handled — by the
router, a service, a repository — carries it, and so do problem+json bodies, so a client's
error report leads straight to the log lines.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)

# Attributes every LogRecord has; anything else was passed with `extra=` and is logged too.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's copy of the message with ANSI colours
}


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "message", "request_id", …extra, "exc_info"}`` per line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or request_id_var.get()
        if request_id:
            out["request_id"] = request_id
        for key, value in record.__dict__.items():
            if key not in _STANDARD and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class _TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request_id = request_id_var.get()
        return f"{line} [request_id={request_id}]" if request_id else line


def configure_logging(level: str = "INFO", fmt: str = "json") -> None:
    """Send every logger (ours, uvicorn's, SQLAlchemy's) to stderr in one format.
    ``fmt`` is ``json`` (one object per line) or ``text``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonFormatter() if fmt == "json" else _TextFormatter("%(levelname)s %(name)s %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    # Our middleware logs each request with its id; uvicorn's access line would repeat it.
    logging.getLogger("uvicorn.access").disabled = True
