"""A request the assistant carried out is not kept as an instruction, and its result is
(tester hbreak5 F23: "Book me the cheapest flight to Lisbon on December 20." then "Booked TP553
on 2026-12-20, seat 14C, 89 EUR." kept only the event "Book the user the cheapest flight…",
which reads as an order to book again). Through /extract, offline."""

from __future__ import annotations

from tests.services.extraction.extracted import units_of, user


async def test_a_carried_out_request_leaves_its_result(client):
    said = [user("Book me the cheapest flight to Lisbon on December 20."),
            {"role": "assistant", "content": "Booked TP553 on 2026-12-20, seat 14C, 89 EUR."},
            user("Great, thanks!")]  # fmt: skip
    units = await units_of(client, "traveller", said)
    assert list(units) == ["The assistant booked TP553 on 2026-12-20, seat 14C, 89 EUR."], units
    assert units["The assistant booked TP553 on 2026-12-20, seat 14C, 89 EUR."]["type"] == "result"


async def test_a_request_not_carried_out_is_kept(client):
    units = await units_of(client, "diner", [user("Book me a table at Nobu for Friday.")])
    assert [v for v in units if "Nobu" in v], units
