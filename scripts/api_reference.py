"""``docs/API.md``, the API reference, generated from the committed OpenAPI document.

    python3 scripts/api_reference.py           # exit 1 when docs/API.md is not current
    python3 scripts/api_reference.py --write   # rewrite docs/API.md from docs/openapi.json

Readable without a running service or a browser (the same content as ``/docs``): every
operation by tag with its parameters, request body, answers and error codes, then every
schema with its fields, types, bounds and descriptions. ``tests/test_api_reference.py`` fails
when the page and ``docs/openapi.json`` disagree (and ``tests/test_openapi_snapshot.py`` when
``docs/openapi.json`` and the app do): an API change regenerates both.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "docs" / "openapi.json"
PAGE = ROOT / "docs" / "API.md"
METHODS = ("get", "post", "put", "patch", "delete")
# Patterns of never-blank strings are long character classes: named, not printed.
NOT_BLANK = "[^\\t\\n\\v\\f\\r \\x1c-\\x1f"
VISIBLE = "[^\\x00-\\x20\\x7f-\\xa0"  # app.schemas.common.VISIBLE_PATTERN


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_of(schema: dict[str, Any]) -> str:
    """A short type: ``string``, ``integer ≥ 1 ≤ 100``, ``list of MemoryCreate``, ``A | null``."""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return f"[{name}](#{name.lower()})"
    if "anyOf" in schema or "oneOf" in schema:
        return " \\| ".join(type_of(s) for s in schema.get("anyOf", schema.get("oneOf", [])))
    if "enum" in schema:
        return " \\| ".join(f"`{v}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{schema['const']}`"
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        kind = " \\| ".join(kind)
    if kind == "array":
        text = f"list of {type_of(schema.get('items', {}))}"
    elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        text = f"map of {type_of(schema['additionalProperties'])}"
    else:
        text = str(kind)
    if "format" in schema:
        text += f" ({schema['format']})"
    return text + _bounds(schema)


def _bounds(schema: dict[str, Any]) -> str:
    parts = []
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                      ("exclusiveMaximum", "<")):  # fmt: skip
        if key in schema:
            parts.append(f"{sign} {schema[key]}")
    for key, word in (("minLength", "min length"), ("maxLength", "max length"),
                      ("minItems", "min items"), ("maxItems", "max items"),
                      ("minProperties", "min fields")):  # fmt: skip
        if key in schema:
            parts.append(f"{word} {schema[key]}")
    pattern = schema.get("pattern")
    if pattern:
        if pattern.startswith(NOT_BLANK):
            parts.append("not blank")
        elif pattern.startswith(VISIBLE):
            parts.append("visible text: not only whitespace and invisible characters")
        else:
            parts.append(f"pattern `{pattern}`")
    return f" ({', '.join(parts)})" if parts else ""


def _cell(text: Any) -> str:
    """Text fit for a table cell: one line, pipes escaped."""
    return re.sub(r"\s+", " ", str(text or "")).replace("|", "\\|").strip()


def _default(schema: dict[str, Any]) -> str:
    return f"`{json.dumps(schema['default'], ensure_ascii=False)}`" if "default" in schema else ""


def _body_schema(content: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    for media, entry in sorted(content.items()):
        if "schema" in entry:
            return media, entry["schema"]
    return None


def operation(method: str, path: str, op: dict[str, Any]) -> list[str]:
    """The section of one operation."""
    lines = [f"### `{method.upper()} {path}`", ""]
    lines += [f"operationId `{op['operationId']}`" + (f" — {op['summary']}" if op.get("summary")
              else ""), ""]  # fmt: skip
    if op.get("description"):
        lines += [op["description"].strip(), ""]
    params = op.get("parameters", [])
    if params:
        lines += ["| parameter | in | type | required | default | description |",
                  "|---|---|---|---|---|---|"]  # fmt: skip
        for p in params:
            schema = p.get("schema", {})
            lines.append(
                f"| `{p['name']}` | {p['in']} | {type_of(schema)} | "
                f"{'yes' if p.get('required') else 'no'} | {_default(schema)} | "
                f"{_cell(p.get('description') or schema.get('description'))} |"
            )
        lines.append("")
    body = op.get("requestBody")
    if body:
        found = _body_schema(body.get("content", {}))
        if found:
            media, schema = found
            need = "required" if body.get("required") else "optional"
            lines += [f"Request body ({media}, {need}): {type_of(schema)}", ""]
    lines += ["| status | body | when |", "|---|---|---|"]
    for status, answer in sorted(op.get("responses", {}).items()):
        found = _body_schema(answer.get("content", {}))
        shape = f"{type_of(found[1])} ({found[0]})" if found else ""
        lines.append(f"| {status} | {shape} | {_cell(answer.get('description'))} |")
    lines.append("")
    return lines


def schema_section(name: str, schema: dict[str, Any]) -> list[str]:
    """The section of one component schema: its description and a table of its fields."""
    lines = [f"### {name}", ""]
    if schema.get("description"):
        lines += [schema["description"].strip(), ""]
    props = schema.get("properties")
    if not props:
        lines += [f"Type: {type_of(schema)}", ""]
        return lines
    required = set(schema.get("required", ()))
    lines += ["| field | type | required | default | description |", "|---|---|---|---|---|"]
    for field, prop in props.items():
        lines.append(
            f"| `{field}` | {type_of(prop)} | {'yes' if field in required else 'no'} | "
            f"{_default(prop)} | {_cell(prop.get('description'))} |"
        )
    extra = schema.get("additionalProperties")
    if extra is False:
        lines += ["", "Unknown fields are refused (422 `invalid_request`)."]
    lines.append("")
    return lines


def render(document: dict[str, Any]) -> str:
    """The page for ``document`` (deterministic: same document, same bytes)."""
    info = document.get("info", {})
    lines = [
        f"# {info.get('title', 'API')} API reference",
        "",
        "<!-- Generated by scripts/api_reference.py from docs/openapi.json; do not edit. -->",
        "",
        f"Version {info.get('version', '?')}, OpenAPI {document.get('openapi', '?')}. The same "
        "document is served at `/openapi.json`, and browsable at `/docs` (Swagger UI) and "
        "`/redoc` (both from local files: no network needed). Every error answer is RFC 9457 "
        "`application/problem+json` ([Problem](#problem)) with a stable `code`.",
        "",
    ]
    if info.get("description"):
        lines += [info["description"].strip(), ""]
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, ops in document.get("paths", {}).items():
        for method in METHODS:
            if method in ops:
                tag = (ops[method].get("tags") or ["other"])[0]
                by_tag.setdefault(tag, []).append((path, method, ops[method]))
    lines += ["## Operations", "", "| operation | operationId |", "|---|---|"]
    for tag in sorted(by_tag):
        for path, method, op in sorted(by_tag[tag]):
            anchor = re.sub(r"[^a-z0-9 -]", "", f"{method} {path}".lower()).replace(" ", "-")
            lines.append(f"| [`{method.upper()} {path}`](#{anchor}) | `{op['operationId']}` |")
    lines.append("")
    for tag in sorted(by_tag):
        lines += [f"## {tag[:1].upper()}{tag[1:]}", ""]
        for path, method, op in sorted(by_tag[tag]):
            lines += operation(method, path, op)
    lines += ["## Schemas", ""]
    for name, schema in sorted(document.get("components", {}).get("schemas", {}).items()):
        lines += schema_section(name, schema)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    page = render(json.loads(SPEC.read_text(encoding="utf-8")))
    if "--write" in argv:
        PAGE.write_text(page, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
        return 0
    if PAGE.exists() and PAGE.read_text(encoding="utf-8") == page:
        print(f"{PAGE.relative_to(ROOT)} is up to date")
        return 0
    print(f"{PAGE.relative_to(ROOT)} differs from docs/openapi.json; run with --write")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
