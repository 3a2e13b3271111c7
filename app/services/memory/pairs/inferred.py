"""What a field the service read from a unit's value counts for in the pair decision: the
type and entities ``/store`` infers when the caller sends none
(:mod:`app.services.extraction.store_inferred`), listed in the unit's ``metadata.inferred``.

An inferred type other than an event decides no pair: two wordings of one fact are read as a
constraint and a fact ("The user is vegan" / "The user eats no animal products"). Inferred
entities rule no merge out: one wording names Google, the other 谷歌. The one rule of the
write path (:func:`app.services.memory.merge.decide_against`) and of recall's duplicate
collapse (:mod:`app.services.recall.collapse`), so a pair the write path would merge is one
hit of a recall, whichever way the two units reached storage. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

INFERRED_KEY = "inferred"


def inferred_fields(metadata: Mapping[str, Any] | None) -> frozenset[str]:
    """The fields a unit's ``metadata`` says were read from its value (``"type"``,
    ``"entities"``); empty when it says none (or holds no list of names there)."""
    listed = (metadata or {}).get(INFERRED_KEY)
    if not isinstance(listed, list | tuple):
        return frozenset()
    return frozenset(x for x in listed if isinstance(x, str))


def decided_keys(keys: Iterable[str], inferred: frozenset[str]) -> frozenset[str]:
    """A unit's case-folded entity ``keys`` as the pair decision sees them: none when they
    were inferred (:func:`inferred_fields`)."""
    return frozenset() if "entities" in inferred else frozenset(keys)


def given(metadata: Mapping[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    """``metadata`` (a copy) with ``fields`` no longer listed as inferred: a caller gave them
    (a correction's ``type`` or ``entities``); the ``inferred`` key goes when none is left."""
    gone = set(fields)
    left = [f for f in sorted(inferred_fields(metadata)) if f not in gone]
    out = {k: v for k, v in metadata.items() if k != INFERRED_KEY}
    return {**out, INFERRED_KEY: left} if left else out


class AsDecided(NamedTuple):
    """A pair's fields as the pair decision sees them: ``own_keys`` (the new unit's entity
    keys), the other unit's ``other_type`` and ``other_keys``."""

    own_keys: frozenset[str]
    other_type: str
    other_keys: frozenset[str]


def as_decided(
    type_: str,
    keys: Iterable[str],
    inferred: frozenset[str],
    other_type: str,
    other_keys: Iterable[str],
    other_inferred: frozenset[str],
) -> AsDecided:
    """A unit of ``type_`` with the case-folded entity ``keys`` against another (its
    ``other_type`` and ``other_keys``), each with its :func:`inferred_fields`: when either
    side's type was inferred and neither is an ``event``, the other is taken to have
    ``type_`` (the types decide nothing); a side's inferred entities count as none (no
    disjoint names rule the merge out: :func:`decided_keys`)."""
    loose = "type" in inferred | other_inferred and "event" not in (type_, other_type)
    return AsDecided(
        decided_keys(keys, inferred),
        type_ if loose else other_type,
        decided_keys(other_keys, other_inferred),
    )
