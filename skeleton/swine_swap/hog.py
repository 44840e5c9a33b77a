"""The Game of Hog: Free Bacon, Feral Hogs and Swine Swap, with commentary."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact

GOAL_SCORE = 100  # A game ends as soon as a player has at least this many points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    """Roll DICE NUM_ROLLS times (NUM_ROLLS > 0) and return the points for the turn:
    the sum of all outcomes, or 1 if any outcome is a 1 (Pig Out).

    num_rolls:  how many dice to roll.
    dice:       a function of no arguments that returns one outcome.
    """
    # These checks catch a wrong argument early; keep them.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    # BEGIN PROBLEM 1
    "*** YOUR CODE HERE ***"
    # END PROBLEM 1


def free_bacon(score):
    """Return the points for rolling zero dice under Free Bacon: one more than
    the absolute value of the alternating sum of the digits of SCORE cubed
    (SCORE is the opponent's score, below 100).

    score:  the opponent's current score.
    """
    assert score < 100, 'The game should be over.'
    # BEGIN PROBLEM 2
    "*** YOUR CODE HERE ***"
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Return the points scored in one turn by rolling NUM_ROLLS dice (0 means
    Free Bacon) against an opponent who has OPPONENT_SCORE points.

    num_rolls:       how many dice to roll, from 0 to 10.
    opponent_score:  the other player's total score.
    dice:            a function of no arguments that returns one outcome.
    """
    # These checks catch a wrong argument early; keep them.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < 100, 'The game should be over.'
    # BEGIN PROBLEM 3
    "*** YOUR CODE HERE ***"
    # END PROBLEM 3


def is_swap(player_score, opponent_score):
    """Return whether the two scores swap under Swine Swap: the first and the
    last digit of 3 to the power of their sum are the same.

    >>> is_swap(2, 4)
    False
    >>> is_swap(1, 0)
    True
    """
    # BEGIN PROBLEM 4
    "*** YOUR CODE HERE ***"
    # END PROBLEM 4


def other(who):
    """Return the other player, for a player WHO numbered 0 or 1.

    >>> other(0)
    1
    >>> other(1)
    0
    """
    return 1 - who


def silence(score0, score1):
    """A commentary function that says nothing."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence, feral_hogs=True):
    """Play one game and return both final scores: Player 0's, then Player 1's.

    A strategy is given the current player's score and then the opponent's
    score, and returns how many dice to roll this turn.

    strategy0:   Player 0's strategy.
    strategy1:   Player 1's strategy.
    score0:      Player 0's score at the start.
    score1:      Player 1's score at the start.
    dice:        a function of no arguments that returns one outcome.
    goal:        the game is over once a player has at least this many points.
    say:         the commentary function to call at the end of the first turn.
    feral_hogs:  whether the Feral Hogs rule is played.
    """
    who = 0  # The player about to take a turn: 0 (first) or 1 (second).
    # BEGIN PROBLEM 5a
    "*** YOUR CODE HERE ***"
    # END PROBLEM 5a
    # Problem 5b adds Feral Hogs and Problem 6 calls the commentary, both inside the loop of
    # Problem 5a.
    # BEGIN PROBLEM 5b
    "*** YOUR CODE HERE ***"
    # END PROBLEM 5b
    # BEGIN PROBLEM 6
    "*** YOUR CODE HERE ***"
    # END PROBLEM 6
    return score0, score1


#######################
# Phase 2: Commentary #
#######################


def say_scores(score0, score1):
    """A commentary function that announces both scores."""
    print("Player 0 now has", score0, "and Player 1 now has", score1)
    return say_scores


def announce_lead_changes(prev_leader=None):
    """Return a commentary function that announces whenever the lead changes hands.

    >>> f0 = announce_lead_changes()
    >>> f1 = f0(5, 0)
    Player 0 takes the lead by 5
    >>> f2 = f1(5, 12)
    Player 1 takes the lead by 7
    >>> f3 = f2(8, 12)
    >>> f4 = f3(8, 13)
    >>> f5 = f4(15, 13)
    Player 0 takes the lead by 2
    """
    def say(score0, score1):
        if score0 > score1:
            leader = 0
        elif score1 > score0:
            leader = 1
        else:
            leader = None
        if leader != None and leader != prev_leader:
            print('Player', leader, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(leader)
    return say


def both(f, g):
    """Return a commentary function that says what F says, then what G says.

    The scores below are not a game the rules allow; commentary does not
    check the rules.

    >>> h0 = both(say_scores, announce_lead_changes())
    >>> h1 = h0(10, 0)
    Player 0 now has 10 and Player 1 now has 0
    Player 0 takes the lead by 10
    >>> h2 = h1(10, 6)
    Player 0 now has 10 and Player 1 now has 6
    >>> h3 = h2(6, 17)
    Player 0 now has 6 and Player 1 now has 17
    Player 1 takes the lead by 11
    """
    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say


def announce_highest(who, previous_high=0, previous_score=0):
    """Return a commentary function that announces when player WHO gains more
    points in one turn than in any turn before. A gain is the difference
    between WHO's score now and after the turn before, so a swap can make it
    negative or large.

    >>> f0 = announce_highest(1)  # only Player 1 is watched
    >>> f1 = f0(12, 0)
    >>> f2 = f1(12, 9)
    9 point(s)! That's the biggest gain yet for Player 1
    >>> f3 = f2(20, 9)
    >>> f4 = f3(20, 30)
    21 point(s)! That's the biggest gain yet for Player 1
    >>> f5 = f4(20, 47)  # Player 1 gains 17 points: not a new high
    >>> f6 = f5(47, 20)  # the scores swap: a loss of 27
    >>> f7 = f6(47, 44)
    24 point(s)! That's the biggest gain yet for Player 1
    """
    assert who == 0 or who == 1, 'The who argument should indicate a player.'
    # BEGIN PROBLEM 7
    "*** YOUR CODE HERE ***"
    # END PROBLEM 7


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    """Return a strategy that rolls N dice every turn.

    >>> strategy = always_roll(5)
    >>> strategy(0, 0)
    5
    >>> strategy(99, 99)
    5
    """
    def strategy(score, opponent_score):
        return n
    return strategy


def make_averaged(g, num_samples=1000):
    """Return a function that calls G NUM_SAMPLES times with the arguments it
    is given and returns the average of the results.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(dice, 1000)
    >>> averaged_dice()
    3.0
    """
    # BEGIN PROBLEM 8
    "*** YOUR CODE HERE ***"
    # END PROBLEM 8


def max_scoring_num_rolls(dice=six_sided, num_samples=1000):
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
    score0, score1 = play(strategy0, strategy1)
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
    if True:  # Change to False when done finding max_scoring_num_rolls
        six_sided_max = max_scoring_num_rolls(six_sided)
        print('Max scoring num rolls for six-sided dice:', six_sided_max)

    if False:  # Change to True to test always_roll(8)
        print('always_roll(8) win rate:', average_win_rate(always_roll(8)))

    if False:  # Change to True to test bacon_strategy
        print('bacon_strategy win rate:', average_win_rate(bacon_strategy))

    if False:  # Change to True to test swap_strategy
        print('swap_strategy win rate:', average_win_rate(swap_strategy))

    if False:  # Change to True to test final_strategy
        print('final_strategy win rate:', average_win_rate(final_strategy))

    "*** You may add more experiments as you wish ***"


def bacon_strategy(score, opponent_score, margin=8, num_rolls=6):
    """Roll 0 dice when Free Bacon would give at least MARGIN points, and
    NUM_ROLLS dice otherwise.
    """
    # BEGIN PROBLEM 10
    return 6  # Remove this line once implemented.
    # END PROBLEM 10


def swap_strategy(score, opponent_score, margin=8, num_rolls=6):
    """Roll 0 dice when that triggers a swap that helps; never roll 0 when
    that triggers a swap that hurts; otherwise roll 0 when Free Bacon gives at
    least MARGIN points, and NUM_ROLLS dice when it does not.
    """
    # BEGIN PROBLEM 11
    return 6  # Remove this line once implemented.
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
