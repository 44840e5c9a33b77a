"""max_scoring_num_rolls averages with its own loop instead of make_averaged: advice, no points lost."""

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


def boar_brawl(player_score, opponent_score):
    points = 3 * abs(tens_digit(opponent_score) - ones_digit(player_score))
    if points < 1:
        return 1
    return points


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    if num_rolls:
        return roll_dice(num_rolls, dice=dice)
    else:
        return boar_brawl(player_score, opponent_score)


def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
    score = player_score + take_turn(num_rolls, player_score, opponent_score, dice)
    return score


def is_prime(n):
    if n == 1:
        return False
    k = 2
    while k < n:
        if n % k == 0:
            return False
        k += 1
    return True


def num_factors(n):
    total = 0
    for i in range(1, n + 1):
        if n % i == 0:
            total = total + 1
    return total


def sus_points(score):
    if num_factors(score) not in (3, 4):
        return score
    score = score + 1
    while not is_prime(score):
        score = score + 1
    return score


def sus_update(num_rolls, player_score, opponent_score, dice=six_sided):
    return sus_points(player_score + take_turn(num_rolls, player_score, opponent_score, dice=dice))


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


def make_averaged(original_function, samples_count=1000):
    def average(*args):
        return sum(original_function(*args) for _ in range(samples_count)) / samples_count
    return average


def max_scoring_num_rolls(dice=six_sided, samples_count=1000):
    best, best_average = 1, 0
    for num_rolls in range(1, 11):
        total = 0
        for _ in range(samples_count):
            total += roll_dice(num_rolls, dice)
        if total / samples_count > best_average:
            best, best_average = num_rolls, total / samples_count
    return best


def winner(strategy0, strategy1):
    score0, score1 = play(strategy0, strategy1, sus_update)
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


def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):
    return 0 if boar_brawl(score, opponent_score) >= threshold else num_rolls


def sus_strategy(score, opponent_score, threshold=11, num_rolls=6):
    gain = sus_update(0, score, opponent_score) - score
    return 0 if gain >= threshold else num_rolls


def final_strategy(score, opponent_score):
    """Roll 0 when it wins or gains a lot, otherwise 6."""
    if sus_update(0, score, opponent_score) >= GOAL:
        return 0
    return sus_strategy(score, opponent_score, 9, 6)


@main
def run(*args):
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true')
    args = parser.parse_args()
    if args.run_experiments:
        run_experiments()
