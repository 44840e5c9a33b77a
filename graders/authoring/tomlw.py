"""A small TOML writer for the kit's own generated files (tomllib only reads).

Contract: it writes what the kit generates and nothing more general: top-level scalars and
arrays of tables whose values are strings, numbers, booleans, lists of those, inline tables, or
lists of inline tables. Multi-line strings become literal ``'''`` blocks so transcripts stay readable;
anything a literal block cannot hold is written as an escaped basic string. Output is stable:
the same data always gives the same bytes, which is what the freshness tests compare.
"""

from __future__ import annotations

import json


def _string(s: str) -> str:
    if "\n" in s and "'''" not in s and all(c == "\n" or c >= " " for c in s) and not s.endswith("'"):
        return "'''\n" + s + "'''"
    return json.dumps(s, ensure_ascii=False)


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, dict):
        return _inline(v)
    if isinstance(v, list):
        if v and all(isinstance(x, dict) for x in v):
            return "[\n" + "".join(f"  {_inline(x)},\n" for x in v) + "]"
        return "[" + ", ".join(_inline(x) if isinstance(x, dict) else _value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _inline(d: dict) -> str:
    return "{ " + ", ".join(f"{k} = {json.dumps(v) if isinstance(v, str) else _value(v)}" for k, v in d.items()) + " }"


def dumps(doc: dict, header: str = "") -> str:
    lines = [f"# {h}" if h else "#" for h in header.split("\n")] if header else []
    for key, value in doc.items():
        if not (isinstance(value, list) and value and all(isinstance(x, dict) for x in value)):
            lines.append(f"{key} = {_value(value)}")
    for key, value in doc.items():
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            for table in value:
                lines.append("")
                lines.append(f"[[{key}]]")
                for k, v in table.items():
                    lines.append(f"{k} = {_value(v)}")
    return "\n".join(lines) + "\n"
