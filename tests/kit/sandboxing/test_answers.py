"""The store of the kit's answers worked out beforehand: what a child's stubs are handed, once per case."""

from __future__ import annotations

import pytest

from graders.sandboxing import answers

RECORDED = {
    'boar_brawl[21,46]': [9, []],  # a call of an offered function that reached none of the student's
    'take_turn[0,21,46]': [9, ["boar_brawl"]],  # it reached boar_brawl: the student's own, below
    'roll_dice[2]': [7, [], [3, 4]],  # a call that rolled dice
    'play[1]': [0, []],  # a function not offered
}


@pytest.fixture
def store(monkeypatch: pytest.MonkeyPatch) -> None:
    """A store of this test's own (the process's is shared by every grading thread)."""
    monkeypatch.setattr(answers, "_ANSWERS", {})
    monkeypatch.setattr(answers, "_FOR_STUBS", {})
    monkeypatch.setattr(answers, "_HANDED", [0])


def test_a_childs_stubs_are_handed_the_offered_calls_that_reached_none_of_its_own(store: None) -> None:
    key = ("kit", (), "hog", (0, 10), ("from hog import *", ("x",)))
    answers.keep(key, dict(RECORDED))
    offered, proxied = frozenset({"boar_brawl", "take_turn", "roll_dice"}), frozenset({"boar_brawl"})
    kept = answers.for_stubs(key, offered, proxied)
    assert kept == {'boar_brawl[21,46]': 9, 'roll_dice[2]': {"rolled": [3, 4], "value": 7}}
    assert answers.for_stubs(key, offered, proxied) is kept  # worked out once for every submission
    assert answers.for_stubs(key, offered, frozenset()) == {**kept, 'take_turn[0,21,46]': 9}


def test_what_stubs_are_handed_is_never_older_than_the_answers(store: None) -> None:
    key = ("kit", (), "hog", (0, 10), ("", ("y",)))
    offered = frozenset({"boar_brawl"})
    answers.keep(key, {'boar_brawl[1,2]': [1, []]})
    assert answers.for_stubs(key, offered, frozenset()) == {'boar_brawl[1,2]': 1}
    answers.keep(key, {'boar_brawl[1,2]': [2, []]})  # the case's answers worked out again
    assert answers._FOR_STUBS == {} and answers._HANDED == [0]  # what was handed of the old ones let go too
    assert answers.for_stubs(key, offered, frozenset()) == {'boar_brawl[1,2]': 2}
    assert answers._HANDED == [1]


def test_what_stubs_are_handed_is_bounded_by_the_stores_size(store: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers, "_MOST_RECORDED", 5)
    offered = frozenset({"f"})
    for k in range(4):
        key = ("kit", (), "hog", (0, 10), ("", (str(k),)))
        answers.keep(key, {f"f[{k},{n}]": [n, []] for n in range(2)})
        answers.for_stubs(key, offered, frozenset())
    assert answers._HANDED[0] <= 5 and len(answers._FOR_STUBS) == 2  # the oldest let go first
    assert [m[0][4][1] for m in answers._FOR_STUBS] == [("2",), ("3",)]
