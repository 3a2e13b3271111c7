"""Two dated moves (tester G9): "I moved to Lisbon in 2023" then "In March 2025 I moved to
Madrid" — the later move is the home, whichever is told first (the older one told last is a
backfill, superseded by the newer); each move keeps its year ("in 2023", 2023年). English and
Chinese, offline extractor, through /extract."""

from __future__ import annotations

import httpx
import pytest

from tests.services.memory.told import tell


async def _homes(client: httpx.AsyncClient, user: str) -> dict[str, str]:
    r = await client.get("/memories", params={"user_id": user, "include_superseded": "true"})
    return {u["value"]: u["status"] for u in r.json()["memories"]}


@pytest.mark.parametrize(
    ("earlier", "later", "first_told"),
    [
        ("I moved to Lisbon in 2023.", "In March 2025 I moved to Madrid.", "earlier"),
        ("I moved to Lisbon in 2023.", "In March 2025 I moved to Madrid.", "later"),
        ("我2023年搬到了里斯本。", "我2025年3月搬到了马德里。", "earlier"),
        ("我2023年搬到了里斯本。", "我2025年3月搬到了马德里。", "later"),
    ],
)
async def test_the_later_dated_move_is_the_home_whatever_order_it_is_told(
    client, earlier, later, first_told
):
    """Tester G9: the second move supersedes the first; told the other way round (the older
    move last), the newer stays current — each move keeps its year ("in 2023", 2023年)."""
    user = f"g9-{first_told}-{len(earlier)}"
    for said in (earlier, later) if first_told == "earlier" else (later, earlier):
        await tell(client, user, said)
    homes = await _homes(client, user)
    assert len(homes) == 2, homes
    [old] = [v for v in homes if "Lisbon" in v or "里斯本" in v]
    [new] = [v for v in homes if "Madrid" in v or "马德里" in v]
    assert (homes[old], homes[new]) == ("superseded", "active"), homes
    assert "2023" in old, homes
