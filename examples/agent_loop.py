"""An agent loop on Hindsight: read the window, recall, answer, append, close.

    python3 scripts/serve.py                 # terminal 1: the service on 127.0.0.1:8000
    python3 examples/agent_loop.py           # terminal 2: this loop

Session 1 talks with Bob about a flight; closing it turns the transcript into memory units
(hindsight extraction). Session 2, a new conversation, asks for a snack on the flight: recall
brings back Bob's peanut allergy from session 1 and it goes into the model's prompt.

Each turn:
1. append the user's message to the session's working memory;
2. read the window (the session's messages that fit a token budget, ranked for the turn);
3. recall long-term memory units for the turn;
4. answer with the model (system prompt = the recalled units, messages = the window);
5. append the answer.
Then close the session and wait for its extraction job.

The model is any OpenAI-compatible chat endpoint: ``--llm-url`` / ``LLM__BASE_URL`` (with
``LLM__API_KEY``, ``LLM__MODEL``; the service's own variable names). Without one the answer is
a stand-in that quotes what memory said, so the loop runs offline. ``--url`` / ``--key``
(or ``HINDSIGHT_URL`` / ``HINDSIGHT_API_KEY``) reach the service.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SESSION_1 = [
    "Hi! I need a flight from Berlin to Tokyo next Friday.",
    "Window seat, please. And I am allergic to peanuts.",
]
SESSION_2 = ["Can you pick a snack for my flight?"]


def _client_module() -> Any:
    """hindsight_client, installed into this environment from clients/python on first use."""
    try:
        import hindsight_client
    except ImportError:
        print("installing clients/python (hindsight-client) into this environment", flush=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", str(ROOT / "clients" / "python")],
            check=True,
        )
        import hindsight_client
    return hindsight_client


class Model:
    """An OpenAI-compatible chat endpoint, or the offline stand-in when ``base_url`` is None."""

    def __init__(self, base_url: str | None, api_key: str | None, model: str) -> None:
        self.base_url = base_url.rstrip("/") if base_url else None
        self.api_key = api_key
        self.model = model

    def answer(self, system: str, messages: list[dict[str, str]], memories: list[str]) -> str:
        if self.base_url is None:
            if not memories:
                return "Happy to help. (No memory about this yet.)"
            return "Keeping in mind what I remember: " + " ".join(memories[:2])
        import httpx

        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        response = httpx.post(
            f"{self.base_url}/chat/completions",
            json={"model": self.model, "temperature": 0,
                  "messages": [{"role": "system", "content": system}, *messages]},
            headers=headers,
            timeout=60,
        )  # fmt: skip
        response.raise_for_status()
        return str(response.json()["choices"][0]["message"]["content"]).strip()


def system_prompt(memories: list[str]) -> str:
    lines = ["You are a travel assistant. Use what you remember about the user."]
    if memories:
        lines += ["What you remember about the user:", *[f"- {m}" for m in memories]]
    return "\n".join(lines)


def turn(api: Any, model: Model, session_id: str, user_id: str, text: str) -> str:
    """One turn of the loop (steps 1-5 of the module docstring); returns the answer."""
    api.append(session_id, [{"role": "user", "user_id": user_id, "content": text}])
    window = api.window(session_id, query=text, max_tokens=2000)
    recalled = api.recall(text, user_id=user_id, top_k=3, min_score=0.3).memories
    memories = [hit.value for hit in recalled]
    messages = [{"role": m.role, "content": m.content} for m in window.messages]
    answer = model.answer(system_prompt(memories), messages, memories)
    api.append(session_id, [{"role": "assistant", "content": answer}])
    print(f"user:      {text}")
    # score orders this answer's hits (its scale depends on the other candidates); relevance,
    # 0..1, is comparable across turns (how likely the unit answers the turn by its own words)
    for hit in recalled:
        print(f"  recalled  score {hit.score:.2f}  relevance {hit.relevance:.2f}  {hit.value}")
    print(f"assistant: {answer}")
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("HINDSIGHT_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--key", default=os.environ.get("HINDSIGHT_API_KEY"))
    parser.add_argument("--user", default="bob")
    parser.add_argument("--run", default="demo", help="suffix of the two session ids")
    parser.add_argument("--llm-url", default=os.environ.get("LLM__BASE_URL"))
    parser.add_argument("--llm-model", default=os.environ.get("LLM__MODEL", "gpt-4o-mini"))
    args = parser.parse_args(argv)
    hc = _client_module()
    model = Model(args.llm_url, os.environ.get("LLM__API_KEY"), args.llm_model)
    print(f"model: {args.llm_url or 'offline stand-in (set --llm-url or LLM__BASE_URL)'}")
    with hc.Hindsight(args.url, args.key) as api:
        first = f"trip-{args.run}-1"
        print(f"\n== session {first}")
        for text in SESSION_1:
            turn(api, model, first, args.user, text)
        closed = api.close_session(first, timezone="Europe/Berlin")
        job = api.wait_for_job(closed.job.id, timeout_s=120)
        print(f"closed: extraction job {job.status}, {len(job.units or [])} units")
        for unit in job.units or []:
            print(f"  {unit.type:<11} {unit.value}")

        second = f"trip-{args.run}-2"
        print(f"\n== session {second} (a new conversation)")
        for text in SESSION_2:
            turn(api, model, second, args.user, text)
        api.close_session(second)
    return 0


if __name__ == "__main__":
    if sys.prefix == sys.base_prefix:  # plain python3: re-run inside the project's venv
        sys.path.insert(0, str(ROOT / "scripts"))
        from _bootstrap import ensure

        python = ensure()
        os.execv(str(python), [str(python), __file__, *sys.argv[1:]])
    sys.exit(main())
