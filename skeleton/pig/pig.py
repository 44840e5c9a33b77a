"""The Game of Pig: a simulator, a commentator and strategies.

Two players take turns until one of them has at least goal points. A turn is
a series of actions, each one either roll or hold, and the die is called once
for every action. Rolling a 1 ends the turn with 1 point; any other outcome is
added to the turn total. Holding ends the turn and scores the turn total.
The die has 4 sides when the two scores add up to a multiple of 7 (0 included),
and 6 sides otherwise.

A tactic plans one turn: given the turn total, it returns an action (roll or
hold). A strategy plans a whole game: given both scores, the player's own
first, it returns the tactic for this turn.
"""

from dice import four_sided, six_sided, make_test_die
from ucb import main, trace, log_current_line, interact

goal = 100  # The game ends once a player has at least this many points.

######################
# Phase 1: Simulator #
######################


def roll(turn_total, outcome):
    """Roll the die: what an OUTCOME does to a turn with TURN_TOTAL points so far.

    Returns three values, in this order:
    - the points scored by the action: 1 when OUTCOME is 1 (the turn ends),
      and 0 otherwise (points count only once a turn is over);
    - the new turn total: 0 when OUTCOME is 1, TURN_TOTAL + OUTCOME otherwise;
    - whether the turn is over: True only when OUTCOME is 1.

    >>> roll(7, 3)
    (0, 10, False)
    >>> roll(99, 1)
    (1, 0, True)
    """
    # BEGIN PROBLEM 1
    "*** YOUR CODE HERE ***"
    # END PROBLEM 1


def hold(turn_total, outcome):
    """Hold: end the turn and score its TURN_TOTAL points.

    OUTCOME is not used; it is there so that hold is called just as roll is.
    Returns the same three values as roll: the points scored (TURN_TOTAL), the
    new turn total (always 0) and whether the turn is over (always True).

    >>> hold(99, 1)
    (99, 0, True)
    """
    # BEGIN PROBLEM 1
    "*** YOUR CODE HERE ***"
    # END PROBLEM 1


def take_turn(plan, dice=six_sided, who=None, comments=False):
    """Play one turn and return the points it scores.

    plan:     a tactic: given the turn total so far, it returns roll or hold.
    dice:     a function of no arguments that returns one outcome. It is
              called exactly once for every action, hold included.
    who:      the player's name, for the commentary (None: "Someone").
    comments: whether to call commentate after every action.
    """
    score_for_turn = 0  # The points scored by the whole turn.
    # BEGIN PROBLEM 2
    "*** YOUR CODE HERE ***"
    # END PROBLEM 2
    # Problem 4 calls commentate after every action, inside the loop of Problem 2.
    # BEGIN PROBLEM 4
    "*** YOUR CODE HERE ***"
    # END PROBLEM 4
    return score_for_turn


def take_turn_test():
    """Check take_turn with test dice, whose outcomes are known in advance.

    Each check is an assert statement: it does nothing when take_turn is
    right, and stops with an AssertionError, showing its message, when not.
    """
    def tactic(turn_total):
        """The default tactic: roll until the turn total is at least 10."""
        if turn_total < 10:
            return roll
        return hold
    # BEGIN PROBLEM 3
    print('Turn score:', take_turn(tactic))  # Not a test yet: the die is random.
    # END PROBLEM 3


##############
# Commentary #
##############


def commentate(action, outcome, score_for_turn, turn_total, over, who):
    """Print what one action did: the die, the action, and then the turn total,
    or the score once the turn is over.

    action:         the action the player chose, roll or hold.
    outcome:        what the die showed.
    score_for_turn: the points the turn scored (0 until the turn is over).
    turn_total:     the turn total after the action.
    over:           whether the action ended the turn.
    who:            the player's name, or None for "Someone".
    """
    if who is None:
        who = 'Someone'
    print(draw_number(outcome))
    print(who, describe_action(action))
    if over:
        print(who, 'scored', score_for_turn, 'points on this turn.')
    else:
        print(who, 'now has a turn total of', turn_total, 'points.')


def describe_action(action):
    """Return a sentence, without the player's name, that says which ACTION
    was taken. Any function other than roll and hold is announced as illegal.

    >>> describe_action(roll)
    'chose to roll.'
    >>> describe_action(hold)
    'decided to hold.'
    >>> describe_action(commentate)
    'took an illegal action!'
    """
    # BEGIN PROBLEM 5
    return 'did something...'
    # END PROBLEM 5


def draw_number(n, dot='*'):
    """Return a picture of a die showing N (1 to 6) in text, its dots drawn
    with DOT.

    >>> print(draw_number(5))
     -------
    | *   * |
    |   *   |
    | *   * |
     -------
    """
    # BEGIN PROBLEM 6
    return str(n)
    # END PROBLEM 6


def draw_die(c, f, b, s, dot):
    """Return a picture of a die in text, with a dot in each place whose
    argument is true:

     -------
    | b   f |
    | s c s |
    | f   b |
     -------

    c: the centre;  f: the top right and bottom left corners;
    b: the top left and bottom right corners;  s: the middle of both sides.
    dot: the one-character string each dot is drawn with.

    A 2 or a 3 can be drawn either way round (along f or along b).
    This function uses parts of Python the course has not covered yet: use it
    without looking inside, from what this docstring says.
    """
    border = ' -------'

    def draw(filled):
        return dot if filled else ' '
    c, f, b, s = map(draw, [c, f, b, s])
    top = ' '.join(['|', b, ' ', f, '|'])
    middle = ' '.join(['|', s, c, s, '|'])
    bottom = ' '.join(['|', f, ' ', b, '|'])
    return '\n'.join([border, top, middle, bottom, border])


##################
# Game simulator #
##################


def make_roll_until_strategy(turn_goal):
    """Return a strategy that, whatever the scores, gives a tactic that rolls
    until the turn total is at least TURN_GOAL, and then holds.

    >>> strategy = make_roll_until_strategy(15)
    >>> tactic = strategy(0, 0)
    >>> tactic(14) == roll
    True
    >>> tactic(15) == hold
    True
    """
    # BEGIN PROBLEM 7
    "*** YOUR CODE HERE ***"
    # END PROBLEM 7


def play(strategy, opponent_strategy):
    """Play one game and return the winner: 0 for the first player, 1 for the second.

    strategy:          the first player's strategy (the first player starts).
    opponent_strategy: the second player's strategy.

    Each turn, the player's strategy is called once, with the player's score
    and then the opponent's, and its tactic plays the turn. The die for the
    turn is four_sided when the two scores add up to a multiple of 7 (0
    included), and six_sided otherwise.
    """
    who = 0  # The player about to take a turn: 0 (first) or 1 (second).
    # BEGIN PROBLEM 8
    "*** YOUR CODE HERE ***"
    # END PROBLEM 8
    return who


def interactive_strategy(score, opponent_score):
    """A strategy for a person at the keyboard: it shows the scores and returns
    a tactic that asks, before each action, whether to roll or hold.
    """
    print('Your score:', score, '  Opponent:', opponent_score)

    def tactic(turn_total):
        print('Turn total:', turn_total)
        while True:
            try:
                answer = input('Roll or hold? ').strip().lower()
            except EOFError:
                print('No more input: holding.')
                return hold
            if answer in ('roll', 'r'):
                return roll
            if answer in ('hold', 'h'):
                return hold
            print('Please type roll or hold.')
    return tactic


#######################
# Phase 2: Strategies #
#######################


def make_average(fn, num_samples=1000):
    """Return a function that calls FN NUM_SAMPLES times with the arguments it
    is given, and returns the average of the results.

    It takes any number of arguments with the *args syntax.

    >>> die = make_test_die(3, 1, 5, 6)
    >>> average_die = make_average(die, 100)
    >>> average_die()  # 25 each of 3, 1, 5 and 6
    3.75
    """
    # BEGIN PROBLEM 9
    "*** YOUR CODE HERE ***"
    # END PROBLEM 9


def compare_strategies(strategy, baseline=None):
    """Return the share of games STRATEGY wins against BASELINE (by default
    make_roll_until_strategy(20)), averaged over playing first and second.
    Each share is make_average's sample of games, so it varies a little
    from run to run.
    """
    if baseline is None:
        baseline = make_roll_until_strategy(20)
    as_first = 1 - make_average(play)(strategy, baseline)
    as_second = make_average(play)(baseline, strategy)
    return (as_first + as_second) / 2


def eval_strategy_range(make_strategy, lower_bound, upper_bound):
    """Return the whole number from LOWER_BOUND to UPPER_BOUND (both included)
    that, given to MAKE_STRATEGY, makes the strategy with the best win rate
    against the baseline, printing each win rate on the way.

    make_strategy: a function of one argument that returns a strategy.
    """
    best_value, best_win_rate = 0, 0
    value = lower_bound
    while value <= upper_bound:
        win_rate = compare_strategies(make_strategy(value))
        print(value, 'win rate against the baseline:', win_rate)
        if win_rate > best_win_rate:
            best_value, best_win_rate = value, win_rate
        value += 1
    return best_value


def make_die_specific_strategy(four_side_goal, six_side_goal=20):
    """Return a strategy that rolls until FOUR_SIDE_GOAL on a turn played with
    the 4-sided die (the scores add up to a multiple of 7), and until
    SIX_SIDE_GOAL on a turn played with the 6-sided die.

    >>> strategy = make_die_specific_strategy(8)
    >>> strategy(3, 4)(8) == hold  # 3 + 4 is 7: the 4-sided die
    True
    >>> strategy(3, 5)(8) == roll  # the 6-sided die: roll until 20
    True
    """
    # BEGIN PROBLEM 11
    "*** YOUR CODE HERE ***"
    # END PROBLEM 11


def make_pride_strategy(margin, turn_goal=20):
    """Return a strategy whose tactic holds only when the turn total has
    reached TURN_GOAL and holding would put the player at least MARGIN points
    ahead of the opponent; otherwise it rolls.

    >>> strategy = make_pride_strategy(5)
    >>> strategy(30, 48)(20) == roll  # 30 + 20 is only 2 ahead of 48
    True
    >>> strategy(30, 40)(15) == roll  # 15 is below the turn goal of 20
    True
    >>> strategy(30, 45)(20) == hold  # 30 + 20 is 5 ahead of 45
    True
    """
    # BEGIN PROBLEM 12
    "*** YOUR CODE HERE ***"
    # END PROBLEM 12


def run_strategy_experiments():
    """Run the strategy experiments and print what each one finds."""
    # BEGIN PROBLEM 10
    "*** YOUR CODE HERE ***"
    # END PROBLEM 10
    # BEGIN PROBLEM 11
    "*** YOUR CODE HERE ***"
    # END PROBLEM 11
    # BEGIN PROBLEM 12
    "*** YOUR CODE HERE ***"
    # END PROBLEM 12


def final_strategy(score, opponent_score):
    """A strategy that wins at least 60% of games against
    make_roll_until_strategy(20), averaged over playing first and second.
    Describe your strategy here in a few sentences.

    *** YOUR DESCRIPTION HERE ***
    """
    # BEGIN PROBLEM 13
    "*** YOUR CODE HERE ***"
    # END PROBLEM 13


def final_strategy_test():
    """Print final_strategy's win rate against make_roll_until_strategy(20)."""
    print('-- Testing final_strategy --')
    print('Win rate:', compare_strategies(final_strategy))


##########################
# Command Line Interface #
##########################

# The function below reads the command line. It uses parts of Python the
# course has not covered yet, and it does not need to change.


@main
def run(*args):
    """Read the command-line options and run what they ask for."""
    import argparse
    parser = argparse.ArgumentParser(description='Play Pig')
    parser.add_argument('--take_turn_test', '-t', action='store_true',
                        help='run take_turn_test')
    parser.add_argument('--play', action='store_true',
                        help='play a game against make_roll_until_strategy(20)')
    parser.add_argument('--run_strat_exps', action='store_true',
                        help='run the strategy experiments')
    parser.add_argument('--final_strat_test', action='store_true',
                        help="print final_strategy's win rate against the baseline")
    args = parser.parse_args()

    if args.take_turn_test:
        take_turn_test()
    if args.play:
        if play(interactive_strategy, make_roll_until_strategy(20)) == 0:
            print('You won!')
        else:
            print('make_roll_until_strategy(20) won.')
    if args.run_strat_exps:
        run_strategy_experiments()
    if args.final_strat_test:
        final_strategy_test()
