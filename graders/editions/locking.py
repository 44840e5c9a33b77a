"""Locking: unlock answers as salted hashes, normalised the same way at lock, unlock and check time.

Contract: answers are authored in plain text in the kit. The student copy holds, for every
prompt, ``sha256(salt + NUL + normalise(answer))`` with a salt unique to the edition, question and
prompt, so equal answers never share a hash. :func:`normalise` is the only place where "the same
answer" is decided; :func:`near_miss` tries a few small edits of a wrong answer and names the one
that would have matched, which is how a student gets a hint without the answer being revealed.
Progress lives in ``.hogkit/progress.json`` beside the student's files, sealed with a key kept in
the student's home folder (so it shows no answer and unlocks nothing in a classmate's copy; files
from before it was sealed are still read); spec files never change.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from graders.core import syntax
from graders.core.storage import write_atomically
from graders.editions.cases import SPECIAL_ANSWERS, Question

PROGRESS = Path(".hogkit") / "progress.json"


def normalise(answer: str) -> str:
    """One spelling per answer: special answers in their canonical case, Python literals in repr form."""
    text = " ".join(answer.strip().split())
    for special in SPECIAL_ANSWERS:
        if text.lower() == special.lower():
            return special
    try:
        value = syntax.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text
    if isinstance(value, (int, float, str, bool, tuple, list, type(None))):
        try:
            return repr(value)
        except ValueError:  # an int too long to print
            return text
    return text


def make_salt(edition: str, question_id: str, prompt: int) -> str:
    return hashlib.sha256(f"hogkit|{edition}|{question_id}|{prompt}".encode()).hexdigest()[:16]


def hash_answer(salt_text: str, answer: str) -> str:
    return hashlib.sha256((salt_text + "\x00" + normalise(answer)).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Prompt:
    """One thing a student types: a line of a what-would-Python-display answer, or a choice."""

    index: int
    source: str  # the statement asked about ("" for a multiple-choice question)
    hashes: tuple[str, ...]  # one per expected line
    salt: str


def lock_question(edition: str, q: Question) -> dict:
    """The student-copy record of Q: everything needed to ask it, answers only as hashes."""
    record: dict = {"id": q.id, "name": q.name}
    if q.is_choice:
        s = make_salt(edition, q.id, 0)
        record.update(question=q.question, choices=list(q.choices), salt=s, hashes=[hash_answer(s, q.answer)])
        return record
    steps = []
    for k, step in enumerate(q.steps):
        entry: dict = {"source": step.source}
        if step.expected is not None:
            s = make_salt(edition, q.id, k)
            entry["salt"] = s
            entry["hashes"] = [hash_answer(s, line) for line in step.expected.split("\n")]
        steps.append(entry)
    record["steps"] = steps
    return record


def check(salt_text: str, expected_hash: str, answer: str) -> bool:
    return hash_answer(salt_text, answer) == expected_hash


def _variants(answer: str) -> list[tuple[str, str]]:
    text = normalise(answer)
    out: list[tuple[str, str]] = [(repr(text), "quotes"), (text.strip("'\""), "no_quotes")]
    try:
        value = syntax.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = None
    if type(value) is int:
        out.append((repr(float(value)), "float"))
    if type(value) is float and value.is_integer():
        out.append((repr(int(value)), "float"))
    if type(value) is list:
        out.append((repr(tuple(value)), "tuple"))
    out += [(text.capitalize(), "case"), (text.title(), "case"), (text.lower(), "case"), (text.upper(), "case")]
    if text in ("None", "", "none", "nothing displayed", "blank"):
        out.append(("Nothing", "special"))
    if text.lower() in ("exception", "raises", "an error", "error!", "traceback"):
        out.append(("Error", "special"))
    if re.match(r"(Traceback|\w*(Error|Exception)\b)", text):  # the error's name or message, typed out
        out.append(("Error", "error_name"))
    if re.match(r"<(function|bound method|built-in function|lambda)\b", text):
        out.append(("Function", "function"))
    return [(v, why) for v, why in out if v != text]


def near_miss(salt_text: str, expected_hash: str, answer: str) -> str | None:
    """The name of a hint (see ``messages.HINTS``) if a small edit of ANSWER would be right."""
    for variant, why in _variants(answer):
        if check(salt_text, expected_hash, variant):
            return why
    return None


# -- progress ------------------------------------------------------------------------------------


def load_progress(folder: Path) -> dict:
    """``{"unlocked": [prompt keys], "answers": {prompt key: what was typed}, "seed": ...}``; a
    missing or damaged file, or one sealed with another account's key (a classmate's copy), counts
    as no progress. A file written before progress was sealed is read as it is."""
    path = folder / PROGRESS
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"unlocked": []}
    if isinstance(data, dict) and data.get("format") == SEALED_FORMAT and isinstance(data.get("sealed"), str):
        opened = unseal(student_key(), data["sealed"])
        try:
            data = json.loads(opened) if opened is not None else None
        except ValueError:
            data = None
    if not isinstance(data, dict) or not isinstance(data.get("unlocked"), list):
        return {"unlocked": []}
    # Keep only well-formed entries: a hand-edited file must not crash the unlocker.
    clean: dict = {"unlocked": [k for k in data["unlocked"] if isinstance(k, str)]}
    if isinstance(data.get("seed"), str):
        clean["seed"] = data["seed"]  # orders the choices of multiple-choice questions for this student
    answers = data.get("answers")
    if isinstance(answers, dict):
        clean["answers"] = {k: v for k, v in answers.items() if isinstance(k, str) and isinstance(v, str)}
    return clean


def save_progress(folder: Path, progress: dict) -> None:
    """Write atomically, so an interrupted unlock never leaves a half-written file; sealed with this
    account's key, so that the file neither shows the answers typed nor unlocks anything in a copy."""
    text = json.dumps(progress, indent=1, sort_keys=True)
    write_atomically(folder / PROGRESS, json.dumps({"format": SEALED_FORMAT, "comment": PROGRESS_COMMENT,
                                                    "sealed": seal(student_key(), text)}, indent=1))


SEALED_FORMAT = 2
PROGRESS_COMMENT = "Your unlock progress, sealed with a key kept in your home folder (.hogkit-key)."
KEY_FILE = ".hogkit-key"


def student_key() -> bytes:
    """This account's own key: made once in the home folder (readable by its owner alone) and kept
    there, so a project folder copied to someone else's account carries no usable progress. Where
    no home folder can be written, a key from the account's name and the machine's."""
    import os
    import secrets

    try:
        path = Path.home() / KEY_FILE
        for _ in range(3):
            try:
                data = path.read_bytes()
                if len(data) >= 32:
                    return data
            except FileNotFoundError:
                pass
            spare = path.with_name(f"{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}")
            spare.write_bytes(secrets.token_hex(32).encode("ascii"))
            spare.chmod(0o600)
            try:
                os.link(spare, path)  # the first writer wins; a reader never sees half a key
            except FileExistsError:
                pass
            except OSError:
                os.replace(spare, path)
            finally:
                spare.unlink(missing_ok=True)
    except (OSError, RuntimeError):
        pass
    return _fallback_key()


def _fallback_key() -> bytes:
    import getpass
    import platform

    try:
        user = getpass.getuser()
    except Exception:  # no name for this account (some containers)
        user = ""
    return hashlib.sha256(f"hogkit|{user}|{platform.node()}".encode()).hexdigest().encode("ascii")


def _stream(key: bytes, nonce: bytes, size: int) -> bytes:
    import hmac

    out = b""
    counter = 0
    while len(out) < size:
        out += hmac.new(key, nonce + counter.to_bytes(4, "big"), hashlib.sha256).digest()
        counter += 1
    return out[:size]


def seal(key: bytes, text: str) -> str:
    """TEXT enciphered and authenticated with KEY (HMAC-SHA256 as the stream and the tag), as base64."""
    import base64
    import hmac
    import secrets

    nonce = secrets.token_bytes(16)
    data = text.encode("utf-8")
    body = bytes(a ^ b for a, b in zip(data, _stream(key, nonce, len(data))))
    tag = hmac.new(key, nonce + body, hashlib.sha256).digest()[:16]
    return base64.b64encode(nonce + tag + body).decode("ascii")


def unseal(key: bytes, sealed: str) -> str | None:
    """What :func:`seal` sealed with KEY, or None when it was sealed with another key or changed."""
    import base64
    import binascii
    import hmac

    try:
        raw = base64.b64decode(sealed.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None
    nonce, tag, body = raw[:16], raw[16:32], raw[32:]
    if len(tag) < 16 or not hmac.compare_digest(tag, hmac.new(key, nonce + body, hashlib.sha256).digest()[:16]):
        return None
    try:
        return bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)))).decode("utf-8")
    except UnicodeDecodeError:
        return None


def prompts_of(record: dict) -> list[Prompt]:
    if "choices" in record:
        return [Prompt(0, "", tuple(record["hashes"]), record["salt"])]
    return [
        Prompt(k, step["source"], tuple(step["hashes"]), step["salt"])
        for k, step in enumerate(record.get("steps", []))
        if "hashes" in step
    ]


def prompt_key(prompt: Prompt) -> str:
    """A prompt's identity in the progress file: its first hash, unique thanks to the salt."""
    return prompt.hashes[0]


def is_unlocked(record: dict, progress: dict) -> bool:
    done = set(progress["unlocked"])
    return all(prompt_key(p) in done for p in prompts_of(record))
