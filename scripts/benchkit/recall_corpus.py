"""The corpus of ``scripts/bench_recall.py``: the LoCoMo dev turns and questions, each turn's
passage vector (embedded once by the service's embedder, cached in a ``.npy``), and the
wording variations that let one turn be stored many times with a new value and hash but the
keyword statistics of the real turn."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SUBJECT = "bench-user"
TOP_K = 10
# Share of each unit type among the loaded rows (constraint is the selective filter).
TYPE_SHARES = {
    "fact": 0.40,
    "preference": 0.15,
    "constraint": 0.05,
    "action": 0.10,
    "result": 0.10,
    "event": 0.20,
}
# Wording variations of a repeated turn, made of PostgreSQL's English stop words only (so
# they change value and value_hash but add no lexeme to the keyword index and leave its term
# statistics those of the real turns): 6 framings x 7 endings = 42 distinct values per turn,
# enough for 100k rows from 2,760 turns (37 copies each).
FRAMINGS = ["{s}: {t}", "Then {s}: {t}", "So {s}: {t}", "And {s}: {t}", "Once again, {s}: {t}",
            "Here {s}: {t}"]  # fmt: skip
ENDINGS = ["", " That was it.", " So it is.", " It was so then.", " Just that.",
           " And there it is.", " As it was before."]  # fmt: skip
NOISE_SIGMA = 0.01  # per dimension; |noise|^2 = 384 * 1e-4 -> cosine ~ 1/sqrt(1.0384) = 0.981


@dataclass(frozen=True)
class Turn:
    """One LoCoMo turn: who said what, and the previous turn of its session (or -1)."""

    conversation: str
    session: str
    dia_id: str
    speaker: str
    text: str
    prev: int


@dataclass(frozen=True)
class Corpus:
    """Turns with their passage vectors (row i of ``vectors`` embeds ``value(i, 0)``) and the
    questions, with the speakers of each question's conversation."""

    turns: list[Turn]
    vectors: np.ndarray
    questions: list[tuple[str, list[str]]]

    def value(self, i: int, copy: int) -> str:
        """The stored text of copy ``copy`` of turn ``i`` (copy 0 is ``Speaker: text``)."""
        t = self.turns[i]
        framing = FRAMINGS[copy % len(FRAMINGS)]
        ending = ENDINGS[(copy // len(FRAMINGS)) % len(ENDINGS)]
        return framing.format(s=t.speaker, t=t.text) + ending


def load_corpus(dataset: Path) -> tuple[list[Turn], list[tuple[str, list[str]]]]:
    """Turns and questions of the LoCoMo dev split (see its README)."""
    turns: list[Turn] = []
    last: dict[tuple[str, str], int] = {}
    speakers: dict[str, list[str]] = defaultdict(list)
    with (dataset / "turns.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            text = row["text"]
            if row.get("image_caption"):
                text += f" [shared a photo: {row['image_caption']}]"
            key = (row["conversation_id"], row["session_id"])
            turns.append(
                Turn(
                    row["conversation_id"],
                    row["session_id"],
                    row["dia_id"],
                    row["speaker"],
                    text,
                    last.get(key, -1),
                )
            )
            last[key] = len(turns) - 1
            if row["speaker"] not in speakers[row["conversation_id"]]:
                speakers[row["conversation_id"]].append(row["speaker"])
    questions: list[tuple[str, list[str]]] = []
    with (dataset / "questions.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            questions.append((row["question"], speakers[row["conversation_id"]]))
    return turns, questions


async def corpus_vectors(texts: list[str], model: str, cache_dir: Path) -> np.ndarray:
    """Passage embeddings of ``texts`` by the service's embedder, cached in a ``.npy`` keyed
    by the model name and the texts."""
    digest = hashlib.sha256("\x1e".join([model, *texts]).encode()).hexdigest()[:16]
    path = cache_dir / f"locomo-turns-{model}-{digest}.npy"
    if path.exists():
        return np.load(path)
    from app.clients.embeddings import create_embedder
    from app.core.config import get_settings

    embedder = create_embedder(get_settings().embedding)
    print(f"embedding {len(texts)} turns once (cached in {path}) ...", file=sys.stderr)
    start = time.perf_counter()
    parts = [await embedder.embed_passages(texts[i : i + 64]) for i in range(0, len(texts), 64)]
    vectors = np.concatenate(parts).astype(np.float32)
    print(f"  {len(texts) / (time.perf_counter() - start):.0f} passages/s", file=sys.stderr)
    await asyncio.to_thread(cache_dir.mkdir, parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors
