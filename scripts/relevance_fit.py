"""Fit and cross-validate the ``relevance`` model (app.services.recall.relevance) from the hits
``scripts/eval_locomo.py --calibrate`` collects: per question its 50 best hybrid candidates
with their raw signals (``relevance_inputs``: cosine, coverage, context_cosine; and
``mismatch``: the question names a known entity, some of its 50 hits name it, and this one
does not) and whether each is an evidence turn.

A logistic regression (Newton's method, L2 1e-3) on the answerable questions; leave one
conversation out: fitted on four conversations, it predicts the fifth, five times. Reported:
ROC AUC over the 50 and over the 10 best, precision of the top-10 hits at the threshold,
and the share of adversarial vs answerable questions whose best top-10 relevance falls below
it ("nothing relevant") — cross-validated and, for the shipped coefficients, in-sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FEATURES = ("cosine", "coverage", "mismatch", "context_cosine")


@dataclass
class Rows:
    """One row per (question, candidate)."""

    conversation: list[str]
    question: list[str]
    category: list[str]
    rank: list[int]
    x: list[list[float]]
    y: list[float]
    shipped: list[float]  # the service's relevance of the hit

    @classmethod
    def empty(cls) -> Rows:
        return cls([], [], [], [], [], [], [])


def _design(x: np.ndarray) -> np.ndarray:
    return np.column_stack([np.ones(len(x)), x])


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression coefficients (intercept first)."""
    a = _design(x)
    w = np.zeros(a.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(a @ w)))
        grad = a.T @ (p - y) + l2 * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def predict(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(_design(x) @ w)))


def auc(score: np.ndarray, y: np.ndarray) -> float:
    """ROC AUC (Mann-Whitney, ties by order)."""
    order = np.argsort(score, kind="mergesort")
    ranks = np.empty(len(score))
    ranks[order] = np.arange(1, len(score) + 1)
    pos = y == 1
    n1, n0 = int(pos.sum()), int((~pos).sum())
    if n1 == 0 or n0 == 0:
        return float("nan")
    return float((ranks[pos].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def report(
    rows: Rows, threshold: float, adversarial: str = "adversarial"
) -> tuple[str, list[float]]:
    """The Markdown table of cross-validated and shipped figures, and the coefficients
    fitted on every conversation."""
    conv = np.array(rows.conversation)
    cat = np.array(rows.category)
    qid = np.array(rows.question)
    rank = np.array(rows.rank)
    x = np.array(rows.x, dtype=float)
    y = np.array(rows.y, dtype=float)
    answerable = cat != adversarial
    cv = np.zeros(len(y))
    for c in sorted(set(conv)):
        train = answerable & (conv != c)
        cv[conv == c] = predict(fit(x[train], y[train]), x[conv == c])
    coef = fit(x[answerable], y[answerable])

    def figures(p: np.ndarray) -> list[str]:
        top10 = answerable & (rank < 10)
        chosen = top10 & (p >= threshold)
        best: dict[str, float] = {}
        for i in np.flatnonzero(rank < 10):
            best[qid[i]] = max(best.get(qid[i], 0.0), float(p[i]))
        kind = {q: c for q, c in zip(qid, cat, strict=True)}
        adv = [v < threshold for q, v in best.items() if kind[q] == adversarial]
        ans = [v < threshold for q, v in best.items() if kind[q] != adversarial]
        return [
            f"{auc(p[answerable], y[answerable]):.3f}",
            f"{auc(p[top10], y[top10]):.3f}",
            f"{y[chosen].mean():.3f} ({int(chosen.sum())} hits)" if chosen.any() else "-",
            f"{np.mean(adv):.3f}" if adv else "-",
            f"{np.mean(ans):.3f}" if ans else "-",
        ]

    head = (
        "| relevance | ROC AUC (50 best) | ROC AUC (10 best) | precision of top-10 hits "
        f"≥ {threshold} | adversarial: nothing relevant | answerable: nothing relevant |"
    )
    lines = [
        head,
        "|---|---|---|---|---|---|",
        "| cross-validated (fit on four conversations, scored on the fifth) | "
        + " | ".join(figures(cv))
        + " |",
        "| shipped coefficients (fit on all five: in-sample) | "
        + " | ".join(figures(np.array(rows.shipped)))
        + " |",
    ]
    return "\n".join(lines), [round(float(v), 3) for v in coef]


# Thresholds tried for "nothing relevant" / min_relevance.
THRESHOLDS = (0.005, 0.01, 0.015, *(round(0.01 * i, 2) for i in range(2, 31)))


@dataclass
class AtThreshold:
    """What a threshold ``t`` does over a set of questions (their top-10 hits):

    - ``nothing_adv`` / ``nothing_ans``: share of adversarial / answerable questions whose
      best relevance is below ``t`` (an answer saying "nothing relevant");
    - ``nothing_precision``: share of adversarial questions among those so called;
    - ``answer_lost``: share of answerable questions with an evidence turn in their top 10
      whose every evidence hit is below ``t`` (``min_relevance: t`` cuts the answer: T7);
    - ``evidence_kept``: share of the top-10 evidence hits at or above ``t``;
    - ``hit_precision``: share of evidence among the answerable questions' top-10 hits kept."""

    threshold: float
    nothing_adv: float
    nothing_ans: float
    nothing_precision: float
    answer_lost: float
    evidence_kept: float
    hit_precision: float


def at_threshold(
    p: np.ndarray, rows: Rows, t: float, keep: np.ndarray, adversarial: str = "adversarial"
) -> AtThreshold:
    """The figures of threshold ``t`` for relevance ``p`` over the rows ``keep`` selects."""
    cat = np.array(rows.category)
    qid = np.array(rows.question)
    y = np.array(rows.y, dtype=float)
    top10 = keep & (np.array(rows.rank) < 10)
    best: dict[str, float] = {}
    evidence: dict[str, float] = {}  # best relevance of an evidence hit, per question
    for i in np.flatnonzero(top10):
        best[qid[i]] = max(best.get(qid[i], -np.inf), float(p[i]))
        if y[i] == 1 and cat[i] != adversarial:
            evidence[qid[i]] = max(evidence.get(qid[i], -np.inf), float(p[i]))
    kind = {q: c for q, c in zip(qid, cat, strict=True)}
    adv = [b < t for q, b in best.items() if kind[q] == adversarial]
    ans = [b < t for q, b in best.items() if kind[q] != adversarial]
    called = sum(adv) + sum(ans)
    answerable = top10 & (cat != adversarial)
    kept = answerable & (p >= t)
    ev = answerable & (y == 1)
    return AtThreshold(
        threshold=t,
        nothing_adv=float(np.mean(adv)) if adv else float("nan"),
        nothing_ans=float(np.mean(ans)) if ans else float("nan"),
        nothing_precision=sum(adv) / called if called else float("nan"),
        answer_lost=float(np.mean([v < t for v in evidence.values()])) if evidence else 0.0,
        evidence_kept=float((ev & (p >= t)).sum() / ev.sum()) if ev.any() else float("nan"),
        hit_precision=float(y[kept].mean()) if kept.any() else float("nan"),
    )


def cross_validated(rows: Rows, adversarial: str = "adversarial") -> np.ndarray:
    """Each row's relevance from the model fitted on the other conversations."""
    conv = np.array(rows.conversation)
    answerable = np.array(rows.category) != adversarial
    x = np.array(rows.x, dtype=float)
    y = np.array(rows.y, dtype=float)
    cv = np.zeros(len(y))
    for c in sorted(set(conv)):
        train = answerable & (conv != c)
        cv[conv == c] = predict(fit(x[train], y[train]), x[conv == c])
    return cv


# The share of answers a threshold may cost, for either use: as ``min_relevance`` (a cut),
# the answerable questions whose top-10 evidence it drops (``answer_lost``); as the
# "nothing relevant" line of ``best_relevance``, the answerable questions it calls so
# (``nothing_ans``). Each threshold is the highest that costs at most this much.
MAX_ANSWERS_COST = 0.05
USES = ("answer_lost", "nothing_ans")


def choose_threshold(p: np.ndarray, rows: Rows, keep: np.ndarray, use: str) -> float:
    """The highest of :data:`THRESHOLDS` whose cost ``use`` (a field of
    :class:`AtThreshold`) over ``keep`` is at most :data:`MAX_ANSWERS_COST` (the lowest
    one when none is)."""
    ok = [
        t for t in THRESHOLDS
        if getattr(at_threshold(p, rows, t, keep), use) <= MAX_ANSWERS_COST
    ]  # fmt: skip
    return max(ok) if ok else THRESHOLDS[0]


def threshold_cv(rows: Rows, use: str) -> tuple[list[tuple[str, float, AtThreshold]], AtThreshold]:
    """Leave one conversation out for the threshold too: relevance from the model fitted on
    the other four (:func:`cross_validated`), the threshold chosen on those four
    (:func:`choose_threshold`), its figures on the fifth; and the figures of all held-out
    questions pooled, each at its own fold's threshold (``threshold`` 0: relative to it)."""
    cv = cross_validated(rows)
    conv = np.array(rows.conversation)
    folds = []
    pooled = np.zeros(len(cv))  # each row's relevance minus its fold's threshold
    for c in sorted(set(conv)):
        t = choose_threshold(cv, rows, conv != c, use)
        folds.append((c, t, at_threshold(cv, rows, t, conv == c)))
        pooled[conv == c] = cv[conv == c] - t
    everything = np.ones(len(cv), dtype=bool)
    return folds, at_threshold(pooled, rows, 0.0, everything)


def main() -> None:
    """``python scripts/relevance_fit.py CALIBRATION.json``: the rows of ``eval_locomo.py
    --calibrate --calibration-json``, refitted and every threshold's figures printed."""
    import json
    import sys

    with open(sys.argv[1], encoding="utf-8") as f:
        rows = Rows(**json.load(f))
    cv = cross_validated(rows)
    everything = np.ones(len(rows.y), dtype=bool)
    print("| t | adv: nothing | ans: nothing | nothing precision | answer lost | evidence kept "
          "| hit precision |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for t in THRESHOLDS:
        a = at_threshold(cv, rows, t, everything)
        print(f"| {t:.3f} | {a.nothing_adv:.3f} | {a.nothing_ans:.3f} | "
              f"{a.nothing_precision:.3f} | {a.answer_lost:.3f} | {a.evidence_kept:.3f} | "
              f"{a.hit_precision:.3f} |")  # fmt: skip
    for use in USES:
        folds, pooled = threshold_cv(rows, use)
        print()
        print(f"threshold: the highest with {use} <= {MAX_ANSWERS_COST}")
        for c, t, a in folds:
            print(f"  held out {c}: {t:.3f} (chosen on the other four): {a}")
        print(f"  pooled held-out: {pooled}")
        print(f"  chosen on all five: {choose_threshold(cv, rows, everything, use):.3f}")


if __name__ == "__main__":
    main()
