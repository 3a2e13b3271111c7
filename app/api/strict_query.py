"""Unknown query parameters are a 422 on every route, as unknown body fields are.

One app-wide dependency (``create_app`` installs it) compares the request's query string
with the parameters its route declares: plain ``Query`` parameters, those of its
dependencies, and the fields of a ``Annotated[<X>Query, Query()]`` model (the routes of the
OpenAPI document; /docs, /redoc and /console take what browsers send). A name the route
does not know is refused as ``query.<name>: unknown field``, before any other dependency
runs (no key lookup, no transaction). Without it a route with a path id silently dropped
what it did not know, so ``DELETE /memories/{id}?user_id=bob`` deleted another user's unit
while the caller believed the call scoped (tester finding T12). A parameter that takes one
value given twice is refused too (``query.<name>: given more than once``): the service used
to take the last while a gateway that checks or injects ``user_id`` may read the first
(parameter pollution, tester finding B4).
"""

from __future__ import annotations

from types import NoneType, UnionType
from typing import Any, Union, get_args, get_origin

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model of a query-model parameter (``X`` or ``X | None``), else None."""
    if get_origin(annotation) in (Union, UnionType):
        args = [a for a in get_args(annotation) if a is not NoneType]
        annotation = args[0] if len(args) == 1 else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _repeatable(annotation: Any) -> bool:
    """Whether a query parameter of this type takes several values (``list[str]``,
    ``list[str] | None``)."""
    if get_origin(annotation) in (Union, UnionType):
        return any(_repeatable(a) for a in get_args(annotation) if a is not NoneType)
    return get_origin(annotation) in (list, tuple, set, frozenset)


def _names(dependant: Dependant, repeatable: set[str]) -> set[str]:
    names: set[str] = set()
    for field in dependant.query_params:
        model = _model_of(field.field_info.annotation)
        if model is None:
            names.add(field.alias)
            if _repeatable(field.field_info.annotation):
                repeatable.add(field.alias)
            continue
        for name, info in model.model_fields.items():
            keys = {name, info.alias} if info.alias else {name}
            names |= keys
            if _repeatable(info.annotation):
                repeatable |= keys
    for sub in dependant.dependencies:
        names |= _names(sub, repeatable)
    return names


# Where a route keeps its names: a route's dependants are fixed once it is built, and the
# same route object serves every request it matches (APIRoute is unhashable: no dict key).
_CACHE_ATTR = "_hindsight_declared_query"


def declared_query(route: APIRoute) -> tuple[frozenset[str], frozenset[str]]:
    """Every query parameter name ``route`` takes, and those of them that take several
    values: a walk of its dependants (a few dozen fields, ~4 µs) done once per route, on its
    first request with a query string, and kept on the route."""
    cached: tuple[frozenset[str], frozenset[str]] | None = getattr(route, _CACHE_ATTR, None)
    if cached is None:
        repeatable: set[str] = set()
        names = _names(route.dependant, repeatable)
        cached = (frozenset(names), frozenset(repeatable))
        setattr(route, _CACHE_ATTR, cached)
    return cached


async def reject_unknown_query(request: Request) -> None:
    """Raise a RequestValidationError (422 ``invalid_request``, ``query.<name>: unknown
    field``) naming each query parameter the request's route does not declare."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema or not request.url.query:
        return  # the docs and the console's redirect are no API
    known, repeatable = declared_query(route)
    keys = [k for k, _ in request.query_params.multi_items()]
    unknown = list(dict.fromkeys(k for k in keys if k not in known))
    single = known - repeatable
    twice = [k for k in dict.fromkeys(keys) if k in single and keys.count(k) > 1]
    if unknown or twice:
        raise RequestValidationError(
            [
                {
                    "type": "extra_forbidden",
                    "loc": ("query", name),
                    "msg": "Extra inputs are not permitted",
                    "input": request.query_params.get(name),
                }
                for name in unknown
            ]
            + [
                {
                    "type": "value_error",
                    "loc": ("query", name),
                    "msg": "given more than once; it takes one value",
                    "input": request.query_params.getlist(name),
                }
                for name in twice
            ]
        )
