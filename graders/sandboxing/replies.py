"""What a child says, decoded in the parent into plain data of exact types, clipped and cleaned.

Contract: nothing read from a child is trusted. Values come back as tagged plain data and are
rebuilt here from exact types only (:func:`decode_value`); texts are clipped and their control
characters replaced (:func:`clean`); an error is kept only in the shape the child promises
(:func:`decode_error`), and anything else reads as a forged reply that loses points, never one that
earns them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graders.sandboxing import messages as sandboxing_messages

MAX_DEPTH = 40  # of nested lists in a frame; the child's values stop at 20
MAX_TEXT = 64 * 1024  # of output or of a string value kept from one step
MAX_ITEMS = 2000  # of a list or tuple value


@dataclass
class StepReply:
    """What one step did, as plain data: ``status`` is ok, error, timeout, crashed or memory."""

    status: str
    output: str = ""
    value: object = None
    value_kind: str = "none"  # none, plain, function, object
    value_note: str = ""
    error: dict | None = None
    truncated: bool = False
    seconds: float = 0.0


@dataclass
class ImportNote:
    line: int
    message: str
    traceback: str = ""


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: object, most: int = MAX_TEXT) -> str:
    """TEXT the child sent, as a str any file takes: clipped to MOST characters, lone surrogates replaced."""
    if not isinstance(text, str):
        return ""
    if len(text) <= most and text.isascii():  # (most output: nothing to clip or replace)
        return text
    return text[:most].encode("utf-8", "replace").decode("utf-8")


def shown(text: object, most: int = 2000) -> str:
    """TEXT the child sent that is only ever shown (an error's message, a type's name): also with
    its control characters written out, so a terminal prints them instead of obeying them."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", clean(text, most))


def as_int(value: object, default: int) -> int:
    return value if type(value) is int else default


def import_notes(raw: object) -> list[ImportNote]:
    notes = []
    for n in raw[:100] if isinstance(raw, list) else []:
        if isinstance(n, dict):
            err = decode_error(n.get("error")) or {}
            notes.append(ImportNote(as_int(n.get("line"), 0), describe_load_error(err), str(err.get("traceback", ""))))
    return notes


def decode_value(data: object, depth: int = 0) -> tuple[str, object, str]:
    """(kind, value, note) from the child's tagged data; unknown or oversized shapes are 'object'."""
    if not isinstance(data, dict):
        return "none", None, ""
    t = data.get("t")
    if t == "none":
        return "none", None, ""
    if t in ("bool", "int") and type(data.get("v")) is (bool if t == "bool" else int):
        return "plain", data["v"], ""
    if t == "float" and type(data.get("v")) is str:
        try:
            return "plain", float(data["v"]), ""
        except ValueError:
            return "object", None, "float"
    if t == "str" and type(data.get("v")) is str:
        if data.get("cut") or len(data["v"]) > MAX_TEXT:
            return "object", None, f"str ({sandboxing_messages.value_note('long')})"
        return "plain", clean(data["v"]), ""
    if t in ("tuple", "list") and isinstance(data.get("v"), list):
        return _decode_items(t, data, depth)
    if t == "function":
        return "function", None, shown(data.get("name", "?"), 80)
    note = f" ({sandboxing_messages.value_note(shown(data['note'], 40))})" if data.get("note") else ""
    return "object", None, shown(data.get("type", "?"), 80) + note


def _decode_items(t: str, data: dict, depth: int) -> tuple[str, object, str]:
    if depth > MAX_DEPTH // 2 or len(data["v"]) > MAX_ITEMS or data.get("cut"):
        why = "deep" if depth > MAX_DEPTH // 2 else "long"
        return "object", None, f"{t} ({sandboxing_messages.value_note(why)})"
    items = []
    for item in data["v"]:
        kind, value, note = decode_value(item, depth + 1)
        if kind != "plain" and kind != "none":
            return "object", None, f"a {t} holding a {note or kind}"
        items.append(value)
    return "plain", (tuple(items) if t == "tuple" else items), ""


def decode_error(raw: object) -> dict | None:
    """An error the child described, with every field of the expected type, clipped and showable."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        return {"type": "Error", "message": shown(raw, 200), "traceback": "", "line": None, "function": None}
    message = raw.get("message")
    return {
        "type": shown(raw.get("type", "Error"), 100) or "Error",
        "message": shown(message) if isinstance(message, str) else sandboxing_messages.value_note("no_message"),
        "traceback": shown(raw.get("traceback", ""), 16 * 1024),
        "line": as_int(raw.get("line"), 0) or None,
        "function": shown(raw.get("function"), 100) or None,
    }


def describe_load_error(err: dict) -> str:
    """One line for an error raised by a top-level statement while the submission loaded."""
    kind = str(err.get("type", "Error"))
    raw = err.get("message")
    detail = (raw if isinstance(raw, str) else sandboxing_messages.value_note("no_message")).strip()
    if kind == "SystemExit":
        return sandboxing_messages.exited_while_loading("sys.exit", detail)
    return f"{kind}: {detail}" if detail else kind


def decode_reply(message: dict, elapsed: float) -> StepReply:
    kind, value, note = decode_value(message.get("value"))
    error = decode_error(message.get("error"))
    output = clean(message.get("output", ""))
    return StepReply(
        status="error" if error else "ok",
        output=output,
        value=value,
        value_kind=kind,
        value_note=note,
        error=error,
        truncated=bool(message.get("truncated")) or len(output) >= MAX_TEXT,
        seconds=elapsed,
    )
