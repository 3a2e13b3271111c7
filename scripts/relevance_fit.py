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
