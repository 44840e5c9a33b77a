"""Dice for the game of Pig.

A die is a function with no arguments that returns a whole number from 1 up
to its number of sides. Each call may give a different number, so a die is
not a pure function.

Fair dice give each side the same chance. Pig uses two of them, ready made:
four_sided and six_sided.

Test dice are predictable: make_test_die(4, 6, 1) gives 4, then 6, then 1,
and then starts again from 4. Tests use them to know every outcome in
advance. make_test_dice is the same function under a second name.
"""

from random import randint


def make_fair_die(sides=6):
    """Return a die that gives each number from 1 to SIDES with equal chance."""
    assert type(sides) == int and sides >= 1, 'A die needs at least one side.'

    def die():
        return randint(1, sides)
    return die


four_sided = make_fair_die(4)
six_sided = make_fair_die(6)


def make_test_die(*outcomes):
    """Return a die that gives OUTCOMES in order, over and over.

    >>> die = make_test_die(4, 6, 1)
    >>> die()
    4
    >>> die()
    6
    >>> die()
    1
    >>> die()
    4

    A test die with one outcome always gives it:
    >>> always_three = make_test_die(3)
    >>> always_three(), always_three()
    (3, 3)
    """
    assert len(outcomes) > 0, 'A test die needs at least one outcome.'
    for outcome in outcomes:
        assert type(outcome) == int and outcome >= 1, 'Each outcome must be a positive whole number.'
    index = len(outcomes) - 1

    def die():
        nonlocal index
        index = (index + 1) % len(outcomes)
        return outcomes[index]
    return die


make_test_dice = make_test_die
