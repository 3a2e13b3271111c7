"""How changes told with "we", without a subject, or in few words are written (tester
hbreak7 H15, H5, H26): 我们一家 is the family, no "（和其他人一起）" after it; a plan of the
speaker's moved or called off is theirs (用户的婚礼…, not "用户：婚礼…"); a trip pushed or a child
born is no act done "with others"; "No more dairy for me." is a unit; "Neither my wife nor I eat
meat." is the user's food constraint, not an event."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import units_of, user


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("我们一家搬到深圳了", "用户一家搬到深圳了。"),
        ("上海的出差取消了", "用户的上海的出差取消了。"),
        ("婚礼推迟到明年十月", "用户的婚礼推迟到2027年10月。"),
        ("We pushed the Lisbon trip to August", "The user pushed the Lisbon trip to August."),
        ("We just had our third baby", "The user just had the user's third baby."),
    ],
)
async def test_the_change_is_written_without_noise(client, said, expected):
    units = await units_of(client, f"cw-{len(said)}", [user(said)])
    assert list(units) == [expected], units


async def test_no_more_dairy_is_a_unit(client):
    units = await units_of(client, "cw-dairy", [user("No more dairy for me.")])
    assert list(units) == ["The user no longer has dairy."], units
    assert units["The user no longer has dairy."]["entities"] == ["dairy"]


async def test_neither_my_wife_nor_i_is_the_users_constraint(client):
    units = await units_of(client, "cw-neither", [user("Neither my wife nor I eat meat.")])
    assert {v: m["type"] for v, m in units.items()} == {"The user does not eat meat.": "constraint"}
