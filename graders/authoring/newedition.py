"""New edition: everything next term's edition needs, started from an edition the kit already has.

Contract: :func:`plan` works out, writing nothing, the files ``hogkit new-edition NAME --from
EDITION`` makes in a course's folder (the current folder: ``tests/editions/NAME/``,
``solution/NAME/``, ``handouts/NAME/``), or refuses (an :class:`graders.core.errors.InputError`:
a name that is not a lower-case Python name, an edition that already exists, a folder already
there); :func:`write` then writes them all. The copies are the starting edition's marked reference,
case files (their ``[[generate]]`` templates included, so the build works each case's expected
output out of the new reference), unlock questions, handout (which is the notebook's text too) and
equivalent mutants, with whole words renamed (``--rename old=new``); a manifest whose every key is
explained in a comment above it (:data:`KEY_GUIDE`); and ``TODO`` lines where only the author can
write (the title, the rules' text). Files another edition's cases include are copied beside the new
ones (``from-EDITION-FILE.toml``) when the new edition lives outside the kit, so a course's folder
holds all it grades with. Generated files (skeleton, generated cases, the kit's answers) are left
to ``hogkit build``; ``hogkit build --check --edition NAME`` then lists what is still to do, in order
(:mod:`graders.authoring.checklist`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from graders.authoring import messages as authoring_messages
from graders.authoring import tomlw
from graders.core.errors import InputError
from graders.editions.cases import SPECIAL_ANSWERS, parse_transcript, render_steps
from graders.editions.edition import EDITIONS, Edition, edition_names, parse_toml
from graders.editions.onefunction import ANSWERS_FILE

EDITION_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}\Z")
TODO = "TODO"  # what :mod:`graders.authoring.checklist` looks for in the manifest, the reference and the handout
LEFT_OUT = ("seed.toml", ANSWERS_FILE)  # the kit's own record of a seed's lines; answers the build works out
PLAIN_CASE = {"name", "hidden", "transcript", "rule", "advice", "timeout", "setup"}  # what a template takes too
INCLUDE_FILE = re.compile(r'^(?P<head>\s*file\s*=\s*)(?P<q>["\'])(?P<file>[^"\']+)(?P=q)', re.MULTILINE)

# Every key a manifest may hold, with what it means: written above the new manifest, and checked by a
# test against the tables the loader knows (graders.editions.edition, graders.games.kinds).
KEY_GUIDE: dict[str, str] = {
    "title": "the edition's name as students read it",
    "submission": "the one file a student changes and hands in (hog.py)",
    "module": "its module name (default: the file's name without .py)",
    "support": "files always taken from solution/NAME/, never from a hand-in (dice.py, ucb.py)",
    "student_files": "what a student's folder holds besides tests/ and ok",
    "setup": "code run before every case (from hog import *)",
    "case_timeout": "seconds one case may take (a problem may set its own)",
    "run_timeout": "seconds one whole grading run may take",
    "course_points": "what the points are worth in the course's own total (0: the points themselves)",
    "name": "(optional) the edition's name; the folder's name is used",
    "[checkpoint] phase, points, label": "points for a hand-in whose phase PHASE passes by the checkpoint",
    "[[phases]] number, name": "one table per phase, numbered from 1",
    "[[problems]] number, label, title, phase, points": (
        "one table per problem; LABEL ('05a') names a part, else the number is the label"),
    "[[problems]] functions": "the functions the problem asks for (its hidden cases stub every other problem's)",
    "[[problems]] depends": "the problems whose functions it calls (a failure names them first)",
    "[[problems]] case_timeout, optional": "a longer time for slow cases; optional = true for a 0-point extra",
    "[[problems.rules]] kind, function, names": (
        "a shape rule: kind 'forbid' (the names 'str', 'lists', 'square brackets', 'for loops', or a function "
        "that must not be called) or 'uses' (functions that should be called)"),
    "[[problems.rules]] helpers": (
        "false: check the function's own code alone (what it nests), not the module-level helpers it calls "
        "(default true)"),
    "[[problems.rules]] required": (
        "true: the problem's points depend on it (the rules say 'must'); false: advice only ('should'). "
        "Default: forbid is required, uses is advice"),
    "[game] kind": "'dice' (a strategy chooses a number of dice) or 'tactic' (roll or hold)",
    "[game] goal, baseline, sides, dice": (
        "the goal and baseline strategy as expressions over the reference's names, the die's sides, "
        "and the fewest and most dice a strategy may choose"),
    "[game] update": (
        "a dice game's turn: lambda num_rolls, score, opponent_score, dice: the mover's new score "
        "(every rule that changes the mover's score in a turn belongs here)"),
    "[game] extra_turn, after": (
        "a function of (mover's score, opponent's score) that gives the mover another turn; a function "
        "that changes both scores after a turn (a swap)"),
    "[game] memory, variants, report": (
        "what a rule remembers from turn to turn; rule sets for the analysis; the optional problem "
        "whose strategy is reported with its exact win rate"),
    "[game] actions, strategy": "a tactic game's actions and the function that chooses them",
    "[gui] play, goal, factories, opponent, commentary": (
        "how the page starts a game: the call of play, its goal, the strategy factories offered, the "
        "computer's strategy and the commentary"),
    "[gui] variants, numbers, events, memory": (
        "rule sets the page offers; the numbers it works out per turn (expressions over who, dice, rolls, "
        "score, opponent, after, goal); the rules it explains when their condition holds"),
    "[gui] hidden, die_functions, scored_by, returns, remarks, factory_numbers": (
        "for games that differ: strategies never offered, die functions swapped for the page's, the "
        "function that scores a turn, what play returns, the submission's words per action, the "
        "numbers a factory takes"),
}


@dataclass(frozen=True)
class Plan:
    """The files a new edition starts with: {path: text}, and {path: what a link points to}."""

    name: str
    root: Path
    texts: dict[Path, str]
    links: dict[Path, str]


def check_name(name: str, root: Path) -> None:
    """Refuse NAME unless it is a new lower-case Python name with no folder of its own under ROOT yet."""
    if not EDITION_NAME.match(name):
        raise InputError(authoring_messages.new_edition_bad_name(name))
    if name in edition_names() or (root / EDITIONS / name / "edition.toml").is_file():
        raise InputError(authoring_messages.new_edition_exists(name))
    taken = [f"{top}/{name}" for top in ("tests/editions", "solution", "handouts", "skeleton")
             if (root / top / name).exists()]
    if taken:
        raise InputError(authoring_messages.new_edition_folder_taken(name, taken))


def parse_renames(pairs: list[str]) -> dict[str, str]:
    """``old=new`` pairs of Python names, as {old: new}; an :class:`InputError` for any other text."""
    renames: dict[str, str] = {}
    for pair in pairs:
        old, _, new = pair.partition("=")
        if not (old.isidentifier() and new.isidentifier()):
            raise InputError(authoring_messages.new_edition_bad_rename(pair))
        renames[old] = new
    return renames


def rename(text: str, renames: dict[str, str]) -> str:
    """TEXT with every whole-word OLD of RENAMES replaced by its NEW, all at once."""
    if not renames:
        return text
    words = re.compile(r"\b(" + "|".join(map(re.escape, sorted(renames, key=len, reverse=True))) + r")\b")
    return words.sub(lambda m: renames[m.group(1)], text)


def manifest_text(source: Edition, name: str, renames: dict[str, str]) -> str:
    """The new manifest: the key guide, then the starting edition's tables (its own header comment
    left out) with RENAMES and a TODO title."""
    lines = rename((source.suite_dir / "edition.toml").read_text(encoding="utf-8"), renames).splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip() and not line.startswith("#")), len(lines))
    body = lines[first:]
    tables = next((i for i, line in enumerate(body) if line.startswith("[")), len(body))
    for i, line in enumerate(body[:tables]):  # the edition's own title, not a problem's
        if re.match(r"title\s*=", line):
            body[i] = f'title = "{TODO}: the title students read for {name}"'
    guide = [f"# The manifest of the edition {name}, started from {source.name} (hogkit new-edition).",
             "# Every key, and what it means (docs/authoring.md has the whole guide):", "#"]
    guide += [f"#   {key}: {about}" for key, about in KEY_GUIDE.items()]
    return "\n".join(guide) + "\n#\n" + "\n".join(body).rstrip("\n") + "\n"


def plan(name: str, source: Edition, root: Path, renames: dict[str, str]) -> Plan:
    """What ``hogkit new-edition NAME --from SOURCE`` writes under ROOT; an :class:`InputError` when refused."""
    check_name(name, root)
    inside = source.root.resolve() == root.resolve()
    suite, texts, links = root / EDITIONS / name, {}, {}
    texts[suite / "edition.toml"] = manifest_text(source, name, renames)
    for path in sorted(source.suite_dir.glob("*.toml")):
        if path.name in LEFT_OUT or path.name == "edition.toml" or path.name.endswith(".generated.toml"):
            continue
        text = rename(path.read_text(encoding="utf-8"), renames)
        text = text if inside else _own_includes(text, path, suite, texts, renames)
        texts[suite / path.name] = (templated(text, path, source.name) if ".unlock." not in path.name
                                    else f"# {TODO}: check these questions against {name}'s rules, then "
                                         "delete this line.\n" + text)
    for path in sorted(source.solution_dir.iterdir()):
        target = root / "solution" / name / path.name
        if path.is_symlink() and inside:
            links[target] = str(path.readlink())
        elif path.is_file() and path.suffix == ".py":
            texts[target] = rename(path.read_text(encoding="utf-8"), renames)
    handout = source.handout_dir / "handout.md"
    if handout.is_file():
        texts[root / "handouts" / name / "handout.md"] = (
            f"{TODO}: rewrite this handout for {name}'s rules (it is the notebook's text too).\n\n"
            + rename(handout.read_text(encoding="utf-8"), renames))
    return Plan(name, root, texts, links)


def _own_includes(text: str, path: Path, suite: Path, texts: dict[Path, str], renames: dict[str, str]) -> str:
    """TEXT with each included file copied beside the new edition's (``from-EDITION-FILE``), so the
    course's folder holds it, and the include pointed at the copy."""
    def own(found: re.Match[str]) -> str:
        source = (path.parent / found["file"]).resolve()
        if not source.is_file():
            return found.group(0)
        copy = f"from-{source.parent.name}-{source.name}"
        texts[suite / copy] = rename(source.read_text(encoding="utf-8"), renames)
        return f'{found["head"]}"{copy}"'
    return INCLUDE_FILE.sub(own, text)


def templated(text: str, path: Path, source: str) -> str:
    """A copied case file whose cases became templates of one case each: the same inputs (and rule,
    advice, timeout and setup), their expected outputs left for the build to work out from the new
    reference. A case expecting a special answer (an error, say) or with a key no template takes (an
    ``id``, an ``about``) stays as written, as does TEXT when nothing changes."""
    data = parse_toml(text, path)
    plain = [c for c in data.get("case", []) if set(c) <= PLAIN_CASE and not _special(c["transcript"], path)]
    if not plain:
        return text
    kept = [c for c in data.get("case", []) if c not in plain]
    made = [{k: v for k, v in c.items() if k != "transcript"}
            | {"transcript": render_steps(parse_transcript(c["transcript"], str(path)), hide_expected=True) + "\n"}
            for c in plain]
    doc = {k: v for k, v in data.items() if k not in ("case", "generate")}
    doc |= {"case": kept} if kept else {}
    doc["generate"] = made + list(data.get("generate", []))
    header = (f"{path.stem.split('.')[0]}: cases started from {source}'s. Their inputs are kept; `hogkit build` "
              "works out what each displays from this edition's reference.\nWrite this term's worked "
              "examples as [[case]] tables with the outputs the rules give.")
    return tomlw.dumps(doc, header)


def _special(transcript: str, path: Path) -> bool:
    return any(s.expected in SPECIAL_ANSWERS for s in parse_transcript(transcript, str(path)))


def write(made: Plan) -> list[Path]:
    """Write every file of MADE (nothing exists there yet: :func:`plan` checked); the paths written."""
    for path, text in made.texts.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for path, target in made.links.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)
    return sorted([*made.texts, *made.links])
