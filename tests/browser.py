"""What the headless-browser tests share: Debian's Chromium driven by Playwright
(``scripts/console_demo.py`` knows where Chromium is and how to launch it), and the marker that
skips a test, saying why, where either is missing (.ci/run installs Chromium when it can)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import console_demo as demo  # noqa: E402

CHROMIUM, launch = demo.CHROMIUM, demo.launch

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]

needs_browser = pytest.mark.skipif(
    sync_playwright is None or not CHROMIUM.exists(),
    reason=f"needs the playwright package and Chromium at {CHROMIUM} "
    "(apt-get install chromium); .ci/run installs it when it can",
)

__all__ = ["CHROMIUM", "ROOT", "demo", "launch", "needs_browser", "sync_playwright"]
