"""The Game of Hog: Pig Tail and Square Swine."""

from dice import six_sided, make_test_dice
from ucb import main, trace, interact

GOAL = 100  # A game ends as soon as a player has at least this many points.

###############################
# Phase 1: Rules of the Game #
###############################


def roll_dice(num_rolls, dice=six_sided):
    """Roll DICE NUM_ROLLS times (NUM_ROLLS > 0) and return the points for the turn:
    the sum of all outcomes, or 1 if any outcome is a 1 (Sow Sad).

    num_rolls:  how many dice to roll.
    dice:       a function of no arguments that returns one outcome.
    """
    # These checks catch a wrong argument early; keep them.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    # BEGIN PROBLEM 1
    "*** YOUR CODE HERE ***"
    # END PROBLEM 1


def tail_points(opponent_score):
    """Return the points for rolling zero dice under Pig Tail: twice the
    distance between the tens digit and the ones digit of OPPONENT_SCORE,
    plus 1.

    opponent_score:  the other player's total score (any whole number from 0).
    """
    # BEGIN PROBLEM 2
    "*** YOUR CODE HERE ***"
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Return the points a player earns in one turn by rolling NUM_ROLLS dice
    against an opponent who has OPPONENT_SCORE points.

    num_rolls:       how many dice to roll (0 means Pig Tail).
    opponent_score:  the other player's total score.
    dice:            a function of no arguments that returns one outcome.
    """
    # These checks catch a wrong argument early; keep them.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    # BEGIN PROBLEM 3
    "*** YOUR CODE HERE ***"
    # END PROBLEM 3


def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the new total of a player who had PLAYER_SCORE points and rolled
    NUM_ROLLS dice, without the Square Swine rule.
    """
    return player_score + take_turn(num_rolls, opponent_score, dice)


def square_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the new total of a player who had PLAYER_SCORE points and rolled
    NUM_ROLLS dice, with the Square Swine rule applied to that total.
    """
    score = player_score + take_turn(num_rolls, opponent_score, dice)
    if perfect_square(score):  # perfect_square is yours to write (Problem 4)
        return next_perfect_square(score)  # and so is next_perfect_square
    else:
        return score


def perfect_square(score):
    """Return whether SCORE is a perfect square: the square d * d of some
    whole number d.
    """
    # BEGIN PROBLEM 4
    "*** YOUR CODE HERE ***"
    # END PROBLEM 4


def next_perfect_square(score):
    """Return the perfect square that comes right after SCORE, which is itself
    a perfect square: 16 for 9, say.
    """
    # BEGIN PROBLEM 4
    "*** YOUR CODE HERE ***"
    # END PROBLEM 4


def always_roll_5(score, opponent_score):
    """A strategy that rolls 5 dice every turn, whatever the scores are."""
    return 5


def play(strategy0, strategy1, update,
         score0=0, score1=0, dice=six_sided, goal=GOAL):
    """Play one game and return both final scores: Player 0's, then Player 1's.

    For example, play(always_roll_5, always_roll_5, square_update) plays a game
    where each player rolls 5 dice every turn, with Square Swine in force.

    A strategy, such as always_roll_5, is given the current player's score and
    then the opponent's score, and returns how many dice to roll this turn.

    An update function, such as simple_update or square_update, is given the
    number of dice, the mover's score, the other player's score and the dice,
    and returns the mover's score once the turn is over.

    strategy0: Player 0's strategy.
    strategy1: Player 1's strategy.
    update:    the update function both players use.
    score0:    Player 0's score at the start.
    score1:    Player 1's score at the start.
    dice:      a function of no arguments that returns one outcome.
    goal:      the game is over once a player has at least this many points.
    """
    who = 0  # The player about to take a turn: 0 (first) or 1 (second).
    # BEGIN PROBLEM 5
    "*** YOUR CODE HERE ***"
    # END PROBLEM 5
    return score0, score1


#######################
# Phase 2: Strategies #
#######################


def always_roll(n):
    """Return a strategy that rolls N dice every turn.

    A strategy takes two scores (the current player's, then the opponent's)
    and returns how many dice the current player rolls this turn.

    >>> strategy = always_roll(3)
    >>> strategy(0, 0)
    3
    >>> strategy(99, 99)
    3
    """
    assert n >= 0 and n <= 10
    # BEGIN PROBLEM 6
    "*** YOUR CODE HERE ***"
    # END PROBLEM 6


def catch_up(score, opponent_score):
    """A strategy that rolls 5 dice, or 6 when the player is behind.

    >>> catch_up(9, 4)
    5
    >>> catch_up(17, 18)
    6
    """
    if score < opponent_score:
        return 6  # One more die to try to catch up.
    else:
        return 5


def is_always_roll(strategy, goal=GOAL):
    """Return whether STRATEGY gives one and the same number of dice for all
    pairs of scores below GOAL.

    >>> is_always_roll(always_roll_5)
    True
    >>> is_always_roll(always_roll(3))
    True
    >>> is_always_roll(catch_up)
    False
    """
    # BEGIN PROBLEM 7
    "*** YOUR CODE HERE ***"
    # END PROBLEM 7


def make_averaged(original_function, total_samples=1000):
    """Return a function that calls ORIGINAL_FUNCTION TOTAL_SAMPLES times with
    the arguments it is given and returns the average of the results.

    It uses the *args syntax to accept any number of arguments.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(roll_dice, 40)
    >>> averaged_dice(1, dice)  # ten each of 4, 2, 5 and 1
    3.0
    """
    # BEGIN PROBLEM 8
    "*** YOUR CODE HERE ***"
    # END PROBLEM 8


def max_scoring_num_rolls(dice=six_sided, total_samples=1000):
    """Return the number of dice, from 1 to 10, with the highest average score
    for one turn. A tie goes to the smaller number of dice.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice)
    1
    """
    # BEGIN PROBLEM 9
    "*** YOUR CODE HERE ***"
    # END PROBLEM 9


def winner(strategy0, strategy1):
    """Return 0 if STRATEGY0 wins a game against STRATEGY1, and 1 otherwise."""
    score0, score1 = play(strategy0, strategy1, square_update)
    if score0 > score1:
        return 0
    else:
        return 1


def average_win_rate(strategy, baseline=always_roll(6)):
    """Return the share of games STRATEGY wins against BASELINE, averaged over
    playing first and playing second.
    """
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)

    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def run_experiments():
    """Run some experiments with strategies and print what they find."""
    six_sided_max = max_scoring_num_rolls(six_sided)
    print('Max scoring num rolls for six-sided dice:', six_sided_max)

    print('always_roll(6) win rate:', average_win_rate(always_roll(6)))  # about 0.5
    print('catch_up win rate:', average_win_rate(catch_up))
    print('always_roll(3) win rate:', average_win_rate(always_roll(3)))
    print('always_roll(8) win rate:', average_win_rate(always_roll(8)))

    print('tail_strategy win rate:', average_win_rate(tail_strategy))
    print('square_strategy win rate:', average_win_rate(square_strategy))
    print('final_strategy win rate:', average_win_rate(final_strategy))
    "*** You may add more experiments here ***"


def tail_strategy(score, opponent_score, threshold=12, num_rolls=6):
    """Choose 0 dice when Pig Tail on OPPONENT_SCORE is worth THRESHOLD points
    or more; otherwise NUM_ROLLS. Neither SCORE nor Square Swine plays a part.
    """
    # BEGIN PROBLEM 10
    return num_rolls  # Remove this line once implemented.
    # END PROBLEM 10


def square_strategy(score, opponent_score, threshold=12, num_rolls=6):
    """Roll 0 dice when doing so would raise the score by at least THRESHOLD
    points once every rule (Square Swine included) applies, and NUM_ROLLS
    otherwise.
    """
    # BEGIN PROBLEM 11
    return num_rolls  # Remove this line once implemented.
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Describe your final strategy here in a few sentences.

    *** YOUR DESCRIPTION HERE ***
    """
    # BEGIN PROBLEM 12
    return 6  # Remove this line once implemented.
    # END PROBLEM 12


##########################
# Command Line Interface #
##########################

# The function below reads the command line. It uses parts of Python the
# course has not covered yet, and it does not need to change.


@main
def run(*args):
    """Read the command-line arguments and run what they ask for."""
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true',
                        help='Runs strategy experiments')

    args = parser.parse_args()

    if args.run_experiments:
        run_experiments()
