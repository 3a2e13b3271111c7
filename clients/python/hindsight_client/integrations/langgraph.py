"""A LangGraph ``BaseStore`` on Hindsight: ``HindsightStore(Hindsight(...))``.

Install with the extra: ``pip install "./clients/python[langgraph]"`` (tested with
langgraph 1.2.22). Give it to a graph (``graph.compile(store=HindsightStore(api))``) or use
it directly::

    store = HindsightStore(Hindsight("http://127.0.0.1:8000"))
    store.put(("alice", "memories"), "m1", {"text": "Alice is allergic to peanuts"})
    store.search(("alice",), query="what can't Alice eat?")   # through POST /recall

How LangGraph's model maps onto Hindsight's:

- **namespace → subject.** By default a namespace is the user ``".".join(namespace)``
  (``("alice", "memories")`` → ``user_id="alice.memories"``; LangGraph forbids "." in a
  label, so the mapping is reversible and ``list_namespaces`` reads ``GET /subjects``).
  ``subject=`` takes your own mapping, a function from a namespace to the subject fields of
  the API (``user_id``, required, and ``agent_id`` / ``session_id``), e.g.
  ``lambda ns: {"user_id": ns[0], "agent_id": ".".join(ns[1:]) or None}``; a search's
  ``namespace_prefix`` goes through it too, and ``list_namespaces`` needs the default.
- **item → memory unit.** The unit's text (embedded, recalled) is the value's first string
  field of ``text_fields`` (``text``, ``content``, ``memory``, ``value``), else the value as
  JSON, cut to 2,000 characters. The item itself (namespace, key, value, times) is kept whole
  in the unit's ``metadata`` under ``langgraph:["<ns>", …, "<key>"]``. A ``type`` field of the
  value that is one of the API's unit types becomes the unit's type (else ``fact``).
- **Hindsight deduplicates.** An item whose text restates another unit of the subject is
  merged into it (``outcome: merged``): the unit then holds both items in its metadata, and
  each key still reads back its own value. ``delete`` of one of them forgets the unit and
  stores the others again. An item that contradicts an older one may supersede it: ``get``
  still reads superseded units; ``search`` returns what recall returns (superseded units
  leave it unless ``include_superseded=True`` is given to the store).
- **search** with a ``query`` is ``POST /recall``: in recall's order with the hit's hybrid
  ``score`` (scaled within that recall: it orders one search, from 0 to the sum of recall's
  weights — up to 1.35 with the defaults, where the time and answer-type signals add on top
  of weights that sum to 1 — not 0..1); when the prefix spans several subjects, one recall
  each, merged by the hits' ``relevance`` (0..1, comparable across recalls), which is then
  the ``score``. Without a query, the items newest first (``GET /memories``).
  ``filter`` compares value fields (equality or ``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``,
  ``$lte``) after the fetch.
- **get / put / delete** find an item by listing its subject's units (one request per 200
  units): meant for memories, not for a large key-value table.
- ``ttl`` (minutes) becomes the unit's ``ttl_days``, kept as given: recalls never extend an
  expiry its writer gave (docs/LIFECYCLE.md), so there is no refresh on read; an item
  without ``ttl`` has its type's default expiry, which recalls that return it extend.
- ``abatch`` runs ``batch`` in a worker thread (the sync client is thread-safe).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        Item,
        ListNamespacesOp,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        validate_op_namespace,
    )
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        'HindsightStore needs LangGraph: pip install "hindsight-client[langgraph]"'
    ) from exc

from hindsight_client import models as m
from hindsight_client.client import Hindsight

Namespace = tuple[str, ...]
SubjectMapping = Callable[[Namespace], Mapping[str, str | None]]

PREFIX = "langgraph:"
TEXT_FIELDS = ("text", "content", "memory", "value")
UNIT_TYPES = frozenset({"fact", "preference", "constraint", "action", "result", "event"})
MAX_TEXT = 2000
PAGE = 200


def default_subject(namespace: Namespace) -> dict[str, str | None]:
    """The default mapping: the user ``".".join(namespace)``."""
    return {"user_id": ".".join(namespace)}


def entry_name(namespace: Namespace, key: str) -> str:
    """The metadata key under which a unit keeps one item."""
    return PREFIX + json.dumps([*namespace, key], ensure_ascii=False)


class HindsightStore(BaseStore):
    """LangGraph's ``BaseStore`` over a :class:`~hindsight_client.Hindsight` client (see the
    module's docstring for the mapping). ``subject``: namespace → subject fields;
    ``text_fields``: value fields tried, in order, for the unit's text;
    ``include_superseded``: let ``search`` return superseded units; ``recall_options``:
    other ``POST /recall`` fields for every search (``profile``, ``min_relevance``, …)."""

    supports_ttl = True

    def __init__(
        self,
        client: Hindsight,
        *,
        subject: SubjectMapping | None = None,
        text_fields: Iterable[str] = TEXT_FIELDS,
        include_superseded: bool = False,
        recall_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.client = client
        self.subject = subject or default_subject
        self.custom_subject = subject is not None
        self.text_fields = tuple(text_fields)
        self.include_superseded = include_superseded
        self.recall_options = dict(recall_options or {})

    # --- BaseStore --------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order (Get → Item | None, Search → list[SearchItem], Put → None,
        ListNamespaces → list[tuple]). Errors of the API raise the client's typed
        exceptions."""
        results: list[Result] = []
        for op in ops:
            validate_op_namespace(op)
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, PutOp):
                created_at = self._delete(op.namespace, op.key)
                if op.value is not None:
                    self._put(op, created_at)
                results.append(None)
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:  # pragma: no cover - BaseStore has no other op
                raise TypeError(f"unknown op {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """``batch`` in a worker thread."""
        return await asyncio.to_thread(self.batch, list(ops))

    # --- items <-> units ----------------------------------------------------------------------
    def _subject(self, namespace: Namespace) -> dict[str, str]:
        fields = self.subject(namespace)
        if not fields.get("user_id"):
            raise ValueError(f"the subject mapping gave no user_id for namespace {namespace}")
        return {k: v for k, v in fields.items() if v is not None}

    def _units(self, namespace: Namespace) -> Iterator[m.MemoryRead]:
        statuses = ["active", "superseded"]
        yield from self.client.iter_memories(
            **self._subject(namespace), status=statuses, limit=PAGE
        )

    def _find(self, namespace: Namespace, key: str) -> tuple[m.MemoryRead, dict[str, Any]] | None:
        name = entry_name(namespace, key)
        for unit in self._units(namespace):
            entry = unit.metadata.get(name)
            if isinstance(entry, dict):
                return unit, entry
        return None

    def _get(self, namespace: Namespace, key: str) -> Item | None:
        found = self._find(namespace, key)
        return _item(found[1]) if found else None

    def _text(self, value: Mapping[str, Any]) -> str:
        for name in self.text_fields:
            text = value.get(name)
            if isinstance(text, str) and text.strip():
                return text[:MAX_TEXT]
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)[:MAX_TEXT]

    def _put(self, op: PutOp, created_at: str | None = None) -> None:
        assert op.value is not None
        now = datetime.now(UTC).isoformat()
        entry = {
            "namespace": list(op.namespace),
            "key": op.key,
            "value": dict(op.value),
            "created_at": created_at or now,
            "updated_at": now,
        }
        unit: dict[str, Any] = {
            **self._subject(op.namespace),
            "value": self._text(op.value),
            "metadata": {entry_name(op.namespace, op.key): entry},
            "source": "agent",
        }
        kind = op.value.get("type")
        if isinstance(kind, str) and kind in UNIT_TYPES:
            unit["type"] = kind
        if op.ttl is not None:
            unit["ttl_days"] = op.ttl / 1440
        self.client.store([unit])

    def _delete(self, namespace: Namespace, key: str) -> str | None:
        """Remove one item: forget its unit, and store again the other items that unit held
        (items merged into it). Returns the removed item's ``created_at``."""
        found = self._find(namespace, key)
        if found is None:
            return None
        unit, removed = found
        others = [
            e
            for name, e in unit.metadata.items()
            if name.startswith(PREFIX) and name != entry_name(namespace, key)
            and isinstance(e, dict)
        ]  # fmt: skip
        self.client.forget_memory(str(unit.id))
        for e in others:
            ns = tuple(e["namespace"])
            self._put(PutOp(ns, e["key"], e["value"]), created_at=e.get("created_at"))
        created = removed.get("created_at")
        return created if isinstance(created, str) else None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        wanted = op.offset + op.limit
        found: list[SearchItem] = []
        subjects = self._search_subjects(prefix)
        merged = len(subjects) > 1
        for subject in subjects:
            found.extend(self._search_subject(subject, prefix, op, wanted, merged))
        if op.query:
            if merged:  # one subject: recall's own order (a rerank's included)
                found.sort(key=lambda item: item.score or 0.0, reverse=True)
        else:
            found.sort(key=lambda item: item.updated_at, reverse=True)
        return found[op.offset : wanted]

    def _search_subjects(self, prefix: Namespace) -> list[dict[str, str]]:
        if self.custom_subject or not prefix:
            if not prefix and not self.custom_subject:
                users = self.client.iter_subjects(kind="user")
                return [{"user_id": s.id} for s in users]
            return [self._subject(prefix)]
        joined = ".".join(prefix)
        below = self.client.iter_subjects(kind="user", prefix=joined + ".")
        return [{"user_id": joined}, *({"user_id": s.id} for s in below)]

    def _search_subject(
        self, subject: dict[str, str], prefix: Namespace, op: SearchOp, wanted: int, merged: bool
    ) -> list[SearchItem]:
        out: list[SearchItem] = []
        if op.query:
            # Ask for more than wanted when filtering after the fetch.
            top_k = min(100, wanted * 4 if op.filter else wanted)
            response = self.client.recall(
                op.query, top_k=top_k, include_superseded=self.include_superseded or None,
                **subject, **self.recall_options,
            )  # fmt: skip
            for hit in response.memories:
                score = hit.relevance if merged else hit.score
                out.extend(self._matches(hit.metadata, prefix, op.filter, score))
        else:
            for unit in self.client.iter_memories(**subject, limit=PAGE):
                out.extend(self._matches(unit.metadata, prefix, op.filter, None))
                if len(out) >= wanted:
                    break
        return out

    @staticmethod
    def _matches(
        metadata: Mapping[str, Any],
        prefix: Namespace,
        filter: Mapping[str, Any] | None,
        score: float | None,
    ) -> Iterator[SearchItem]:
        for name, entry in metadata.items():
            if not name.startswith(PREFIX) or not isinstance(entry, dict):
                continue
            if tuple(entry["namespace"][: len(prefix)]) != prefix:
                continue
            if filter and not _passes(entry["value"], filter):
                continue
            item = _item(entry)
            yield SearchItem(
                item.namespace, item.key, item.value, item.created_at, item.updated_at, score
            )

    def _list_namespaces(self, op: ListNamespacesOp) -> list[Namespace]:
        if self.custom_subject:
            raise NotImplementedError(
                "list_namespaces reads GET /subjects and needs the default subject mapping"
            )
        prefix: Namespace = ()
        for condition in op.match_conditions or ():
            if condition.match_type == "prefix" and "*" not in condition.path:
                prefix = tuple(condition.path)
        starts = ".".join(prefix)
        subjects = self.client.iter_subjects(kind="user", prefix=starts or None)
        spaces: list[Namespace] = []
        conditions = op.match_conditions or ()
        for subject in subjects:
            ns = tuple(subject.id.split("."))
            if not all(_condition(ns, c.match_type, tuple(c.path)) for c in conditions):
                continue
            ns = ns[: op.max_depth] if op.max_depth is not None else ns
            if ns not in spaces:
                spaces.append(ns)
        spaces.sort()
        return spaces[op.offset : op.offset + op.limit]


def _item(entry: Mapping[str, Any]) -> Item:
    return Item(
        value=dict(entry["value"]),
        key=str(entry["key"]),
        namespace=tuple(entry["namespace"]),
        created_at=datetime.fromisoformat(entry["created_at"]),
        updated_at=datetime.fromisoformat(entry["updated_at"]),
    )


_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda a, b: bool(a == b),
    "$ne": lambda a, b: bool(a != b),
    "$gt": lambda a, b: a is not None and bool(a > b),
    "$gte": lambda a, b: a is not None and bool(a >= b),
    "$lt": lambda a, b: a is not None and bool(a < b),
    "$lte": lambda a, b: a is not None and bool(a <= b),
}


def _passes(value: Mapping[str, Any], filter: Mapping[str, Any]) -> bool:
    """LangGraph's filter: each field equal to the given value, or an ``{"$op": x}`` test."""
    for field, wanted in filter.items():
        have = value.get(field)
        if isinstance(wanted, dict) and wanted and all(k in _OPS for k in wanted):
            if not all(_OPS[k](have, v) for k, v in wanted.items()):
                return False
        elif have != wanted:
            return False
    return True


def _condition(ns: Namespace, kind: str, path: Namespace) -> bool:
    if len(ns) < len(path):
        return False
    part = ns[: len(path)] if kind == "prefix" else ns[len(ns) - len(path) :]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))
