"""A complete, correct hog.py for the Piggy Points & More Boar edition, written the way many
students write it: str and lists where no rule forbids them, for loops, a list of scores indexed
by the player, and a play loop that updates who before calling the commentary. It must earn every
point.
"""

from dice import four_sided, make_test_dice, six_sided  # noqa: F401 (cases use them through `from hog import *`)
from ucb import interact, main, trace  # noqa: F401

GOAL_SCORE = 100


def roll_dice(num_rolls, dice=six_sided):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls > 0, 'Must roll at least once.'
    outcomes = []
    while len(outcomes) < num_rolls:
        outcomes.append(dice())
    if 1 in outcomes:
        return 1
    return sum(outcomes)


def piggy_points(score):
    ones = score % 10
    tens = (score - ones) // 10 % 10
    k = tens - ones
    if k < 0:
        k = -k
    return k + 4


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    assert opponent_score < goal, 'The game should be over.'
    return piggy_points(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def more_boar(player_score, opponent_score):
    mine = [int(d) for d in str(player_score)]
    theirs = [int(d) for d in str(opponent_score)]
    return min(mine) < min(theirs) and max(mine) > max(theirs)


def next_player(who):
    return 1 - who


def silence(score0, score1):
    return silence


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided,
         goal=GOAL_SCORE, say=silence):
    who = 0
    scores = [score0, score1]
    strategies = [strategy0, strategy1]
    while scores[0] < goal and scores[1] < goal:
        mover, other = scores[who], scores[1 - who]
        mover += take_turn(strategies[who](mover, other), other, dice, goal)
        scores[who] = mover
        if not more_boar(mover, other):
            who = next_player(who)
        say = say(scores[0], scores[1])
    return scores[0], scores[1]


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
        score = [score0, score1][who]
        gain = score - last_score
        if gain > running_high:
            print(f"Player {who} has reached a new maximum point gain. {gain} point(s)!")
            return announce_highest(who, score, gain)
        return announce_highest(who, score, running_high)
    return say


def always_roll(n):
    def strategy(score, opponent_score):
        return n
    return strategy


def make_averaged(original_function, trials_count=1000):
    def averaged(*args):
        results = [original_function(*args) for _ in range(trials_count)]
        return sum(results) / trials_count
    return averaged


def max_scoring_num_rolls(dice=six_sided, trials_count=1000):
    averages = []
    for num_rolls in range(1, 11):
        averages.append(make_averaged(roll_dice, trials_count)(num_rolls, dice))
    return averages.index(max(averages)) + 1


def winner(strategy0, strategy1):
    score0, score1 = play(strategy0, strategy1)
    return 0 if score0 > score1 else 1


def average_win_rate(strategy, baseline=always_roll(6)):
    win_rate_as_player_0 = 1 - make_averaged(winner)(strategy, baseline)
    win_rate_as_player_1 = make_averaged(winner)(baseline, strategy)
    return (win_rate_as_player_0 + win_rate_as_player_1) / 2


def run_experiments():
    print('Max scoring num rolls for six-sided dice:', max_scoring_num_rolls(six_sided))


def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    return 0 if piggy_points(opponent_score) >= cutoff else num_rolls


def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """More Boar first, then Piggy Points when it gives 7 or more."""
    return more_boar_strategy(score, opponent_score, 7, 6)


@main
def run(*args):
    import argparse
    parser = argparse.ArgumentParser(description="Play Hog")
    parser.add_argument('--run_experiments', '-r', action='store_true')
    args = parser.parse_args()
    if args.run_experiments:
        run_experiments()
