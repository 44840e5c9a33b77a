"""Dice for the game of Hog.

A die is a function that takes no arguments and returns a whole number
from 1 up to the number of its sides. Calling a die may give a different
number each time, so dice are not pure functions.

Fair dice give every side the same chance. Two of them are ready to use:
four_sided and six_sided, both made by make_fair_dice.

Test dice are predictable: they walk through a fixed list of outcomes and
start again from the first one when the list runs out. They are made by
make_test_dice and are what the tests use.
"""

from random import randint


def make_fair_dice(sides):
    """Return a die that gives each number from 1 to SIDES with equal chance."""
    assert type(sides) == int and sides >= 1, 'A die needs at least one side.'

    def dice():
        return randint(1, sides)
    return dice


four_sided = make_fair_dice(4)
six_sided = make_fair_dice(6)


def make_test_dice(*outcomes):
    """Return a die that gives OUTCOMES in order, over and over.

    >>> dice = make_test_dice(1, 2, 3)
    >>> dice()
    1
    >>> dice()
    2
    >>> dice()
    3
    >>> dice()
    1
    >>> dice()
    2

    This test die always gives 4:
    >>> always_four = make_test_dice(4)
    >>> always_four()
    4
    >>> always_four()
    4
    """
    assert len(outcomes) > 0, 'A test die needs at least one outcome.'
    for o in outcomes:
        assert type(o) == int and o >= 1, 'Each outcome must be a positive whole number.'
    index = len(outcomes) - 1

    def dice():
        nonlocal index
        index = (index + 1) % len(outcomes)
        return outcomes[index]
    return dice
