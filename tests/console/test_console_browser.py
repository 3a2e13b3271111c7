"""The memory console in a real headless browser (Debian's Chromium driven by Playwright)
against the real service (`hindsight serve` on the embedded default, a free loopback port):
English and Chinese units found in the console, a supersede chain, recall score bars, a
forget that removes the unit from the list and from recall, the working-memory window and
its close → extraction job, a wrong key refused, and no call reaching another namespace.

Skips, saying why, where /usr/bin/chromium or the playwright package is missing (.ci/run
installs Chromium with apt-get, best effort)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser import demo, launch, needs_browser, sync_playwright

Service, enter_key, seed, serve = demo.Service, demo.enter_key, demo.seed, demo.serve

if sync_playwright is not None:
    from playwright.sync_api import Page, expect

pytestmark = needs_browser

OTHER_SECRET = "Bob's locker number is 4711 / 鲍勃的储物柜号码"
WRONG_KEY = "hs_this-is-not-a-key"


@pytest.fixture(autouse=True)
def clean_tables() -> Iterator[None]:
    """This module's service has its own database; and while Playwright's sync API runs its
    event loop in this thread, the suite's async table-cleaning fixture could not run."""
    yield


class Console:
    """The service with two namespaces (`demo` seeded, `other` with one secret unit), a
    browser page logged in with demo's key, and every request the browser made."""

    def __init__(self, service: Service, browser: Any, ids: dict[str, Any]) -> None:
        self.service = service
        self.browser = browser
        self.ids = ids
        self.requests: list[Any] = []
        self.page = self.new_page()
        self.page.goto(f"{service.url}/console/")
        enter_key(self.page, service.keys["demo"])

    def new_page(self) -> Page:
        """A page in a fresh browser context (its own session storage)."""
        page = self.browser.new_page(viewport={"width": 1366, "height": 900})
        page.set_default_timeout(20_000)
        page.on("request", lambda request: self.requests.append(request))
        return page

    def go(self, route: str) -> Page:
        self.page.goto(f"{self.service.url}/console/{route}")
        return self.page


@pytest.fixture(scope="module")
def console() -> Iterator[Console]:
    with serve() as service:
        service.create_key("demo")
        service.create_key("other")
        ids = seed(service.client("demo"))
        r = service.client("other").post(
            "/store", json={"memories": [{"user_id": "alice", "value": OTHER_SECRET}]}
        )
        assert r.status_code == 200, r.text
        with sync_playwright() as pw:
            browser = launch(pw)
            yield Console(service, browser, ids)
            browser.close()


def test_a_wrong_key_is_refused_and_not_kept(console):
    page = console.new_page()
    page.goto(f"{console.service.url}/console/")
    page.locator("#key-dialog[open]").wait_for()
    page.fill("#key-input", WRONG_KEY)
    page.click("#key-form button[type=submit]")
    expect(page.locator("#key-error")).to_contain_text("refused")
    assert page.evaluate("sessionStorage.getItem('hindsight.apiKey')") is None
    assert page.locator("#key-dialog").is_visible()
    # The right key opens the namespace; it is kept in session storage only.
    page.fill("#key-input", console.service.keys["demo"])
    page.click("#key-form button[type=submit]")
    expect(page.locator("#namespace")).to_contain_text("demo")
    stored = page.evaluate("sessionStorage.getItem('hindsight.apiKey')")
    assert stored == console.service.keys["demo"]
    assert page.evaluate("localStorage.length") == 0 and page.context.cookies() == []
    page.close()


def test_english_and_chinese_units_are_found(console):
    page = console.go("#/units")
    expect(page.locator(".subjects a", has_text="alice")).to_be_visible()
    page.locator(".subjects a", has_text="alice").click()
    # The view of all units stays on screen until alice's replaces it: wait for hers.
    expect(page.locator("h1 .subject-id")).to_have_text("alice")
    rows = page.locator(".units tbody tr")
    expect(rows.locator("a.value").first).to_be_visible()
    values = rows.locator("a.value").all_inner_texts()
    assert "Alice is allergic to peanuts" in values
    assert "用户持有贵州茅台（600519）的股票。" in values  # no mojibake
    assert "Bob drives an electric car" not in values  # another user
    # Filter by a Chinese entity.
    page.fill("input[name=entity]", "贵州茅台")
    page.click("text=Apply filters")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("600519")
    # Superseded units show only when asked for.
    page.goto(f"{console.service.url}/console/#/units?kind=user&subject=alice&status=superseded")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("用户住在上海")


def test_keyset_pages_walk_every_unit_once(console):
    page = console.go("#/units?kind=user&subject=alice&status=active&status=superseded&limit=3")
    seen: list[str] = []
    cursors = [""]
    for _ in range(5):
        rows = page.locator(f".table-wrap[data-cursor='{cursors[-1]}'] .units tbody tr")
        expect(rows.first).to_be_visible()
        seen += rows.locator("a.value").all_inner_texts()
        following = page.locator("a", has_text="Next page")
        if following.count() == 0:
            break
        fragment = urlsplit(following.get_attribute("href")).fragment
        cursors.append(parse_qs(fragment.split("?", 1)[1])["cursor"][0])
        following.click()
    stats = console.service.client("demo").get("/stats", params={"user_id": "alice"}).json()
    wanted = sum(n for t in stats["units"].values() for s, n in t.items() if s != "archived")
    assert len(seen) == len(set(seen)) == wanted >= 7
    assert len(cursors) >= 3
    # Back page by page to the first.
    for cursor in reversed(cursors[:-1]):
        page.locator("a", has_text="Previous page").click()
        expect(
            page.locator(f".table-wrap[data-cursor='{cursor}'] .units tbody tr").first
        ).to_be_visible()
    expect(page.locator("a", has_text="Previous page")).to_have_count(0)


def test_a_supersede_chain_opens(console):
    page = console.go(f"#/unit/{console.ids['moved']}")
    chain = page.locator(".chain li")
    expect(chain).to_have_count(2)
    expect(chain.nth(0)).to_contain_text("用户住在上海，在一家银行工作。")
    expect(chain.nth(0)).to_contain_text("superseded")
    expect(chain.nth(1)).to_have_class("current")
    # The older version links back to the story of the newer one.
    chain.nth(0).locator("a").click()
    expect(page.locator("h1")).to_have_text("用户住在上海，在一家银行工作。")
    expect(page.locator("[data-fact=Status]")).to_contain_text("superseded")
    expect(page.locator(".sources")).to_contain_text("微信对话 2026-01-10")


def test_a_correction_is_saved(console):
    unit = console.ids["seats"]
    page = console.go(f"#/unit/{unit}")
    page.fill("input[name=confidence]", "0.6")
    page.fill("input[name=entities]", "Alice, 靠窗座位")
    page.click("text=Save correction")
    expect(page.locator("[data-fact=Confidence]")).to_have_text("0.60")
    expect(page.locator("[data-fact=Entities]")).to_have_text("Alice, 靠窗座位")
    stored = console.service.client("demo").get(f"/memories/{unit}").json()
    assert (stored["confidence"], stored["entities"]) == (0.6, ["Alice", "靠窗座位"])
    assert stored["value"] == "Alice prefers window seats on long flights"  # not sent


def test_recall_score_bars_match_the_api(console):
    query = "what can Alice eat on the flight?"
    page = console.go("#/recall")
    page.fill("textarea[name=query]", query)
    page.fill("input[name=user_id]", "alice")
    page.click(".recall-form button[type=submit]")
    hits = page.locator(".hit")
    expect(hits.first).to_be_visible()
    assert "Alice is allergic to peanuts" in hits.locator("a.value").all_inner_texts()
    answer = (
        console.service.client("demo")
        .post("/recall", json={"query": query, "user_id": "alice"})
        .json()
    )
    assert hits.count() == len(answer["memories"])
    w = answer["weights"]
    for i, hit in enumerate(answer["memories"]):
        segments = hits.nth(i).locator(".bar .seg")
        shown = {
            s.get_attribute("data-signal"): float(s.get_attribute("data-share") or 0)
            for s in segments.all()
        }
        assert math.isclose(sum(shown.values()), 1.0, abs_tol=1e-3)
        # Shares of the weighted sum (the score less any redundancy penalty of the diversity
        # step: a hit nearly repeating a better-placed one, app.services.recall.collapse).
        total = sum(w[s] * v for s, v in hit["scores"].items())
        assert hit["score"] <= total + 1e-9
        for signal, share in shown.items():
            expected = w[signal] * hit["scores"][signal] / total
            assert math.isclose(share, expected, abs_tol=2e-4), (signal, share, expected)
        # The bar's length is the score relative to the best hit's.
        bar = hits.nth(i).locator(".bar").bounding_box()
        track = hits.nth(i).locator(".bar-track").bounding_box()
        ratio = hit["score"] / answer["memories"][0]["score"]
        assert math.isclose(bar["width"] / track["width"], ratio, abs_tol=0.02)
        label = hits.nth(i).locator(".bar").get_attribute("aria-label")
        # The console's recall and this one ran a moment apart: recency moves the score in
        # the fourth decimal, which may round the third otherwise (0.812 / 0.811 was seen).
        shown_score = float(label.split()[1].rstrip(",;:"))
        assert label.startswith("score ") and math.isclose(shown_score, hit["score"], abs_tol=2e-3)


def test_a_near_repeat_shows_its_redundancy_penalty(console):
    client = console.service.client("demo")
    for value in (
        "Thanks so much, Jon! See you next week.",
        "Thanks so much, Gina! See you next week.",
        "Carol went hiking in the Alps last summer",
    ):
        r = client.post("/store", json={"memories": [{"user_id": "carol", "value": value}]})
        assert r.status_code == 200, r.text
    query = "thanks, see you next week"
    answer = client.post(
        "/recall", json={"query": query, "user_id": "carol", "record_access": False}
    ).json()
    penalised = [i for i, m in enumerate(answer["memories"]) if m["redundancy"] > 0]
    assert len(penalised) == 1, answer["memories"]
    i = penalised[0]
    cause = 1 + [m["id"] for m in answer["memories"]].index(answer["memories"][i]["redundant_with"])
    page = console.go("#/recall")
    page.fill("textarea[name=query]", query)
    page.fill("input[name=user_id]", "carol")
    page.click(".recall-form button[type=submit]")
    hits = page.locator(".hit")
    expect(hits.first).to_be_visible()
    # Only the penalised hit has the hatched part, sized by its penalty, and says whom it repeats.
    expect(page.locator(".bar-redundancy[data-redundancy]")).to_have_count(1)
    shown = hits.nth(i).locator(".bar-track .bar-redundancy")
    assert float(shown.get_attribute("data-redundancy")) == round(
        answer["memories"][i]["redundancy"], 4
    )
    expect(hits.nth(i).locator(".hit-meta")).to_contain_text(f"nearly repeats #{cause}")
    expect(hits.nth(i).locator("tr.redundancy")).to_contain_text(f"repeats #{cause}")
    label = hits.nth(i).locator(".bar").get_attribute("aria-label")
    assert "for redundancy" in label


def test_forget_shows_the_receipt_and_the_unit_is_gone(console):
    unit = console.ids["stock"]
    page = console.go(f"#/unit/{unit}")
    page.click("#forget")
    page.click("#forget-confirm")
    receipt = page.locator(".receipt")
    expect(receipt).to_contain_text("Forgotten")
    expect(receipt).to_contain_text("memory units")
    # Gone from the list …
    page.goto(f"{console.service.url}/console/#/units?kind=user&subject=alice")
    expect(page.locator(".units tbody tr").first).to_be_visible()
    assert "贵州茅台" not in page.locator(".units").inner_text()
    # … and from recall, even when it is asked about by name.
    page.goto(f"{console.service.url}/console/#/recall?query=600519%20贵州茅台&user_id=alice")
    expect(page.locator(".hit").first).to_be_visible()
    assert "600519" not in page.locator(".hits").inner_text()
    page.goto(f"{console.service.url}/console/#/unit/{unit}")
    expect(page.locator("#view .error")).to_contain_text("not_found")


def test_working_memory_window_and_close_to_extraction(console):
    page = console.go(f"#/sessions/{console.ids['session']}?max_tokens=120&query=peanut%20meal")
    expect(page.locator(".msg").first).to_be_visible()
    left_out = page.locator(".msg.out")
    assert left_out.count() >= 1
    expect(left_out.first.locator(".reason")).to_contain_text("needed")
    assert page.locator(".msg").count() == 7  # in + left out = the whole window
    meter = page.locator("[role=meter]")
    assert int(meter.get_attribute("aria-valuenow")) <= int(meter.get_attribute("aria-valuemax"))
    page.click("text=Close and extract")
    job = page.locator(".job-box .job[data-status=succeeded]")
    expect(job).to_be_visible(timeout=60_000)
    assert job.locator(".job-units tbody tr").count() >= 1
    # The job is listed with the session now.
    page.reload()
    expect(page.locator(".jobs .job").first).to_be_visible()


def test_entities_list_profile_and_question(console):
    page = console.go("#/entities?user=alice")
    alice = page.locator("table.entities tbody tr", has_text="Alice")
    expect(alice).to_be_visible()
    assert alice.locator("td").nth(1).inner_text() == "2"  # every agent of the user
    expect(page.locator("table.entities")).to_contain_text("北京")
    alice.locator("a").click()
    expect(page.locator("h1.entity-name")).to_have_text("Alice")
    expect(page.locator(".neighbours")).to_contain_text("peanuts")
    expect(page.locator("table.units tbody tr")).to_have_count(2)
    page.locator(".neighbours a", has_text="peanuts").click()
    expect(page.locator("h1.entity-name")).to_have_text("peanuts")
    # A question names the entity; a Chinese name round-trips through the address.
    page = console.go("#/entities?user=alice&q=" + "what%20about%20Alice%3F")
    expect(page.locator("table.entities tbody tr")).to_have_count(1)
    page = console.go("#/entity/" + "%E5%8C%97%E4%BA%AC" + "?user=alice")
    expect(page.locator("h1.entity-name")).to_have_text("北京")
    expect(page.locator("table.units")).to_contain_text("用户搬到了北京")


def test_health_counts_units_jobs_and_recall_latency(console):
    page = console.go("#/health")
    stats = console.service.client("demo").get("/stats").json()
    expect(page.locator("#units-h")).to_contain_text(f"{stats['total_units']} in all")
    fact_active = page.locator("table[aria-labelledby=units-h] tbody tr", has_text="fact")
    assert fact_active.locator("td").first.inner_text() == str(stats["units"]["fact"]["active"])
    recall = page.locator(".latency tr[data-route='/recall']")
    assert int(recall.locator("td").first.inner_text()) >= 1
    assert recall.locator("[data-q=p50]").inner_text().endswith(" ms")
    assert recall.locator("[data-q=p95]").inner_text().endswith(" ms")
    expect(page.locator(".job-succeeded dd")).to_have_text(str(stats["jobs"]["succeeded"]))


def test_no_call_reaches_another_namespace(console):
    """Every request the page made went to this service; every API call carried demo's key;
    the other namespace's unit (same user id) never appeared in any view."""
    for route in ("#/units?kind=user&subject=alice", "#/recall?query=locker%20code&user_id=alice",
                  "#/sessions", "#/health", "#/entities?user=alice"):  # fmt: skip
        page = console.go(route)
        page.wait_for_load_state("networkidle")
        assert "4711" not in page.inner_text("body") and "鲍勃" not in page.inner_text("body")
    origin = urlsplit(console.service.url)
    allowed = {None, f"Bearer {console.service.keys['demo']}", f"Bearer {WRONG_KEY}"}
    api_calls = 0
    for request in console.requests:
        url = urlsplit(request.url)
        assert (url.scheme, url.netloc) == (origin.scheme, origin.netloc), request.url
        if url.path.startswith(("/console", "/ready", "/metrics")):
            continue
        api_calls += 1
        assert request.headers.get("authorization") in allowed, request.url
    assert api_calls > 10


def test_a_bidi_override_in_a_value_is_shown_not_obeyed(console):
    # Values keep their characters (content), ids refuse them (issue 31): U+202E in a value
    # is stored as sent, and the console shows it as a mark instead of reversing the text.
    value = "Invoice attached: invoice\u202egnp.exe"
    r = console.service.client("demo").post(
        "/store", json={"memories": [{"user_id": "mallory", "value": value}]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["memory"]["value"] == value
    page = console.go("#/units?kind=user&subject=mallory")
    link = page.locator(".units tbody tr a.value").first
    expect(link).to_contain_text("invoice⟨U+202E⟩gnp.exe")
    assert "\u202e" not in link.evaluate("el => el.textContent")
    assert link.locator("bdi.has-controls .control").count() == 1


def test_open_reviews_are_shown_and_decided_on_the_unit_page_and_the_list(console):
    api = console.service.client("demo")
    for value in (
        "Carol is bilingual in English and French",
        "Carol speaks English and French fluently",
    ):
        r = api.post("/store", json={"memories": [{"user_id": "carol", "value": value}]})
        assert r.status_code == 200, r.text
    [pending] = r.json()["results"][0]["pending"]
    newer = r.json()["results"][0]["id"]
    page = console.go("#/health")
    expect(page.locator("[data-open-reviews]")).to_have_text(
        f"{api.get('/stats').json()['open_reviews']} open"
    )
    page = console.go("#/reviews")
    expect(page.locator(f"[data-review='{pending['review_id']}']")).to_contain_text(
        "Carol speaks English and French fluently"
    )
    page = console.go(f"#/unit/{newer}")
    expect(page.locator("#conflicts-h + h3")).to_have_text("Open reviews (1)")
    page.locator(f"[data-review='{pending['review_id']}'] button[data-action=keep_both]").click()
    expect(page.locator("#toast")).to_contain_text("keep_both")
    expect(page.locator("section[aria-labelledby=conflicts-h]")).to_contain_text(
        "No known contradictions and no open reviews."
    )
    review = api.get(f"/reviews/{pending['review_id']}").json()
    assert (review["decision"], review["decided_by"]) == ("keep_both", "api")
