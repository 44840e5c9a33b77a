"""What student code must print follows the seed handout character for character.

Each edition lists, in ``tests/editions/<edition>/seed.toml``, the lines its seed quotes that student code
prints (commentary, announcements). Every such line must be the expected output of some case of
the edition, word for word; the cases' expectations are checked against the reference elsewhere,
so the reference prints each line too. Where the seeds themselves are at hand (beside the project
in ``shared/seeds``, or a new term's rules card in ``shared/new-term``), each listed line must also
appear in its seed, so nothing is reworded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.editions.cases import load_problem_cases
from graders.editions.edition import Edition, read_toml

SHARED = Path(__file__).resolve().parents[4] / "shared"
SEEDS = SHARED / "seeds"
PLACES = (SEEDS, SHARED / "new-term")  # the seed handouts, then the rules cards of new terms


def listed(edition: Edition) -> dict:
    path = edition.suite_dir / "seed.toml"
    assert path.is_file(), f"{path}: every edition names its seed and the lines student code must print"
    return read_toml(path)


def expected_lines(edition: Edition) -> set[str]:
    lines: set[str] = set()
    for problem in edition.problems:
        for case in load_problem_cases(edition, problem.label):
            for step in case.steps:
                lines.update((step.expected or "").split("\n"))
    return lines


def test_every_line_the_seed_quotes_is_expected_word_for_word(any_edition):
    data = listed(any_edition)
    missing = [line for line in data["outputs"] if line not in expected_lines(any_edition)]
    assert missing == [], f"{any_edition.name}: no case expects these seed lines"


def test_the_listed_lines_are_the_seeds_own(any_edition):
    data = listed(any_edition)
    seed = next((place / data["seed"] for place in PLACES if (place / data["seed"]).is_file()), None)
    if seed is None:
        pytest.skip(f"the seed handouts are not beside this checkout ({SEEDS})")
    text = seed.read_text(encoding="utf-8")
    assert [line for line in data["outputs"] if line not in text] == []
