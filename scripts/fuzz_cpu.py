"""Rule CPU on hostile text: every rule path that reads request text, fed hostile shapes at
the longest text the API admits, in process (no server, no database, no embedder).

A valid request must not buy seconds of CPU: "tea", 1,994 spaces and "end" made the offline
extractor's correction rule backtrack for seconds (a ``\\s*`` before a ``\\s+`` over one
run of whitespace), and ``/store``'s type inference for minutes. This script looks for the
next one. Each *path* is the rule code one request runs over one text, called as the
service calls it:

- ``extract`` — :class:`~app.services.extraction.offline.OfflineExtractor` on one user
  message (after the user's earlier message and an assistant question: the readers of
  answers and corrections run too), ``LIMITS__MESSAGE_CHARS`` characters (``POST /extract``,
  and a session's transcript when it closes); ``extract (assistant)``: an assistant message;
- ``store inference`` — :func:`~app.services.extraction.store_inferred.inferred` on a
  ``/store`` value without a type (``LIMITS__VALUE_CHARS``); ``store search text`` — the
  keyword tokens and hash of a stored value and trigger scenario;
- ``pair decision`` — :func:`~app.services.memory.pairs.plan.plan` of a new value against
  neighbours (the value with one character changed, and a plain sentence), above the
  candidate gate so every guard reads both texts;
- ``recall: …`` — the readers of a ``/recall`` query (2,000 characters): the time phrase,
  the answer type, the keyword terms (tokens, food terms, the other language), the names
  stripped before embedding, the list question; ``recall: value readers`` — what ranking
  reads of a candidate's value (its answer kinds, its nouns);
- ``working memory`` — what an appended message is read for (standing statement, filler,
  information density; ``LIMITS__MESSAGE_CHARS``) and the confirmation test of a close.

Shapes: runs of whitespace, of one punctuation mark, of one word or cue phrase of the rules
(English and Chinese), long words, digits, nested brackets, alternating English and
Chinese; plus plain prose of the same length (``prose``: what the length costs anyway).
The words of the English cue rules are screened too, each as a run at 2,000 characters
(``cue:<word>``); one costing more than ``--rerun-ms`` there is run at the path's limit.

A text the API embeds (a value, a query) is also cut to ``LIMITS__TEXT_TOKENS`` model
tokens, as a longer one is refused before any rule reads it; the table gives the most
characters a path read. Each case runs once in a worker process and is measured in CPU time
(``time.process_time``); one running past ``--timeout`` seconds is stopped and reported as
over it. ``python scripts/fuzz_cpu.py [--paths extract,…] [--shapes spaces,…] [--timeout 5]
[--write-doc] [--json FILE]``: prints the table (worst CPU per path, and every case over
100 ms); ``--write-doc`` writes it into docs/RELIABILITY.md ("Rule CPU on hostile text").

``--growth`` measures instead how the cost of the extractor's message grows with its length:
the prose shapes (and the run of a correction, ``cue: sorry,``) at 2,000, 8,000, 16,000,
64,000 and 100,000 characters (at most the path's limit), the median of ``--repeats`` runs
each, and the CPU per 1,000 characters at the longest over that at the shortest (about 1 when
the cost is linear; a text read again for each of its sentences makes it grow with the length).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import re
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit.docsection import write_block  # noqa: E402
from benchkit.timing import uptime_line  # noqa: E402

from app.clients.model_tokens import E5Tokens, cut_to  # noqa: E402
from app.core.config import LimitsSettings  # noqa: E402
from app.core.text import search_text, tokenize, value_hash  # noqa: E402
from app.schemas.working_memory import MAX_QUERY_CHARS  # noqa: E402
from app.services.extraction.offline import OfflineExtractor  # noqa: E402
from app.services.extraction.rules import EN_RULES  # noqa: E402
from app.services.extraction.store_inferred import inferred  # noqa: E402
from app.services.extraction.units import ExtractionContext, Turn  # noqa: E402
from app.services.memory.pairs.plan import Candidate, plan  # noqa: E402
from app.services.recall import answer_type, food, list_questions, other_kind  # noqa: E402
from app.services.recall.other_language import with_other_language  # noqa: E402
from app.services.recall.query_embeddings import strip_names  # noqa: E402
from app.services.recall.service import MAX_KEYWORD_TERMS, _entity_candidates  # noqa: E402
from app.services.recall.time_hint import asks_when, find_time_hint  # noqa: E402
from app.services.working_memory.closure import is_confirmation  # noqa: E402
from app.services.working_memory.ranking import information_density  # noqa: E402
from app.services.working_memory.standing import is_filler, standing_kind  # noqa: E402

LIMITS = LimitsSettings()
NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
OVER_MS = 100.0  # a case above this is reported (and is a bug: docs/RELIABILITY.md)
SCREEN_CHARS = 2000

_EXTRACTOR = OfflineExtractor()


def _extract(text: str) -> None:
    turns = [
        Turn(index=0, role="user", content="I'm allergic to cats.", created_at=NOW),
        Turn(index=1, role="assistant", content="Do you have any other allergies?", created_at=NOW),
        Turn(index=2, role="user", content=text, created_at=NOW),
    ]
    asyncio.run(_EXTRACTOR.extract(turns, ExtractionContext(user_id="u", now=NOW)))


def _extract_assistant(text: str) -> None:
    turns = [Turn(index=0, role="assistant", content=text, created_at=NOW)]
    asyncio.run(_EXTRACTOR.extract(turns, ExtractionContext(user_id="u", now=NOW)))


def _store_inference(text: str) -> None:
    asyncio.run(inferred(text, "u", NOW))


def _store_search(text: str) -> None:
    search_text(text, text)
    value_hash(text)


def _pair_decision(text: str) -> None:
    other = text[:-1] + ("x" if text[-1:] != "x" else "y")
    plain = "I live in Berlin and work at Siemens."
    candidates = [
        Candidate(other, "fact", frozenset(), 0.97),
        Candidate(plain, "fact", frozenset(), 0.9),
    ]
    plan(text, "fact", frozenset(), candidates)
    plan(plain, "fact", frozenset(), [Candidate(text, "fact", frozenset(), 0.9)])


def _recall_time(text: str) -> None:
    if find_time_hint(text, NOW, "UTC") is None:
        asks_when(text)


def _recall_keywords(text: str) -> None:
    tokens = tokenize(text)
    _entity_candidates(tokens)
    with_other_language(food.with_terms(tokens[:MAX_KEYWORD_TERMS], text))


def _recall_values(text: str) -> None:
    answer_type.kinds(text)
    other_kind.nouns(text)


def _working_memory(text: str) -> None:
    standing_kind("user", text)
    is_filler(text)
    information_density(text)
    is_confirmation(text, ["yes", "ok", "that works", "好的"])


# name → (admitted characters, the call); the texts of TOKEN_LIMITED paths are also cut to
# LIMITS__TEXT_TOKENS model tokens (embedded: a longer one is a 422 before any rule runs).
PATHS: dict[str, tuple[int, Callable[[str], None]]] = {
    "extract": (LIMITS.message_chars, _extract),
    "extract (assistant)": (LIMITS.message_chars, _extract_assistant),
    "store inference": (LIMITS.value_chars, _store_inference),
    "store search text": (LIMITS.value_chars, _store_search),
    "pair decision": (LIMITS.value_chars, _pair_decision),
    "recall: time phrase": (MAX_QUERY_CHARS, _recall_time),
    "recall: answer type": (MAX_QUERY_CHARS, lambda q: answer_type.answer_type(q) and None),
    "recall: keyword terms": (MAX_QUERY_CHARS, _recall_keywords),
    "recall: names stripped": (MAX_QUERY_CHARS, lambda q: strip_names(q, ["anna", "siemens"])
                               and None),
    "recall: list question": (MAX_QUERY_CHARS, lambda q: list_questions.asks_for_list(q) and None),
    "recall: value readers": (LIMITS.value_chars, _recall_values),
    "working memory": (LIMITS.message_chars, _working_memory),
}  # fmt: skip

TOKEN_LIMITED = {
    "store inference": False,
    "store search text": False,
    "pair decision": False,
    "recall: time phrase": True,
    "recall: answer type": True,
    "recall: keyword terms": True,
    "recall: names stripped": True,
    "recall: list question": True,
    "recall: value readers": False,
}  # fmt: skip  (the value: query role or not)
_TOKENS: list[E5Tokens] = []


def admitted(path: str, text: str) -> str:
    """``text`` as the API admits it on ``path``: its longest prefix within the model-token
    limit where the text is embedded."""
    if path not in TOKEN_LIMITED:
        return text
    if not _TOKENS:
        _TOKENS.append(E5Tokens())
    return cut_to(_TOKENS[0], text, LIMITS.text_tokens, query=TOKEN_LIMITED[path])


PROSE_EN = (
    "I moved to Berlin last May and I work at Siemens now, not at Acme anymore. My sister "
    "Anna loves hiking with her dog. Sorry, I mean her two dogs! We went to Paris on "
    "3 March 2024 — it was great. "
)
PROSE_ZH = "我去年五月搬到了柏林，现在在西门子工作，不在阿里巴巴了。我姐姐喜欢和她的狗去爬山。"


def _run(unit: str, n: int, head: str = "tea", tail: str = "end") -> str:
    body = n - len(head) - len(tail)
    return head + (unit * (body // len(unit) + 1))[: max(0, body)] + tail


def _nested(n: int) -> str:
    k = n // 2
    return "(" * k + ")" * (n - k)


# name → how to make a text of n characters
SHAPES: dict[str, Callable[[int], str]] = {
    "prose": lambda n: _run(PROSE_EN, n, "", ""),
    "prose 中文": lambda n: _run(PROSE_ZH, n, "", ""),
    "spaces": lambda n: _run(" ", n),
    "tabs": lambda n: _run("\t", n),
    "newlines": lambda n: _run("\n", n),
    "mixed whitespace": lambda n: _run(" \t\n\r", n),
    "no-break spaces": lambda n: _run("\u00a0", n),
    "ideographic spaces": lambda n: _run("\u3000", n),
    "spaces, no words": lambda n: " " * n,
    "nested brackets": _nested,
    "open brackets": lambda n: _run("([{", n),
    "long word": lambda n: "a" * n,
    "long word, capital": lambda n: "A" + "b" * (n - 1),
    "digits": lambda n: "1" * n,
    "numbers": lambda n: _run("12 ", n, "", ""),
    "dates": lambda n: _run("3/3 ", n, "", ""),
    "times": lambda n: _run("10am ", n, "", ""),
    "iso dates": lambda n: _run("2024-01-01 ", n, "", ""),
    "zh one character": lambda n: "好" * n,
    "zh 不": lambda n: "不" * n,
    "zh 没有": lambda n: _run("没有", n, "", ""),
    "zh 在": lambda n: "在" * n,
    "zh 了": lambda n: "了" * n,
    "zh 我": lambda n: "我" * n,
    "zh 的": lambda n: "的" * n,
    "zh 我不": lambda n: _run("我不", n, "", ""),
    "zh 我在": lambda n: _run("我在", n, "", ""),
    "zh 不是": lambda n: _run("不是", n, "", ""),
    "zh 不对，": lambda n: _run("不对，", n, "", ""),
    "zh 我喜欢": lambda n: _run("我喜欢", n, "", ""),
    "zh 开玩笑的": lambda n: _run("开玩笑的", n, "", ""),
    "zh 对过敏": lambda n: _run("我对花生过敏", n, "", ""),
    "zh 一月": lambda n: _run("一月", n, "", ""),
    "zh ，": lambda n: _run("，", n, "我", "了"),
    "zh 。": lambda n: _run("。", n, "我", "了"),
    "alternating a中": lambda n: _run("a中", n, "", ""),
    "alternating I 不": lambda n: _run("I 不 ", n, "", ""),
    "alternating tea茶": lambda n: _run("tea茶 ", n, "", ""),
    "names": lambda n: _run("Anna ", n, "", ""),
    "names and": lambda n: _run("Anna and ", n, "", ""),
    "Dr.": lambda n: _run("Dr. ", n, "", ""),
    "title case": lambda n: _run("New York ", n, "", ""),
    "emails": lambda n: _run("a@b.", n, "", ""),
    "urls": lambda n: _run("http://a/", n, "", ""),
}
for _p in ". , ! ? - — ' \" … : ; / * ~ ( ) _ # @ & + = | \\ 。 ， ！ ？ 、".split(" "):
    SHAPES[f"run of {_p}"] = lambda n, p=_p: _run(p, n)
for _p in [". ", ", ", "! ", "? ", " - ", "... ", "; "]:
    SHAPES[f"run of '{_p}'"] = lambda n, p=_p: _run(p, n, "I", "")
for _w in [
    "the", "no", "not", "actually", "I", "i", "and", "my", "very", "sorry", "wait", "just", "so",
    "really", "a", "to", "at", "in", "of", "is", "was", "don't", "never", "anymore", "with",
    "but", "or", "also", "still", "only", "except", "haha", "lol", "jk", "ok", "yes", "because",
]:  # fmt: skip
    SHAPES[f"words: {_w}"] = lambda n, w=_w: _run(w + " ", n, "", "")
for _c in [
    "I'm not", "not anymore", "moved to", "works at", "I work at", "I live in", "I mean",
    "no wait", "just kidding", "I don't", "I'm allergic to", "I love", "I prefer", "I like",
    "I hate", "used to", "my sister", "sorry,", "no,", "I am", "my name is", "remember that",
    "Reminder:", "I meant", "not", "actually no,", "I'm", "we", "let's go with", "no longer",
    "I quit", "I have a", "my birthday is", "on Monday", "next week", "in May", "at 5pm",
    "I never", "I always", "must", "can't", "I was born in", "I got a job at", "I'm going to",
    "rather than", "instead of", "than", "over",
]:  # fmt: skip
    SHAPES[f"cue: {_c}"] = lambda n, c=_c: _run(c + " ", n, "", "")


def cue_words() -> list[str]:
    """Words the English cue rules look for (letters of each pattern's literal runs)."""
    words: set[str] = set()
    for rule in EN_RULES:
        words.update(w.lower() for w in re.findall(r"(?<![\\?])[A-Za-z]{3,}", rule.pattern.pattern))
    return sorted(words)


def _worker(conn: Connection) -> None:
    while True:
        job = conn.recv()
        if job is None:
            return
        path, shape, n = job
        text = (
            SHAPES[shape](n) if shape in SHAPES else _run(shape.split(":", 1)[1] + " ", n, "", "")
        )
        text = admitted(path, text)
        call = PATHS[path][1]
        t0 = time.process_time()
        try:
            call(text)
        except Exception as exc:  # a crash is a finding too: reported with its time
            error = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
            conn.send(((time.process_time() - t0) * 1000.0, error, len(text)))
            continue
        conn.send(((time.process_time() - t0) * 1000.0, None, len(text)))


class Pool:
    """One worker process at a time; a case past the timeout kills it (a new one follows)."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.ctx = mp.get_context("fork")
        self.proc: Any = None
        self.conn: Connection | None = None

    def _start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        self.conn = parent

    def measure(self, path: str, shape: str, n: int) -> tuple[float | None, str | None, int]:
        """CPU ms of one case, the error it raised if any, and the characters read (fewer
        than ``n`` where the token limit cut the text); None ms when it ran past the timeout
        (or its worker died)."""
        if self.proc is None or not self.proc.is_alive():
            self._start()
        assert self.conn is not None
        self.conn.send((path, shape, n))
        if self.conn.poll(self.timeout_s):
            try:
                ms, error, chars = self.conn.recv()
                return float(ms), error, chars
            except EOFError:
                self.proc.join()
                self.proc = None
                return None, "worker died", n
        self.proc.kill()
        self.proc.join()
        self.proc = None
        return None, None, n

    def close(self) -> None:
        if self.proc is not None and self.conn is not None:
            self.conn.send(None)
            self.proc.join(5)


def warm() -> None:
    """Load what the paths load lazily (word lists, jieba) before the workers fork."""
    admitted("pair decision", "x")
    for _, call in PATHS.values():
        call("I moved to Berlin in May. 我在北京工作。 What did Anna eat?")
        call(PROSE_EN + PROSE_ZH)


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    paths = [p for p in PATHS if not args.paths or p in args.paths.split(",")]
    shapes = [s for s in SHAPES if not args.shapes or s in args.shapes.split(",")]
    screen = [] if args.shapes else [f"cue:{w}" for w in cue_words()]
    warm()
    pool = Pool(args.timeout)
    rows: list[dict[str, Any]] = []
    try:
        for path in paths:
            limit = min(PATHS[path][0], args.max_chars or PATHS[path][0])
            if path.startswith("extract") and args.extract_chars:
                limit = min(limit, args.extract_chars)
            cases = [(s, limit) for s in shapes]
            for cue in screen:
                ms, error, _ = pool.measure(path, cue, min(limit, SCREEN_CHARS))
                if ms is None or error or ms > args.rerun_ms or limit <= SCREEN_CHARS:
                    cases.append((cue, limit))
            for shape, n in cases:
                ms, error, n = pool.measure(path, shape, n)
                rows.append(
                    {"path": path, "shape": shape, "chars": n, "cpu_ms": ms, "error": error}
                )
                shown = f">{args.timeout * 1000:.0f}" if ms is None else f"{ms:.0f}"
                if args.verbose or ms is None or ms > OVER_MS or error:
                    print(f"  {path:24} {shape:28} {n:>7} {shown:>8} ms {error or ''}", flush=True)
            print(f"{path}: {len(cases)} cases", flush=True)
    finally:
        pool.close()
    return rows


def render(rows: list[dict[str, Any]], args: argparse.Namespace, load: tuple[str, str]) -> str:
    timeout_ms = args.timeout * 1000.0

    def ms(row: dict[str, Any]) -> float:
        return timeout_ms if row["cpu_ms"] is None else row["cpu_ms"]

    def shown(row: dict[str, Any]) -> str:
        return f"> {timeout_ms:.0f}" if row["cpu_ms"] is None else f"{row['cpu_ms']:.0f}"

    argv = " ".join(a for a in sys.argv[1:] if a != "--write-doc")
    lines = [
        f"Command: `python scripts/fuzz_cpu.py{' ' + argv if argv else ''}`; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; CPU time of one call in one "
        f"process (2 cores shared with other work: a ceiling); load before: `{load[0]}`; "
        f"after: `{load[1]}`.",
        "",
        "| path | characters | prose ms | worst shape | worst ms | cases | over 100 ms or error |",
        "|---|---|---|---|---|---|---|",
    ]
    over: list[dict[str, Any]] = []
    for path in dict.fromkeys(r["path"] for r in rows):
        mine = [r for r in rows if r["path"] == path]
        prose = max((ms(r) for r in mine if r["shape"].startswith("prose")), default=float("nan"))
        worst = max(mine, key=ms)
        slow = [r for r in mine if ms(r) > OVER_MS and not r["shape"].startswith("prose")]
        bad = slow + [r for r in mine if r.get("error") and r not in slow]
        over += slow
        lines.append(
            f"| {path} | ≤ {max(r['chars'] for r in mine):,} | {prose:.0f} | {worst['shape']} "
            f"| {shown(worst)} "
            f"| {len(mine)} | {len(bad)} |"
        )
    errors = [r for r in rows if r.get("error")]
    lines += [
        "",
        f"{len(rows)} cases; {len(over)} over {OVER_MS:.0f} ms (prose not counted); "
        f"{len(errors)} raised an error.",
    ]
    for r in sorted(over, key=ms, reverse=True)[:40]:
        lines.append(f"- {r['path']}, {r['shape']}, {r['chars']:,} characters: {shown(r)} ms")
    for r in errors[:20]:
        lines.append(f"- error: {r['path']}, {r['shape']}, {r['chars']:,} characters: {r['error']}")
    return "\n".join(lines)


GROWTH_CHARS = (2_000, 8_000, 16_000, 64_000, 100_000)
GROWTH_SHAPES = ("prose", "prose 中文", "cue: sorry,")
GROWTH_OVER = 2.0  # per-character cost at the longest over the shortest: past it, a finding


def growth(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Rows of (path, shape, characters, median CPU ms) for the extract paths."""
    warm()
    pool = Pool(args.timeout)
    rows: list[dict[str, Any]] = []
    try:
        for path in [p for p in PATHS if p.startswith("extract")]:
            if args.paths and path not in args.paths.split(","):
                continue
            for shape in GROWTH_SHAPES:
                for n in [n for n in GROWTH_CHARS if n <= PATHS[path][0]]:
                    runs = [pool.measure(path, shape, n)[0] for _ in range(args.repeats)]
                    done = sorted(ms for ms in runs if ms is not None)
                    ms = done[len(done) // 2] if len(done) == len(runs) else None
                    rows.append({"path": path, "shape": shape, "chars": n, "cpu_ms": ms})
                    shown = f">{args.timeout * 1000:.0f}" if ms is None else f"{ms:.0f}"
                    print(f"  {path:24} {shape:14} {n:>7} {shown:>8} ms", flush=True)
    finally:
        pool.close()
    return rows


def render_growth(
    rows: list[dict[str, Any]], args: argparse.Namespace, load: tuple[str, str]
) -> str:
    """The growth table: CPU ms per length, and the per-character ratio longest / shortest."""
    chars = sorted({r["chars"] for r in rows})
    lines = [
        f"Command: `python scripts/fuzz_cpu.py --growth --repeats {args.repeats}`; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; CPU ms of one call, median of "
        f"{args.repeats}; load before: `{load[0]}`; after: `{load[1]}`.",
        "",
        "| path | shape | "
        + " | ".join(f"{n:,}" for n in chars)
        + " | per character, longest / shortest |",
        "|---|---|" + "---|" * (len(chars) + 1),
    ]
    for key in dict.fromkeys((r["path"], r["shape"]) for r in rows):
        mine = {r["chars"]: r["cpu_ms"] for r in rows if (r["path"], r["shape"]) == key}
        cells = ["—" if mine.get(n) is None else f"{mine[n]:.0f}" for n in chars]
        lo, hi = min(mine), max(mine)
        if mine[lo] and mine[hi] is not None:
            ratio = (mine[hi] / hi) / (mine[lo] / lo)
            flag = " (grows)" if ratio > GROWTH_OVER else ""
            cells.append(f"{ratio:.1f}{flag}")
        else:
            cells.append(f"> {args.timeout:.0f} s" if mine[hi] is None else "—")
        lines.append(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--paths", help="Only these paths (comma list of names).")
    ap.add_argument("--shapes", help="Only these shapes (comma list; no cue screening).")
    ap.add_argument("--max-chars", type=int, help="Read at most this many characters per path.")
    ap.add_argument("--extract-chars", type=int, help="The extract paths' characters only.")
    ap.add_argument("--timeout", type=float, default=5.0, help="Seconds one case may run.")
    ap.add_argument(
        "--rerun-ms",
        type=float,
        default=20.0,
        help="A screened cue costing more runs at the limit.",
    )
    ap.add_argument("--json", help="Write every case to this file.")
    ap.add_argument("--verbose", action="store_true", help="Print every case.")
    ap.add_argument("--write-doc", action="store_true")
    ap.add_argument("--growth", action="store_true", help="The extractor's cost by length.")
    ap.add_argument("--repeats", type=int, default=3, help="Runs per length (--growth).")
    args = ap.parse_args()
    before = uptime_line()
    if args.growth:
        text = render_growth(growth(args), args, (before, uptime_line()))
        print(text)
        if args.write_doc:
            write_block(
                ROOT / "docs" / "RELIABILITY.md",
                "rule-cpu-growth",
                text,
                "## Rule CPU on hostile text",
            )
        return
    rows = run(args)
    text = render(rows, args, (before, uptime_line()))
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")
    if args.write_doc:
        write_block(
            ROOT / "docs" / "RELIABILITY.md", "rule-cpu", text, "## Rule CPU on hostile text"
        )


if __name__ == "__main__":
    main()
