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


# Tester hbreak8 H10: a passphrase of plain words, a social security number said as "my
# social" with spaces, traditional Chinese 密碼 / 門禁碼, what a gate or an alarm opens with,
# a phone's unlock pattern — each was kept by /store and by extraction.
SAID_H10 = [
    ("My password is correct horse battery staple.", "horse battery staple"),
    ("My social is 123 45 6789.", "123 45 6789"),
    ("門禁碼是5566。", "5566"),
    ("我家密碼是123456。", "123456"),
    ("The garage opens with 7731.", "7731"),
    ("The gate opens with code 4455.", "4455"),
    ("The alarm is disarmed with 9-1-9-1.", "9-1-9-1"),
    ("My phone unlock pattern is 2580.", "2580"),
]


@pytest.mark.parametrize(("said", "secret"), SAID_H10)
def test_found_h10(said: str, secret: str) -> None:
    masked, kinds = secrets.mask(said)
    assert secret not in masked and kinds, masked


@pytest.mark.parametrize(
    "said",
    [
        "My password is correct, I checked.",
        "The password is wrong again today.",
        "My password is the same as my email.",
        "The garage opens at 7 am.",
        "The door opens with a key.",
        "I have a social event at 5.",
    ],
)
def test_no_secret_h10(said: str) -> None:
    assert secrets.find(said) == []


@pytest.mark.parametrize(("said", "secret"), SAID_H10)
async def test_refused_by_store_h10(client, said: str, secret: str) -> None:
    r = await client.post("/store", json={"memories": [{"user_id": "h10", "value": said}]})
    assert r.status_code == 422, r.text
    assert r.json()["errors"][0]["type"] == "secret_never_kept"
    assert secret not in r.text


@pytest.mark.parametrize(("said", "secret"), SAID_H10[:3])
async def test_never_extracted_h10(client, said: str, secret: str) -> None:
    units = await units_of(client, "h10", [user(said), user("I work as a nurse in Leipzig.")])
    assert not [v for v in units if secret in v], units
