"""Locking: unlock answers as salted hashes, normalised the same way at lock, unlock and check time.

Contract: answers are authored in plain text in the kit. The student copy holds, for every
prompt, ``sha256(salt + NUL + normalise(answer))`` with a salt unique to the edition, question and
prompt, so equal answers never share a hash. :func:`normalise` is the only place where "the same
answer" is decided; :func:`near_miss` tries a few small edits of a wrong answer and names the one
that would have matched, which is how a student gets a hint without the answer being revealed.
Progress lives in ``.hogkit/progress.json`` beside the student's files; spec files never change.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from graders import syntax
from graders.cases import SPECIAL_ANSWERS, Question
from graders.storage import write_atomically

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
    """``{"unlocked": [prompt keys]}``; a missing or damaged file counts as no progress."""
    path = folder / PROGRESS
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"unlocked": []}
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
    """Write atomically, so an interrupted unlock never leaves a half-written file."""
    write_atomically(folder / PROGRESS, json.dumps(progress, indent=1, sort_keys=True))


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
