"""A complete, correct hog.py for the Picky Piggy & Hog Pile edition, written the way many students
of that term wrote it: picky_piggy with a while loop that walks the digits of 142857, play with one
loop that adds Hog Pile's bonus and calls the commentary inside it, an f-string for the record
line, for loops and lists wherever no rule forbids them. It must earn every point.
"""

from dice import four_sided, make_test_dice, six_sided  # noqa: F401 (cases use them through `from hog import *`)
from ucb import interact, main, trace  # noqa: F401

GOAL_SCORE = 100  # The goal of Hog is to score 100 points.

######################
# Phase 1: Simulator #
######################


def roll_dice(num_rolls, dice=six_sided):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    total, pig_out = 0, False
    for _ in range(num_rolls):
        outcome = dice()
        if outcome == 1:
            pig_out = True
        total += outcome
    return 1 if pig_out else total


def picky_piggy(score):
    if score == 0:
        return 7
    while score > 6:
        score = score - 6
    digits = 142857
    k = 6
    while k > score:
        digits = digits // 10
        k = k - 1
    return digits % 10


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < goal, 'The game should be over.'
    if num_rolls == 0:
        return picky_piggy(opponent_score)
    else:
        return roll_dice(num_rolls, dice)


def hog_pile(player_score, opponent_score):
    if player_score == opponent_score:
        return opponent_score
    else:
        return 0


def next_player(who):
    return 1 - who


def silence(score0, score1):
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    while score0 < goal and score1 < goal:
        if who == 0:
            num_rolls = strategy0(score0, score1)
            score0 = score0 + take_turn(num_rolls, score1, dice, goal)
            score0 = score0 + hog_pile(score0, score1)
        else:
            num_rolls = strategy1(score1, score0)
            score1 = score1 + take_turn(num_rolls, score0, dice, goal)
            score1 = score1 + hog_pile(score1, score0)
        who = next_player(who)
        say = say(score0, score1)
    return score0, score1


#######################
# Phase 2: Commentary #
#######################


def say_scores(score0, score1):
    print("Player 0 now has", score0, "and Player 1 now has", score1)
    return say_scores


def announce_lead_changes(last_leader=None):
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
    def say(score0, score1):
        return both(f(score0, score1), g(score0, score1))
    return say


def announce_highest(who, last_score=0, running_high=0):
    assert who == 0 or who == 1, 'The who argument should indicate a player.'

    def say(score0, score1):
        if who == 0:
            current = score0
        else:
            current = score1
        gain = current - last_score
        if gain > running_high:
            print(f"{gain} point(s)! That's a record gain for Player {who}!")
            return announce_highest(who, current, gain)
        return announce_highest(who, current, running_high)
    return say


#######################
# Phase 3: Strategies #
#######################


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def make_averaged(original_function, trials_count=1000):
    def average(*args):
        total = 0
        for _ in range(trials_count):
            total += original_function(*args)
        return total / trials_count
    return average


def max_scoring_num_rolls(dice=six_sided, trials_count=1000):
    averages = []
    for num_rolls in range(1, 11):
        averages.append(make_averaged(roll_dice, trials_count)(num_rolls, dice))
    return averages.index(max(averages)) + 1


def winner(strategy0, strategy1):
    score0, score1 = play(strategy0, strategy1)
    if score0 > score1:
        return 0
    else:
        return 1


def average_win_rate(strategy, baseline=always_roll(6)):
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)
    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def run_experiments():
    six_sided_max = max_scoring_num_rolls(six_sided)
    print('Max scoring num rolls for six-sided dice:', six_sided_max)
    print('always_roll(6) win rate:', average_win_rate(always_roll(6)))
    print('hog_pile_strategy win rate:', average_win_rate(hog_pile_strategy))


def picky_piggy_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    if picky_piggy(opponent_score) >= cutoff:
        return 0
    return num_rolls


def hog_pile_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    if score + picky_piggy(opponent_score) == opponent_score:
        return 0
    return picky_piggy_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """Roll 0 when Picky Piggy wins the game or sets off Hog Pile; otherwise roll fewer dice
    when ahead and near the goal, and Hog Pile's strategy with a cutoff of 7 the rest of the time.
    """
    if score + picky_piggy(opponent_score) >= GOAL_SCORE:
        return 0
    if score > 90 and score > opponent_score:
        return 3
    return hog_pile_strategy(score, opponent_score, 7, 6)


##########################
# Command Line Interface #
##########################


@main
def run(*args):
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true',
                        help='Runs strategy experiments')

    args = parser.parse_args()

    if args.run_experiments:
        run_experiments()
