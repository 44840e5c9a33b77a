"""The Game of Hog, Fall 2021, as a course's student writes it in the course's own starter: the
commentary call inside play's loop in Problem 05's block and Problem 06's block left as given,
picky_piggy by arithmetic on 10 ** score, max_scoring_num_rolls with a for loop (allowed there)."""

from dice import six_sided, four_sided, make_test_dice
from ucb import main, trace, interact

GOAL_SCORE = 100  # A game ends as soon as a player has at least this many points.

######################
# Phase 1: Simulator #
######################


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
    count, total, pig_out = 0, 0, False
    while count < num_rolls:
        roll = dice()
        if roll == 1:
            pig_out = True
        total += roll
        count += 1
    if pig_out:
        return 1
    return total
    # END PROBLEM 1


def picky_piggy(score):
    """Return the points for rolling zero dice under Picky Piggy: digit number
    SCORE after the decimal point of 1/7 = 0.142857142857..., counting from 1,
    or 7 when SCORE is 0.

    score:  the opponent's current score.

    >>> picky_piggy(0)
    7
    >>> picky_piggy(3)
    2
    >>> picky_piggy(10)
    8
    """
    # BEGIN PROBLEM 2
    if score == 0:
        return 7
    return pow(10, score) // 7 % 10
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Return the points scored in one turn by rolling NUM_ROLLS dice (0 means
    Picky Piggy) against an opponent who has OPPONENT_SCORE points.

    num_rolls:       how many dice to roll, from 0 to 10.
    opponent_score:  the other player's total score.
    dice:            a function of no arguments that returns one outcome.
    goal:            the score that ends the game.
    """
    # These checks catch a wrong argument early; keep them.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < goal, 'The game should be over.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return picky_piggy(opponent_score)
    else:
        return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def hog_pile(player_score, opponent_score):
    """Return the bonus Hog Pile gives the player who just moved: their own
    score when the two scores are the same, and 0 when they differ.

    player_score:    the score of the player who just moved, turn included.
    opponent_score:  the other player's score.

    >>> hog_pile(31, 31)
    31
    >>> hog_pile(33, 30)
    0
    """
    # BEGIN PROBLEM 4
    if player_score == opponent_score:
        return player_score
    return 0
    # END PROBLEM 4


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1.

    >>> next_player(0)
    1
    >>> next_player(1)
    0
    """
    return 1 - who


def silence(score0, score1):
    """A commentary function that says nothing."""
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    """Play one game and return both final scores: Player 0's, then Player 1's.

    A strategy is given the current player's score and then the opponent's
    score, and returns how many dice to roll this turn. The players take turns,
    and after each turn Hog Pile may double the score of the player who moved.

    strategy0:  Player 0's strategy.
    strategy1:  Player 1's strategy.
    score0:     Player 0's score at the start.
    score1:     Player 1's score at the start.
    dice:       a function of no arguments that returns one outcome.
    goal:       the game is over once a player has at least this many points.
    say:        the commentary function to call at the end of the first turn.
    """
    who = 0  # The player about to take a turn: 0 (first) or 1 (second).
    # BEGIN PROBLEM 5
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
            score0 += hog_pile(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            score1 += hog_pile(score1, score0)
        who = next_player(who)
        say = say(score0, score1)
    # END PROBLEM 5
    # Problem 6 calls the commentary at the end of every turn, inside the loop of Problem 5.
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


def announce_lead_changes(last_leader=None):
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
        if leader != None and leader != last_leader:
            print('Player', leader, 'takes the lead by', abs(score0 - score1))
        return announce_lead_changes(leader)
    return say


def both(f, g):
    """Return a commentary function that says what F says, then what G says.

    >>> h0 = both(say_scores, announce_lead_changes())
    >>> h1 = h0(10, 0)
    Player 0 now has 10 and Player 1 now has 0
    Player 0 takes the lead by 10
    >>> h2 = h1(10, 8)
    Player 0 now has 10 and Player 1 now has 8
    >>> h3 = h2(10, 17)
    Player 0 now has 10 and Player 1 now has 17
    Player 1 takes the lead by 7
    """
    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say


def announce_highest(who, last_score=0, running_high=0):
    """Return a commentary function that announces when player WHO gains more
    points in one turn than in any turn before.

    >>> f0 = announce_highest(0)  # only Player 0 is watched
    >>> f1 = f0(8, 0)
    8 point(s)! That's a record gain for Player 0!
    >>> f2 = f1(8, 5)
    >>> f3 = f2(12, 5)
    >>> f4 = f3(25, 9)
    13 point(s)! That's a record gain for Player 0!
    >>> f5 = f4(36, 9)  # 11 points: fewer than 13, so no record
    >>> f6 = f5(60, 30)
    24 point(s)! That's a record gain for Player 0!
    """
    assert who == 0 or who == 1, 'The who argument should indicate a player.'
    # BEGIN PROBLEM 7
    def say(score0, score1):
        if who == 0:
            gain = score0 - last_score
            new_score = score0
        else:
            gain = score1 - last_score
            new_score = score1
        if gain > running_high:
            print(f"{gain} point(s)! That's a record gain for Player {who}!")
            return announce_highest(who, new_score, gain)
        return announce_highest(who, new_score, running_high)
    return say
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


def make_averaged(original_function, trials_count=1000):
    """Return a function that calls ORIGINAL_FUNCTION TRIALS_COUNT times with
    the arguments it is given and returns the average of the results.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(roll_dice, 1000)
    >>> averaged_dice(1, dice)
    3.0
    """
    # BEGIN PROBLEM 8
    def average(*args):
        total, i = 0, 0
        while i < trials_count:
            total += original_function(*args)
            i += 1
        return total / trials_count
    return average
    # END PROBLEM 8


def max_scoring_num_rolls(dice=six_sided, trials_count=1000):
    """Return the number of dice, from 1 to 10, with the highest average score
    for one turn. A tie goes to the smaller number of dice.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice)
    1
    """
    # BEGIN PROBLEM 9
    best, best_avg = 0, 0
    for n in range(1, 11):
        avg = make_averaged(roll_dice, trials_count)(n, dice)
        if avg > best_avg:
            best, best_avg = n, avg
    return best
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
    six_sided_max = max_scoring_num_rolls(six_sided)
    print('Max scoring num rolls for six-sided dice:', six_sided_max)
    print('always_roll(6) win rate:', average_win_rate(always_roll(6)))

    # print('always_roll(8) win rate:', average_win_rate(always_roll(8)))
    # print('picky_piggy_strategy win rate:', average_win_rate(picky_piggy_strategy))
    print('hog_pile_strategy win rate:', average_win_rate(hog_pile_strategy))
    # print('final_strategy win rate:', average_win_rate(final_strategy))
    "*** You may add more experiments here ***"


def picky_piggy_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when Picky Piggy would give at least CUTOFF points, and
    NUM_ROLLS dice otherwise.
    """
    # BEGIN PROBLEM 10
    return 0 if picky_piggy(opponent_score) >= cutoff else num_rolls
    # END PROBLEM 10


def hog_pile_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when Picky Piggy would bring the player's score level with
    the opponent's, so that Hog Pile doubles it; otherwise roll 0 when Picky
    Piggy gives at least CUTOFF points, and NUM_ROLLS dice when it does not.
    """
    # BEGIN PROBLEM 11
    if score + picky_piggy(opponent_score) == opponent_score:
        return 0
    return picky_piggy_strategy(score, opponent_score, cutoff, num_rolls)
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
