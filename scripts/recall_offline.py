"""Offline replica of recall's ranking on the LoCoMo dev split: where the evidence is lost, and
re-rankings tried on top of the shipped scoring, each scored in-sample and leave one
conversation out (docs/EVAL.md "Where the multi-hop evidence is lost").

    flock /work/cpu.lock .venv/bin/python scripts/recall_replica.py --data-dir DIR --out dump.pkl
    .venv/bin/python scripts/recall_offline.py dump.pkl

The dump holds what the service's ``rank`` took for every question (the candidates
statement's rows, the time window, the query embedding) and every unit's text and value
embedding. This script first checks that the service's own ``rank`` on them returns the
service's top 10, then rebuilds the shipped score in numpy (checked against ``rank``: the
same recall@10) and scores variants of it. A variant is a family of settings; the
cross-validated figure picks, for each conversation, the setting with the best
non-adversarial recall@10 on the other four and scores it on that one.
"""

from __future__ import annotations

import argparse
import pickle
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CATS = ["single_hop", "multi_hop", "temporal", "open_domain"]
QUESTION = re.compile(r"[?？]\s*$")

Q = dict[str, Any]


def prepare(dump: dict[str, Any]) -> list[Q]:
    """Per question: numpy arrays of the raw signals (as app.services.recall.scoring reads
    them), session neighbours, evidence flags, and per unit its text features."""
    from app.core.config import RecallSettings
    from app.services.recall import scoring

    w = scoring.profile_weights("long_term", RecallSettings())
    units = dump["units"]
    out: list[Q] = []
    for q in dump["questions"]:
        c = q["scores"]
        n = len(c)
        idfs = scoring.idf(c)
        total = sum(idfs.values())
        sess = [x.session_id for x in c]
        order = sorted(range(n), key=lambda i: (sess[i] or "", c[i].occurred_at, c[i].id))
        prev, nxt = np.full(n, -1), np.full(n, -1)
        for a, b in zip(order, order[1:], strict=False):
            if sess[a] is not None and sess[a] == sess[b]:
                nxt[a], prev[b] = b, a
        keys: dict[str, int] = {}
        sid = np.array(
            [
                keys.setdefault(s if s is not None else f"_{i}", len(keys))
                for i, s in enumerate(sess)
            ]
        )
        pos = np.empty(n, int)
        pos[order] = np.arange(n)
        ids = [x.id for x in c]
        evidence = set(q["evidence"])
        timed = q["window"] is not None or q["asks_when"]
        out.append(
            {
                "qid": q["question_id"],
                "conv": q["conversation"],
                "cat": q["category"],
                "ev": q["evidence"],
                "question": q["question"],
                "raw": q,
                "cos": np.array([max(x.semantic_value, x.semantic_query) for x in c]),
                "bm": np.array(scoring.bm25(c, idfs)),
                "cov": np.array(
                    [
                        sum(idfs[t] for t in x.term_freqs) / total
                        if x.term_freqs and total > 0
                        else 0.0
                        for x in c
                    ]
                ),
                "ent": np.array([1.0 if x.entity_match else 0.0 for x in c]),
                "rec": np.array(
                    [scoring.recency(x.occurred_at, q["now"], w.recency_lambda) for x in c]
                ),
                "tim": np.array([scoring.time_signal(x, q["window"], q["asks_when"]) for x in c])
                if timed
                else np.zeros(n),
                "conf": np.array([x.confidence for x in c]),
                "ts": np.array([x.occurred_at.timestamp() for x in c]),
                "idkey": np.argsort(np.argsort([str(i) for i in ids])),
                "prev": prev,
                "nxt": nxt,
                "sid": sid,
                "pos": pos,
                "refs": [units[i]["refs"] for i in ids],
                "isev": np.array([1.0 if evidence & set(units[i]["refs"]) else 0.0 for i in ids]),
                "isq": np.array([1.0 if QUESTION.search(units[i]["value"]) else 0.0 for i in ids]),
                "emb": np.stack([units[i]["emb"] for i in ids]).astype(np.float64),
                "values": [units[i]["value"] for i in ids],
            }
        )
    return out


BASE = {"ws": 0.2, "wk": 0.1, "wr": 0.05, "wc": 0.05, "we": 0.15, "wx": 0.45, "wt": 0.2}


def listed_base(p: Q) -> dict[str, float]:
    """BASE with the context weight of a list question that names no time scaled as the
    service does (app.services.recall.list_questions)."""
    from app.services.recall import list_questions

    timed = p["raw"]["window"] is not None or p["raw"]["asks_when"]
    if timed or not list_questions.asks_for_list(p["question"]):
        return BASE
    return BASE | {"wx": BASE["wx"] * list_questions.CONTEXT_SCALE}


def _minmax(v: np.ndarray) -> np.ndarray:
    lo, hi = v.min(), v.max()
    if hi - lo < 1e-9:
        return np.ones_like(v) if hi > 0 else np.zeros_like(v)
    return (v - lo) / (hi - lo)


def _near(p: Q, rel: np.ndarray) -> np.ndarray:
    a = np.where(p["prev"] >= 0, rel[p["prev"]], -np.inf)
    b = np.where(p["nxt"] >= 0, rel[p["nxt"]], -np.inf)
    m = np.maximum(a, b)
    return np.where(np.isfinite(m), m, rel)


def _session_best(p: Q, rel: np.ndarray, decay: float = 1.0) -> np.ndarray:
    if decay >= 1.0:
        best = np.full(p["sid"].max() + 1, -np.inf)
        np.maximum.at(best, p["sid"], rel)
        return best[p["sid"]]
    out = rel.copy()
    for s in np.unique(p["sid"]):
        m = np.flatnonzero(p["sid"] == s)
        if len(m) > 1:
            d = np.abs(p["pos"][m][:, None] - p["pos"][m][None, :])
            out[m] = (rel[m][None, :] * decay**d).max(1)
    return out


def score(p: Q, o: dict[str, float]) -> np.ndarray:
    """The shipped score (app.services.recall.scoring.rank) with optional changes: ``near``
    / ``best`` (the context signal's two halves, 0.5 each), ``decay`` (the session-best half
    discounted by decay**distance in turns), ``question`` (a penalty for units whose text
    ends with a question mark)."""
    sem = _minmax(p["cos"])
    kmax = p["bm"].max()
    kw = p["bm"] / kmax if kmax > 0 else np.zeros_like(p["bm"])
    rel = (o["ws"] * sem + o["wk"] * kw) / (o["ws"] + o["wk"])
    ctx = o.get("near", 0.5) * _near(p, rel) + o.get("best", 0.5) * _session_best(
        p, rel, o.get("decay", 1.0)
    )
    return (
        o["ws"] * sem
        + o["wk"] * kw
        + o["wr"] * p["rec"]
        + o["wc"] * p["conf"]
        + o["we"] * p["ent"]
        + o["wx"] * ctx
        + o["wt"] * p["tim"]
        - o.get("question", 0.0) * p["isq"]
    )


def typed(p: Q, t: np.ndarray, weight: float, head: int | None = None) -> np.ndarray:
    """``t`` with the answer-type signal (app.services.recall.answer_type.lift): ``weight``
    more for each of the best ``head`` (default ``answer_type.HEAD``) that names something of
    the kind the question asks for."""
    from app.services.recall import answer_type

    kind = answer_type.answer_type(p["question"]) if weight > 0 else None
    if kind is None:
        return t
    out = t.copy()
    for i in ranked(p, t)[: head or answer_type.HEAD]:
        if answer_type.names_instance(p["values"][i], kind):
            out[i] += weight
    return out


def ranked(p: Q, t: np.ndarray) -> np.ndarray:
    """Best first; ties newer first, then by id (as the service)."""
    return np.lexsort((p["idkey"], -p["ts"], -t))


def mmr(p: Q, t: np.ndarray, lam: float, floor: float, head: int = 15) -> np.ndarray:
    """app.services.recall.collapse.diversify on the best ``head`` (top_k + MARGIN): greedy,
    a candidate loses lam·(cos − floor) for its most similar pick so far when the value
    cosine exceeds ``floor``; ties in score order."""
    top = list(ranked(p, t)[:head])
    pen = dict.fromkeys(top, 0.0)
    pool = list(top)
    chosen: list[int] = []
    while pool:
        best = max(pool, key=lambda i: (t[i] - pen[i], -top.index(i)))
        chosen.append(best)
        pool.remove(best)
        for j in pool:
            s = float(p["emb"][j] @ p["emb"][best])
            if s > floor:
                pen[j] = max(pen[j], lam * (s - floor))
    return np.array(chosen)


def session_cap(p: Q, t: np.ndarray, d: float, k: int = 10) -> np.ndarray:
    """Greedy top k: a candidate loses ``d`` per hit already taken from its session."""
    pool = list(ranked(p, t)[:60])
    count: dict[int, int] = defaultdict(int)
    chosen: list[int] = []
    while len(chosen) < k and pool:
        best = max(pool, key=lambda i: (t[i] - d * count[p["sid"][i]], p["ts"][i]))
        chosen.append(best)
        pool.remove(best)
        count[p["sid"][best]] += 1
    return np.array(chosen + pool)


def recall_at(p: Q, order: np.ndarray, k: int = 10) -> float:
    got = {r for i in order[:k] for r in p["refs"][i]}
    return len(got & set(p["ev"])) / len(p["ev"])


Per = dict[str, float]


def per_question(qs: list[Q], fn: Callable[[Q], np.ndarray], k: int = 10) -> Per:
    return {p["qid"]: recall_at(p, fn(p), k) for p in qs if p["ev"]}


def summary(qs: list[Q], per: Per) -> dict[str, float]:
    by: dict[str, list[float]] = defaultdict(list)
    for p in qs:
        if p["qid"] in per:
            by[p["cat"]].append(per[p["qid"]])
    out = {c: float(np.mean(by[c])) for c in [*CATS, "adversarial"] if by[c]}
    out["non-adversarial"] = float(np.mean([v for c in CATS for v in by[c]]))
    return out


def cross_validate(qs: list[Q], settings: dict[str, Per]) -> tuple[Per, list[str]]:
    convs = sorted({p["conv"] for p in qs})
    conv_of = {p["qid"]: p["conv"] for p in qs}
    answerable = {p["qid"] for p in qs if p["cat"] in CATS and p["ev"]}
    names = list(settings)
    out: Per = {}
    chosen: list[str] = []
    for c in convs:

        def train(name: str, c: str = c) -> float:
            vals = [v for q, v in settings[name].items() if conv_of[q] != c and q in answerable]
            return float(np.mean(vals))

        best = max(names, key=lambda n: (train(n), -names.index(n)))
        chosen.append(best)
        out |= {q: v for q, v in settings[best].items() if conv_of[q] == c}
    return out, chosen


def row(label: str, s: dict[str, float]) -> str:
    cols = [*CATS, "non-adversarial", "adversarial"]
    return f"| {label} | " + " | ".join(f"{s[c]:.3f}" for c in cols) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="The file scripts/recall_replica.py wrote.")
    args = parser.parse_args()
    from app.core.config import RecallSettings
    from app.services.recall import scoring

    dump = pickle.loads(Path(args.dump).read_bytes())
    qs = prepare(dump)
    w = scoring.profile_weights("long_term", RecallSettings())
    from app.services.recall.collapse import DIVERSITY_FLOOR, DIVERSITY_WEIGHT

    # The service's top 10 (as dumped) against the replica: rank() alone (the service until
    # 2026-12-06) and rank() then the diversity step (since).
    plain = sum(
        [
            dump["units"][r.id]["refs"]
            for r in scoring.rank(
                p["raw"]["scores"],
                w,
                p["raw"]["now"],
                limit=10,
                window=p["raw"]["window"],
                asks_when=p["raw"]["asks_when"],
            )
        ]
        == p["raw"]["service_top10"]
        for p in qs
    )
    diverse = sum(
        [p["refs"][i] for i in mmr(p, score(p, BASE), DIVERSITY_WEIGHT, DIVERSITY_FLOOR)[:10]]
        == p["raw"]["service_top10"]
        for p in qs
    )
    kinds = w.weights["answer_type"]
    shipped_now = sum(
        [
            p["refs"][i]
            for i in mmr(p, typed(p, score(p, BASE), kinds), DIVERSITY_WEIGHT, DIVERSITY_FLOOR)[:10]
        ]
        == p["raw"]["service_top10"]
        for p in qs
    )
    listed = sum(
        [
            p["refs"][i]
            for i in mmr(
                p, typed(p, score(p, listed_base(p)), kinds), DIVERSITY_WEIGHT, DIVERSITY_FLOOR
            )[:10]
        ]
        == p["raw"]["service_top10"]
        for p in qs
    )
    print(
        f"the service's top 10 in the dump: rank() alone gives it for {plain}/{len(qs)} "
        f"questions, rank() and the diversity step for {diverse}/{len(qs)}, with the "
        f"answer-type signal ({kinds}) before it for {shipped_now}/{len(qs)}, and with a list "
        f"question's context weight scaled (since 2026-12-06) for {listed}/{len(qs)}"
    )
    shipped = per_question(qs, lambda p: ranked(p, score(p, BASE)))

    head = "| | " + " | ".join([*CATS, "non-adversarial", "adversarial"]) + " |\n|---|" + "---|" * 6
    print(
        "\nWhere the evidence is (rank() without the diversity step; every unit of these "
        "subjects is a candidate):\n"
    )
    print(head)
    print(
        row(
            "evidence among the candidates",
            summary(qs, per_question(qs, lambda p: ranked(p, score(p, BASE)), k=10**6)),
        )
    )
    print(
        row("recall@50", summary(qs, per_question(qs, lambda p: ranked(p, score(p, BASE)), k=50)))
    )
    print(
        row("recall@20", summary(qs, per_question(qs, lambda p: ranked(p, score(p, BASE)), k=20)))
    )
    print(row("recall@10", summary(qs, shipped)))
    for cat in ("single_hop", "multi_hop"):
        spread, ev_sessions, absent = [], [], []
        for p in qs:
            if p["cat"] != cat or not p["ev"]:
                continue
            top = set(p["sid"][ranked(p, score(p, BASE))[:10]].tolist())
            evs = {int(p["sid"][i]) for i in np.flatnonzero(p["isev"])}
            spread.append(len(top))
            ev_sessions.append(len(evs))
            absent.append(np.mean([s not in top for s in evs]) if evs else 0.0)
        print(
            f"\n{cat}: the top 10 spans {np.mean(spread):.2f} sessions; the evidence lies in "
            f"{np.mean(ev_sessions):.2f} sessions, {np.mean(absent):.0%} of them absent from "
            "the top 10"
        )

    families: dict[str, dict[str, Callable[[Q], np.ndarray]]] = {
        "context halves near/best": {
            f"{a}/{b}": (lambda p, a=a, b=b: ranked(p, score(p, BASE | {"near": a, "best": b})))
            for a, b in [(0.5, 0.5), (0.6, 0.4), (0.4, 0.6), (0.5, 0.4), (0.6, 0.3)]
        },
        "session best decaying with distance": {
            f"{d}": (lambda p, d=d: ranked(p, score(p, BASE | {"decay": d})))
            for d in (1.0, 0.99, 0.97, 0.95, 0.9)
        },
        "per-session penalty in the top 10": {
            f"{d}": (
                lambda p, d=d: session_cap(p, score(p, BASE), d) if d else ranked(p, score(p, BASE))
            )
            for d in (0.0, 0.01, 0.02, 0.05)
        },
        "MMR on value embeddings (weight, floor)": {
            f"{lam}/{floor}": (
                lambda p, lam=lam, floor=floor: (
                    mmr(p, score(p, BASE), lam, floor) if lam else ranked(p, score(p, BASE))
                )
            )
            for lam, floor in [
                (0.0, 0.0),
                *(
                    (lam, floor)
                    for lam in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
                    for floor in (0.88, 0.89, 0.9, 0.91, 0.92)
                ),
            ]
        },
        "answer-type signal (weight), then the diversity step": {
            f"{a}": (
                lambda p, a=a: mmr(
                    p, typed(p, score(p, BASE), a), DIVERSITY_WEIGHT, DIVERSITY_FLOOR
                )
            )
            for a in (0.0, 0.1, 0.15, 0.2, 0.3)
        },
        "diversity step (weight/floor) and answer-type weight, jointly": {
            f"{lam}/{floor}/{a}": (
                lambda p, lam=lam, floor=floor, a=a: mmr(p, typed(p, score(p, BASE), a), lam, floor)
            )
            for lam in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
            for floor in (0.88, 0.89, 0.9, 0.91, 0.92)
            for a in (0.0, 0.1, 0.15, 0.2, 0.3)
        },
        "answer-type signal: candidates looked at (best 30/50/100), weight 0.15": {
            f"{h}": (
                lambda p, h=h: mmr(
                    p, typed(p, score(p, BASE), 0.15, h), DIVERSITY_WEIGHT, DIVERSITY_FLOOR
                )
            )
            for h in (30, 50, 100)
        },
        "penalty for a unit ending with '?'": {
            f"{d}": (lambda p, d=d: ranked(p, score(p, BASE | {"question": d})))
            for d in (0.0, 0.02, 0.04, 0.06, 0.08, 0.1)
        },
    }
    print("\nRe-rankings on top of the shipped scoring (recall@10):\n")
    print(head)
    print(row("without the diversity step (shipped until 2026-12-06)", summary(qs, shipped)))
    for family, settings in families.items():
        pers = {name: per_question(qs, fn) for name, fn in settings.items()}
        best = max(pers, key=lambda n: summary(qs, pers[n])["non-adversarial"])
        cv, chosen = cross_validate(qs, pers)
        print(row(f"{family}: best in-sample ({best})", summary(qs, pers[best])))
        print(row(f"{family}: cross-validated (chose {', '.join(chosen)})", summary(qs, cv)))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
