"""Chinese names given with 叫 (tester hbreak10 L7): "用户现在的女朋友叫丽娜。" had the entity
"叫丽娜" (jieba tags the verb with the name) and "用户养了一只叫豆豆的猫。" none, so
``GET /entities/丽娜`` and the entity filter missed them."""

from __future__ import annotations

import pytest

from app.services.extraction.statements import zh_entities
from tests.services.memory.told import stored


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("用户现在的女朋友叫丽娜。", ["丽娜"]),
        ("用户养了一只叫豆豆的猫。", ["豆豆"]),
        ("用户家有一条叫旺财的狗", ["旺财"]),
        ("我的同事叫王芳", ["王芳"]),
        ("用户叫了外卖。", []),  # 叫 as "order": no name
    ],
)
def test_names_given_with_jiao(text: str, names: list[str]) -> None:
    assert zh_entities(text, []) == names


async def test_store_infers_the_given_name(client) -> None:
    result = await stored(client, "l7", "用户现在的女朋友叫丽娜。")
    assert (await client.get(f"/memories/{result['id']}")).json()["entities"] == ["丽娜"]
