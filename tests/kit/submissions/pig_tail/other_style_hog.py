"""A complete, correct hog.py for the Pig Tail edition written the way many students write it: for
loops, early returns, keyword arguments, helpers, a float square root and a perfect_square that
returns None rather than False, all different from the reference. It must earn every point.
"""

from dice import make_test_dice, six_sided  # noqa: F401 (cases use it through `from hog import *`)
from ucb import interact, main, trace  # noqa: F401

GOAL = 100


def roll_dice(num_rolls, dice=six_sided):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    outcomes = 0
    got_one = False
    for _ in range(num_rolls):
        value = dice()
        outcomes += value
        got_one = got_one or value == 1
    return 1 if got_one else outcomes


def tens_digit(n):
    return (n // 10) % 10


def ones_digit(n):
    return n % 10


def tail_points(opponent_score):
    return 2 * abs(tens_digit(opponent_score) - ones_digit(opponent_score)) + 1


def take_turn(num_rolls, opponent_score, dice=six_sided):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    if num_rolls:
        return roll_dice(num_rolls, dice=dice)
    else:
        return tail_points(opponent_score)


def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the total score of a player who starts their turn with
    PLAYER_SCORE and then rolls NUM_ROLLS DICE, ignoring Square Swine.
    """
    return player_score + take_turn(num_rolls, opponent_score, dice)


def square_update(num_rolls, player_score, opponent_score, dice=six_sided):
    score = player_score + take_turn(num_rolls, opponent_score, dice)
    if perfect_square(score):  # Implement perfect_square
        return next_perfect_square(score)  # Implement next_perfect_square
    else:
        return score


def perfect_square(score):
    root = int(score ** 0.5)
    if root * root == score:
        return True


def next_perfect_square(score):
    return (int(score ** 0.5) + 1) ** 2


def always_roll_5(score, opponent_score):
    return 5


def play(strategy0, strategy1, update,
         score0=0, score1=0, dice=six_sided, goal=GOAL):
    who = 0
    while max(score0, score1) < goal:
        if who == 0:
            rolls = strategy0(score0, score1)
            score0 = update(rolls, score0, score1, dice=dice)
        else:
            rolls = strategy1(score1, score0)
            score1 = update(rolls, score1, score0, dice=dice)
        who = 1 - who
    return score0, score1


def always_roll(n):
    assert n >= 0 and n <= 10
    return lambda score, opponent_score: n


def catch_up(score, opponent_score):
    if score < opponent_score:
        return 6
    else:
        return 5


def is_always_roll(strategy, goal=GOAL):
    choices = set()
    for score in range(goal):
        for opponent_score in range(goal):
            choices.add(strategy(score, opponent_score))
            if len(choices) > 1:
                return False
    return True


def make_averaged(original_function, total_samples=1000):
    def average(*args):
        return sum(original_function(*args) for _ in range(total_samples)) / total_samples
    return average


def max_scoring_num_rolls(dice=six_sided, total_samples=1000):
    averaged = make_averaged(roll_dice, total_samples)
    best = None
    for num_rolls in range(1, 11):
        score = averaged(num_rolls, dice)
        if best is None or score > best[0]:
            best = (score, num_rolls)
    return best[1]


def winner(strategy0, strategy1):
    score0, score1 = play(strategy0, strategy1, square_update)
    if score0 > score1:
        return 0
    else:
        return 1


def average_win_rate(strategy, baseline=always_roll(6)):
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)
    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def run_experiments():
    print('Max scoring num rolls for six-sided dice:', max_scoring_num_rolls(six_sided))


def tail_strategy(score, opponent_score, threshold=12, num_rolls=6):
    return 0 if tail_points(opponent_score) >= threshold else num_rolls


def square_strategy(score, opponent_score, threshold=12, num_rolls=6):
    if square_update(0, score, opponent_score) >= score + threshold:
        return 0
    return num_rolls


def final_strategy(score, opponent_score):
    """Roll 0 when it wins or gains a lot, otherwise 6."""
    if square_update(0, score, opponent_score) >= GOAL:
        return 0
    return square_strategy(score, opponent_score, 9, 6)


@main
def run(*args):
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true')
    args = parser.parse_args()
    if args.run_experiments:
        run_experiments()
