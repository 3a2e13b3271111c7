"""Secrets the tester found kept (tester hbreak7 H27): an AWS secret access key, a texted
one-time code ("your code is 483920"), a Wi-Fi password said in German ("WLAN-Passwort: …")
— withheld by extraction and refused by ``/store`` like every other secret; a zip code, an
area code and a discount code are no secret."""

from __future__ import annotations

import pytest

from app.services.extraction import secrets
from tests.services.extraction.extracted import units_of, user

AWS = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
SAID = [
    (f"My AWS secret access key is {AWS}, I keep it for the deploy scripts.", AWS),
    (f"aws_secret_access_key = {AWS}", AWS),
    ("I just got a text from the bank: your code is 483920.", "483920"),
    ("The code they texted me is 771204, I need it for the login.", "771204"),
    ("Unser WLAN-Passwort: Sommer2024!Haus", "Sommer2024"),
    ("Das WLAN-Passwort ist Kirschbaum77 und der Router steht im Flur.", "Kirschbaum77"),
    ("Le mot de passe du wifi est Soleil2024", "Soleil2024"),
]


@pytest.mark.parametrize(("said", "secret"), SAID)
def test_found(said: str, secret: str) -> None:
    masked, kinds = secrets.mask(said)
    assert secret not in masked and kinds, masked


@pytest.mark.parametrize(
    "said",
    [
        "My zip code is 10115 and I live in Berlin.",
        "The area code for Munich is 089.",
        "Your discount code is SAVE20.",
        "The dress code is smart casual.",
        "I keep my keys in the secret drawer.",
    ],
)
def test_no_secret(said: str) -> None:
    assert secrets.find(said) == []


@pytest.mark.parametrize(("said", "secret"), SAID)
async def test_never_extracted(client, said: str, secret: str) -> None:
    units = await units_of(client, "h27", [user(said), user("I work as a nurse in Leipzig.")])
    assert not [v for v in units if secret in v], units
    assert [v for v in units if "nurse" in v], units


@pytest.mark.parametrize(("said", "secret"), SAID)
async def test_refused_by_store(client, said: str, secret: str) -> None:
    r = await client.post("/store", json={"memories": [{"user_id": "h27", "value": said}]})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["type"] == "secret_never_kept"
    assert secret not in r.text
