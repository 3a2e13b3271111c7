"""The memory console on demo data, and its screenshots.

    python3 scripts/console_demo.py              # screenshots of every view → docs/console/
    python3 scripts/console_demo.py --serve      # keep the demo service running (Ctrl-C stops)

Starts the real service (`hindsight serve`, embedded PostgreSQL, in-process Redis) in a
temporary data dir on a free loopback port, creates an API key, stores English and Chinese
units (a supersede chain, a contradiction, a working-memory session) and drives Debian's
Chromium (/usr/bin/chromium) with Playwright at a laptop (1366×900) and a phone (390×844)
viewport. ``tests/console/test_console_browser.py`` uses the same service, key and data helpers.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from benchkit import server

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "console"
CHROMIUM = Path("/usr/bin/chromium")
# No sandbox (root in a container), no GPU, and nothing that calls out to the network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORTS = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_URL"))}
    return {**env, "HINDSIGHT_DATA_DIR": str(data_dir), "LOG_LEVEL": "WARNING"}


@dataclass
class Service:
    """A running ``hindsight serve`` and the way to make keys for it."""

    url: str
    data_dir: Path
    keys: dict[str, str] = field(default_factory=dict)

    def create_key(self, namespace: str) -> str:
        """A new API key for ``namespace`` (``hindsight keys create``, joining the embedded
        server). The first key makes the service require keys (AUTH__REQUIRED=auto)."""
        out = subprocess.run(
            [sys.executable, "-m", "app.cli", "keys", "create", "--namespace", namespace],
            cwd=ROOT, env=_env(self.data_dir), capture_output=True, text=True, timeout=120,
            check=True,
        )  # fmt: skip
        key = out.stdout.strip().splitlines()[-1]
        self.keys[namespace] = key
        return key

    def client(self, namespace: str) -> httpx.Client:
        """An HTTP client of the API with ``namespace``'s key."""
        headers = {"Authorization": f"Bearer {self.keys[namespace]}"}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)


@contextmanager
def serve(startup_timeout_s: float = 180.0) -> Iterator[Service]:
    """Start the service on a free loopback port in a fresh data dir; stop and delete both
    when the block ends."""
    data_dir = Path(tempfile.mkdtemp(prefix="hindsight-console-"))
    try:
        with server.service(
            workdir=data_dir, timeout_s=startup_timeout_s, env={"LOG_LEVEL": "WARNING"}
        ) as url:
            yield Service(url, data_dir)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


def _store(api: httpx.Client, *memories: dict[str, Any]) -> list[dict[str, Any]]:
    r = api.post("/store", json={"memories": list(memories)})
    r.raise_for_status()
    return r.json()["results"]  # type: ignore[no-any-return]


def seed(api: httpx.Client) -> dict[str, Any]:
    """Demo memory of user alice (English and Chinese), with a supersede chain, a
    contradiction and a working-memory session ``trip-planning``. Returns the ids."""
    peanuts, seats, city, stock = _store(
        api,
        {"user_id": "alice", "type": "constraint", "value": "Alice is allergic to peanuts",
         "query": "when choosing food or restaurants for Alice", "entities": ["Alice", "peanuts"],
         "raw_ref": ["session trip-planning#3"], "confidence": 0.95},
        {"user_id": "alice", "agent_id": "travel", "type": "preference",
         "value": "Alice prefers window seats on long flights", "entities": ["Alice"]},
        {"user_id": "alice", "value": "用户住在上海，在一家银行工作。", "entities": ["上海"],
         "occurred_at": "2026-01-10T09:00:00Z", "raw_ref": ["微信对话 2026-01-10"]},
        {"user_id": "alice", "value": "用户持有贵州茅台（600519）的股票。",
         "entities": ["贵州茅台", "600519"], "confidence": 0.8},
    )  # fmt: skip
    [moved] = _store(
        api,
        {"user_id": "alice", "value": "用户搬到了北京，现在住在北京。", "entities": ["北京"],
         "occurred_at": "2026-06-01T09:00:00Z", "raw_ref": ["微信对话 2026-06-01"]},
    )  # fmt: skip
    concise, detailed = _store(
        api,
        {"user_id": "alice", "type": "preference", "value": "Alice prefers concise answers.",
         "occurred_at": "2026-03-01T10:00:00Z", "confidence": 0.8},
    ) + _store(
        api,
        {"user_id": "alice", "type": "preference", "value": "Alice prefers detailed answers.",
         "occurred_at": "2026-03-01T10:20:00Z"},
    )  # fmt: skip
    _store(api, {"user_id": "bob", "value": "Bob drives an electric car", "entities": ["Bob"]})
    messages = [
        {
            "role": "user",
            "content": "I need a flight to Tokyo on 2026-05-03, window seat please.",
            "user_id": "alice",
        },
        {"role": "assistant", "content": "Found LH123 departing 09:40, seat 12A is free."},
        {"role": "user", "content": "Great. Remember I can't eat peanuts on board."},
        {"role": "assistant", "content": "Noted: peanut-free meal requested for LH123."},
        {"role": "user", "content": "顺便帮我查一下东京的酒店，预算每晚1500元以内。"},
        {"role": "assistant", "content": "好的，我找到了三家新宿附近的酒店，每晚1200到1450元。"},
        {"role": "user", "content": "ok thanks"},
    ]
    r = api.post("/working_memory/trip-planning/messages", json={"messages": messages})
    r.raise_for_status()
    return {
        "peanuts": peanuts["id"], "seats": seats["id"], "city": city["id"],
        "stock": stock["id"], "moved": moved["id"], "moved_outcome": moved["outcome"],
        "concise": concise["id"], "detailed": detailed["id"], "session": "trip-planning",
    }  # fmt: skip


def launch(playwright: Any) -> Any:
    """Debian's Chromium through Playwright (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def enter_key(page: Any, key: str) -> None:
    """Answer the console's API-key dialog."""
    page.locator("#key-dialog[open]").wait_for()
    page.fill("#key-input", key)
    page.click("#key-form button[type=submit]")
    page.locator("#key-dialog").wait_for(state="hidden")


def screenshots(service: Service, ids: dict[str, Any], out: Path) -> list[Path]:
    """One full-page screenshot per view and viewport under ``out``."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    key = service.keys["demo"]
    api = service.client("demo")
    api.post("/recall", json={"query": "what can Alice eat on the flight?", "user_id": "alice"})
    pages = [
        ("units", "#/units?kind=user&subject=alice", ".units tbody tr"),
        ("unit", f"#/unit/{ids['moved']}", ".chain li"),
        ("recall", "#/recall?query=午餐吃什么？Alice%20peanuts&user_id=alice&top_k=5", ".hit .bar"),
        ("working-memory", f"#/sessions/{ids['session']}?max_tokens=120&query=peanut%20meal",
         ".msg"),
        ("health", "#/health", ".latency tbody tr"),
    ]  # fmt: skip
    written = []
    with sync_playwright() as pw:
        browser = launch(pw)
        for name, viewport in VIEWPORTS.items():
            page = browser.new_page(viewport=viewport, device_scale_factor=1)
            page.goto(f"{service.url}/console/")
            enter_key(page, key)
            for view, route, ready in pages:
                page.goto(f"{service.url}/console/{route}")
                page.locator(ready).first.wait_for()
                if view == "recall":  # show one hit's numbers too
                    page.locator(".breakdown summary").first.click()
                if view == "working-memory" and name == "laptop":  # close → extraction job
                    page.click("text=Close and extract")
                    page.locator(".job-box .job[data-status=succeeded]").wait_for(timeout=60_000)
                page.evaluate("document.getElementById('toast').classList.remove('show')")
                page.wait_for_timeout(300)
                path = out / f"{view}-{name}.png"
                page.screenshot(path=str(path), full_page=True)
                written.append(path)
            page.close()
        browser.close()
    return written


def main(argv: list[str]) -> int:
    with serve() as service:
        service.create_key("demo")
        ids = seed(service.client("demo"))
        if "--serve" in argv:
            print(f"console: {service.url}/console/  API key: {service.keys['demo']}")
            with suppress(KeyboardInterrupt):
                signal.pause()
            return 0
        for path in screenshots(service, ids, SHOTS):
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
