"""One ``hindsight serve`` per data directory while working memory is in-process (tester
finding B23: a second server on the same HINDSIGHT_DATA_DIR shared the embedded database but
not the working-memory windows, so messages appended through one were missing from the
other's window)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.core import serve_lock
from tests.processes import running, serve


def test_the_lock_is_exclusive_and_released_with_its_file(tmp_path: Path):
    first = serve_lock.hold(tmp_path)
    assert (tmp_path / serve_lock.LOCK_FILE).read_text().strip() == str(os.getpid())
    with pytest.raises(serve_lock.DataDirInUse) as busy:
        serve_lock.hold(tmp_path)
    assert busy.value.holder == str(os.getpid())
    assert "REDIS_URL" in str(busy.value) and "HINDSIGHT_DATA_DIR" in str(busy.value)
    first.close()
    serve_lock.hold(tmp_path).close()  # free again


@pytest.fixture
def data_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="hindsight-lock-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_second_server_on_the_same_data_dir_refuses_to_start(data_dir: Path):
    env = {"DATABASE_URL": "", "REDIS_URL": "", "HINDSIGHT_DATA_DIR": str(data_dir)}
    with running(serve(env)) as (first,):
        first.wait_healthy()
        with running(serve(env)) as (second,):
            assert second.wait(60) == 1
            log = second.log()
            assert f"process {first.pid} already serves {data_dir}" in log, log[-2000:]
            assert "REDIS_URL" in log
            assert "embedded PostgreSQL + pgvector in" not in log  # it joined nothing
        # the first one is untouched
        assert httpx.get(first.url + "/health", timeout=5).status_code == 200
        # and on loopback it answers only requests addressed to this machine (tester C23)
        r = httpx.get(first.url + "/health", headers={"host": "attacker.example"}, timeout=5)
        assert r.status_code == 421 and r.json()["code"] == "misdirected_request"
        mcp = httpx.post(
            first.url + "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "memory_recall", "arguments": {
                    "what_am_i_looking_for": "anything", "user_id": "u1"}}},
            headers={"accept": "application/json, text/event-stream"},
            timeout=30,
        )  # fmt: skip
        assert mcp.status_code == 200 and '"isError":false' in mcp.text.replace(" ", ""), mcp.text
