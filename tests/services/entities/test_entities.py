"""The entity graph: names normalised once, aliases only when a unit declares them, upkeep
on store, merge, supersede, correction and forget, the /entities endpoints (scoping,
paging, 404s, names in any script) and the repository function recall can call."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.core.db import create_session_factory
from app.core.entity_names import display_name, entity_key
from app.core.errors import NotFoundError
from app.repositories.entities.read import EntityGraphReader, Scope
from app.schemas.entities import EntityListQuery, EntityProfileQuery
from app.services.entities.aliases import Alias, declared_aliases, is_abbreviation
from app.services.entities.profiles import EntityService

U = "ent-user"


async def store(client: httpx.AsyncClient, *units: dict[str, Any]) -> list[dict[str, Any]]:
    r = await client.post("/store", json={"memories": [{"user_id": U, **u} for u in units]})
    assert r.status_code == 200, r.text
    return r.json()["results"]


async def entities(client: httpx.AsyncClient, **params: Any) -> dict[str, dict[str, Any]]:
    r = await client.get("/entities", params={"user_id": U, **params})
    assert r.status_code == 200, r.text
    return {e["key"]: e for e in r.json()["entities"]}


async def profile(client: httpx.AsyncClient, name: str, **params: Any) -> httpx.Response:
    return await client.get(f"/entities/{quote(name, safe='')}", params={"user_id": U, **params})


async def edges(engine: AsyncEngine) -> dict[tuple[str, str], int]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT x.key AS a, y.key AS b, e.weight FROM entity_edges e"
                " JOIN entities x ON x.id = e.a JOIN entities y ON y.id = e.b"
            )
        )
        return {tuple(sorted((r.a, r.b))): r.weight for r in rows}  # type: ignore[misc]


# ---- names and aliases (pure) -------------------------------------------------------------


def test_keys_fold_case_width_space_and_bidi_but_keep_cjk() -> None:
    assert entity_key("  ＶＳ　Code ") == entity_key("vs code") == "vs code"
    assert entity_key("Caroline\u200f") == entity_key("CAROLINE") == "caroline"
    # a zero-width space is no part of a name (tester hbreak5 F39: "\u200bpeanuts")
    assert entity_key("\u200bpeanuts") == entity_key("pea\u200dnuts\ufeff") == "peanuts"
    assert entity_key("北京大学") == "北京大学" and entity_key("北京大学") != entity_key("北大")
    assert entity_key("C#") != entity_key("C")
    assert entity_key("\u202e\u200f ") == ""
    assert display_name(" Visual \u202e Studio  Code ") == "Visual Studio Code"


@pytest.mark.parametrize(
    ("short", "long", "expected"),
    [
        ("VS Code", "Visual Studio Code", True),
        ("NYC", "New York City", True),
        ("BoA", "Bank of America", True),
        ("北大", "北京大学", True),
        ("Sam", "Samsung rep", False),
        ("France", "Paris", False),
        ("my sister", "Melanie", False),
        ("Visual Studio Code", "VS Code", False),
    ],
)
def test_abbreviation(short: str, long: str, expected: bool) -> None:
    assert is_abbreviation(short, long) is expected


def test_aliases_only_when_the_unit_says_so() -> None:
    vs = Alias("Visual Studio Code", "VS Code")
    assert declared_aliases("I code in Visual Studio Code (VS Code)", ["VS Code"]) == [vs]
    assert declared_aliases("I code in Visual Studio Code (VS Code)", ["Visual Studio Code"]) == [
        vs
    ]
    assert declared_aliases("Caroline, also called Carol, paints", ["Caroline"]) == [
        Alias("Caroline", "Carol")
    ]
    assert declared_aliases("Caroline, also known as Caz, paints", ["Caroline", "Caz"]) == [
        Alias("Caroline", "Caz")
    ]
    assert declared_aliases("我在北京大学（北大）读书", ["北大"]) == [Alias("北京大学", "北大")]
    assert declared_aliases("北京大学又称北大", ["北京大学"]) == [Alias("北京大学", "北大")]
    # A parenthesis that is not an abbreviation, an unknown nickname, two names side by side.
    assert declared_aliases("Caroline lives in Paris (France)", ["Paris", "France"]) == []
    assert declared_aliases("Caroline, also known as Caz, paints", ["Caroline"]) == []
    assert declared_aliases("Met Sam (Samsung rep) today", ["Sam"]) == []
    assert (
        declared_aliases("VS Code and Visual Studio Code", ["VS Code", "Visual Studio Code"]) == []
    )


# ---- upkeep --------------------------------------------------------------------------------


async def test_store_links_entities_counts_and_cooccurrence(client, engine) -> None:
    await store(
        client,
        {
            "value": "Caroline went to a LGBTQ support group",
            "entities": ["Caroline", "LGBTQ"],
            "occurred_at": "2023-05-07T10:00:00Z",
        },
        {
            "value": "Caroline wants to study counseling",
            "entities": ["caroline ", "Counseling"],
            "occurred_at": "2023-06-01T10:00:00Z",
        },
        {
            "value": "Melanie paints with Caroline",
            "entities": ["Melanie", "ＣＡＲＯＬＩＮＥ"],
            "occurred_at": "2023-07-01T10:00:00Z",
        },
    )
    listed = await entities(client)
    assert set(listed) == {"caroline", "lgbtq", "counseling", "melanie"}
    assert listed["caroline"]["unit_count"] == 3
    assert listed["caroline"]["name"] == "Caroline"  # the first spelling
    assert listed["caroline"]["last_seen"].startswith("2023-07-01")
    assert (
        list(listed)[0] == "melanie"
        or listed["melanie"]["last_seen"] >= listed["lgbtq"]["last_seen"]
    )
    assert await edges(engine) == {
        ("caroline", "lgbtq"): 1,
        ("caroline", "counseling"): 1,
        ("caroline", "melanie"): 1,
    }
    r = await profile(client, "CAROLINE")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["unit_count"] == 3
    assert [u["value"] for u in body["units"]][0].startswith("Caroline went")  # time order
    assert {n["key"]: n["weight"] for n in body["neighbours"]} == {
        "lgbtq": 1,
        "counseling": 1,
        "melanie": 1,
    }


async def test_merge_adds_only_new_links(client, engine) -> None:
    first = await store(
        client, {"value": "Caroline lives in Boston", "entities": ["Caroline", "Boston"]}
    )
    again = await store(
        client,
        {"value": "Caroline lives in Boston", "entities": ["Caroline", "Boston", "Massachusetts"]},
    )
    assert again[0]["outcome"] == "merged" and again[0]["id"] == first[0]["id"]
    listed = await entities(client)
    assert listed["boston"]["unit_count"] == 1 and listed["massachusetts"]["unit_count"] == 1
    assert (await edges(engine))[("boston", "caroline")] == 1  # not counted twice
    assert (await edges(engine))[("boston", "massachusetts")] == 1


async def test_supersede_drops_the_old_units_counts_and_keeps_its_links(client, engine) -> None:
    # A later contradiction supersedes the old unit: Shanghai has no active unit left, its
    # links stay (history), and the profile of the new city has the new unit.
    old, new = await store(
        client,
        {"value": "The user lives in Shanghai.", "occurred_at": "2026-01-10T00:00:00Z",
         "entities": ["Shanghai", "Caroline"], "ttl_days": 36500},
        {"value": "The user moved to Beijing and now lives there.", "ttl_days": 36500,
         "occurred_at": "2026-06-01T00:00:00Z", "entities": ["Beijing", "Caroline"]},
    )  # fmt: skip
    assert new["outcome"] == "superseded"
    assert (await client.get(f"/memories/{old['id']}")).json()["status"] == "superseded"
    listed = await entities(client)
    assert "shanghai" not in listed and listed["beijing"]["unit_count"] == 1
    assert listed["caroline"]["unit_count"] == 1  # Beijing's
    assert (await profile(client, "Shanghai")).status_code == 404
    assert (await edges(engine))[("caroline", "shanghai")] == 1  # stored units, any status


async def test_forget_drops_links_orphans_and_recounts_edges(client, engine) -> None:
    a, b = await store(
        client,
        {"value": "Quetzalli the iguana likes mango", "entities": ["Quetzalli", "mango"]},
        {"value": "Caroline buys mango on Fridays", "entities": ["Caroline", "mango"]},
    )
    r = await client.delete(f"/memories/{a['id']}")
    assert r.status_code == 200, r.text
    removed = r.json()["removed"]
    assert removed["entity_links"] == 2 and removed["entities"] == 1  # Quetzalli went
    listed = await entities(client)
    assert set(listed) == {"mango", "caroline"} and listed["mango"]["unit_count"] == 1
    assert await edges(engine) == {("caroline", "mango"): 1}
    r = await client.delete("/memories", params={"user_id": U})
    assert r.status_code == 200 and r.json()["removed"]["entities"] == 2
    async with engine.connect() as conn:
        for table in ("entities", "unit_entities", "entity_edges"):
            assert (await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one() == 0
    assert b["id"]


async def test_alias_declared_later_folds_the_entity_and_resolves(client, engine) -> None:
    await store(
        client, {"value": "The user's editor is VS Code", "entities": ["VS Code", "Python"]}
    )
    await store(
        client,
        {
            "value": "The user writes Rust in Visual Studio Code (VS Code)",
            "entities": ["Visual Studio Code", "Rust"],
        },
    )
    listed = await entities(client)
    assert "vs code" not in listed and listed["visual studio code"]["unit_count"] == 2
    assert (await edges(engine)).get(("python", "visual studio code")) == 1
    # Later mentions by the alias land on the entity; the alias finds the profile.
    await store(client, {"value": "The user installed a theme in VS Code", "entities": ["vs code"]})
    r = await profile(client, "VS Code")
    assert r.status_code == 200, r.text
    assert r.json()["key"] == "visual studio code" and r.json()["unit_count"] == 3
    assert r.json()["aliases"] == ["VS Code"]


async def test_correction_of_entities_relinks(client, engine) -> None:
    (unit,) = await store(
        client, {"value": "Dinner with Jon on Friday", "entities": ["Jon", "Friday"]}
    )
    r = await client.patch(f"/memories/{unit['id']}", json={"entities": ["John", "Friday"]})
    assert r.status_code == 200, r.text
    listed = await entities(client)
    assert set(listed) == {"john", "friday"}
    assert await edges(engine) == {("friday", "john"): 1}


# ---- the endpoints --------------------------------------------------------------------------


TOPICS = [
    "The user plays the cello every Sunday morning",
    "Their landlord raised the rent by twelve percent",
    "A parcel from Osaka arrived with green tea",
    "The car needs new winter tyres before December",
    "Grandma's recipe uses three eggs and brown sugar",
]


async def test_list_pages_scopes_and_mentions(client) -> None:
    await store(
        client,
        *[
            {
                "value": v,
                "entities": [f"Topic{i}"],
                "occurred_at": f"2024-01-{i + 1:02d}T00:00:00Z",
                "session_id": "s-even" if i % 2 == 0 else "s-odd",
            }
            for i, v in enumerate(TOPICS)
        ],
        {
            "value": "Caroline's sister Melanie paints",
            "entities": ["Caroline", "Melanie"],
            "agent_id": "a1",
        },
    )
    seen: list[str] = []
    cursor = None
    for _ in range(10):
        params: dict[str, Any] = {
            "user_id": U,
            "limit": 2,
            **({"cursor": cursor} if cursor else {}),
        }
        r = await client.get("/entities", params=params)
        assert r.status_code == 200, r.text
        seen += [e["key"] for e in r.json()["entities"]]
        cursor = r.json()["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == sorted({*(f"topic{i}" for i in range(5)), "caroline", "melanie"})
    assert len(seen) == 7
    assert set(await entities(client, session_id="s-even")) == {"topic0", "topic2", "topic4"}
    assert set(await entities(client, agent_id="a1")) == {"caroline", "melanie"}
    mentioned = await entities(client, mentioned_in="What do we know about Caroline's plans?")
    assert list(mentioned) == ["caroline"]
    assert await entities(client, mentioned_in="What about Carolineville?") == {}
    r = await client.get(
        "/entities",
        params={"user_id": U, "limit": 2, "cursor": cursor or "x", "session_id": "s-odd"},
    )
    assert r.status_code == 422
    assert (await client.get("/entities")).status_code == 422  # user_id is required


async def test_profile_errors_and_names_in_any_script(client, engine) -> None:
    names = ["小红书", "🦄 Unicorn Labs", "שלום עולם", "Café ☕", "AC/DC"]
    await store(client, {"value": "Names in several scripts", "entities": names})
    listed = await entities(client)
    for name in names:
        assert entity_key(name) in listed
        r = await profile(client, listed[entity_key(name)]["name"])
        assert r.status_code == 200, (name, r.text)
        assert r.json()["name"] == name
    # A bidi control inside a name is ignored; a name of controls only is refused clearly.
    assert (await profile(client, "\u202bשלום עולם\u202c")).status_code == 200
    r = await profile(client, "\u202e\u200f")
    assert r.status_code == 422 and "bidirectional" in r.json()["detail"]
    r = await profile(client, "Nobody")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/problem+json")
    assert (await profile(client, "x" * 201)).status_code == 422
    # A NUL byte is refused clearly, not a 500 from PostgreSQL (tester B3).
    for bad in ("\x00", "a\x00b"):
        r = await profile(client, bad)
        assert r.status_code == 422 and "NUL" in r.json()["detail"], r.text
    # Another namespace never finds them.
    async with create_session_factory(engine)() as session:
        service = EntityService(EntityGraphReader(session))
        now = datetime.now(UTC)
        with pytest.raises(NotFoundError):
            await service.profile("other-ns", "小红书", EntityProfileQuery(user_id=U), now)
        page = await service.entities("other-ns", EntityListQuery(user_id=U), now)
        assert page.entities == []


async def test_linked_units_for_recall(client, engine) -> None:
    a, b, c = await store(
        client,
        {"value": "Caroline adopted a dog named Rex", "entities": ["Caroline", "Rex"]},
        {"value": "Rex needs a vet visit in May", "entities": ["Rex", "vet"]},
        {"value": "Melanie went camping", "entities": ["Melanie"]},
    )
    async with create_session_factory(engine)() as session:
        reader = EntityGraphReader(session)
        now = datetime.now(UTC)
        direct = await reader.linked_units(Scope("default", U), ["caroline"], now, hops=0)
        assert [(x.unit_id.hex, x.hop) for x in direct] == [(a["id"].replace("-", ""), 0)]
        two = await reader.linked_units(Scope("default", U), [entity_key("CAROLINE")], now)
        assert {str(x.unit_id): (x.hop, x.via) for x in two} == {
            a["id"]: (0, "caroline"),
            b["id"]: (1, "rex"),
        }
        assert await reader.linked_units(Scope("default", "someone-else"), ["caroline"], now) == []
    assert c["id"]


# ---- the migration's backfill -------------------------------------------------------------


async def test_migration_backfills_the_graph_from_stored_units(engine, database_url) -> None:
    import asyncio

    from app.core import migrate
    from app.core.db import create_engine
    from tests.conftest import new_database

    async with new_database(engine, database_url, "graph") as url:
        await asyncio.to_thread(migrate.upgrade, url, "0009")
        eng = create_engine(url)
        try:
            vector = "[" + ",".join(["0.1"] * 384) + "]"
            async with eng.begin() as conn:
                for n, (user, agent, names) in enumerate(
                    [
                        ("u1", None, ["Caroline", "LGBTQ"]),
                        ("u1", None, ["ＣＡＲＯＬＩＮＥ ", "Melanie"]),
                        ("u1", "a1", ["Caroline"]),
                        ("u2", None, ["小红书", "\u202e"]),
                    ]
                ):
                    await conn.execute(
                        text(
                            "INSERT INTO memory_units (id, namespace, user_id, agent_id, type,"
                            " value, entities, entity_keys, confidence, source, raw_ref,"
                            " metadata, status, conflicts_with, value_hash, occurred_at,"
                            " last_confirmed_at, merge_count, embedding_model, value_embedding,"
                            " search_text) VALUES (gen_random_uuid(), 'default', :u, :a,"
                            " 'fact', :v, :e, '{}', 1, 'user', '{}', '{}', 'active', '{}', :h,"
                            " now() - make_interval(days => :d), now(), 0, 'm',"
                            " CAST(:vec AS vector), '')"
                        ),
                        {
                            "u": user,
                            "a": agent,
                            "v": f"v{n}",
                            "e": names,
                            "h": f"h{n}",
                            "d": 10 - n,
                            "vec": vector,
                        },
                    )
            await asyncio.to_thread(migrate.upgrade, url, "head")
            async with eng.connect() as conn:
                rows = await conn.execute(
                    text(
                        "SELECT e.user_id, e.agent_id, e.key, e.name, count(ue.unit_id) AS n"
                        " FROM entities e LEFT JOIN unit_entities ue ON ue.entity_id = e.id"
                        " GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3"
                    )
                )
                assert [tuple(r) for r in rows] == [
                    ("u1", "", "caroline", "Caroline", 2),
                    ("u1", "", "lgbtq", "LGBTQ", 1),
                    ("u1", "", "melanie", "Melanie", 1),
                    ("u1", "a1", "caroline", "Caroline", 1),
                    ("u2", "", "小红书", "小红书", 1),
                ]
                weights = await conn.execute(
                    text(
                        "SELECT x.key, y.key, ed.weight FROM entity_edges ed"
                        " JOIN entities x ON x.id = ed.a JOIN entities y ON y.id = ed.b"
                        " ORDER BY 1, 2"
                    )
                )
                assert sorted(tuple(sorted(r[:2])) + (r[2],) for r in weights) == [
                    ("caroline", "lgbtq", 1),
                    ("caroline", "melanie", 1),
                ]
        finally:
            await eng.dispose()


async def test_edges_are_counted_among_a_units_first_ten_entities(client, engine) -> None:
    # Tester C28: 60 units of 50 entities each wrote 73,500 co-occurrence edges (one 63 kB
    # /store, 33 s of database work). Every entity is still linked; edges come from a unit's
    # first ten: 45 per unit.
    names = [f"Ent{i:02d}" for i in range(50)]
    units = [{"user_id": "ent", "value": f"u{j}", "entities": names} for j in range(3)]
    r = await client.post("/store", json={"memories": units})
    assert r.status_code == 200, r.text
    async with engine.connect() as conn:
        links = (await conn.execute(text("SELECT count(*) FROM unit_entities"))).scalar_one()
    assert links == 150
    found = await edges(engine)
    assert len(found) == 45
    first = {name.lower() for name in names[:10]}
    assert all(a in first and b in first for a, b in found)
    assert set(found.values()) == {3}  # three units each
