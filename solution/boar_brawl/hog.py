"""The Game of Hog: Boar Brawl and Sus Fuss."""

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
    total, sow_sad = 0, False
    while num_rolls > 0:
        outcome = dice()
        if outcome == 1:
            sow_sad = True
        total = total + outcome
        num_rolls = num_rolls - 1
    if sow_sad:
        return 1
    return total
    # END PROBLEM 1


def boar_brawl(player_score, opponent_score):
    """Return the points for rolling zero dice under Boar Brawl: three times
    the distance between the tens digit of OPPONENT_SCORE and the ones digit
    of PLAYER_SCORE, but never less than 1.

    player_score:    the current player's total score.
    opponent_score:  the other player's total score.
    """
    # BEGIN PROBLEM 2
    tens = opponent_score // 10 % 10
    ones = player_score % 10
    return max(3 * abs(tens - ones), 1)
    # END PROBLEM 2


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the points a player earns in one turn by rolling NUM_ROLLS dice,
    when the player has PLAYER_SCORE points and the opponent has OPPONENT_SCORE.

    num_rolls:       how many dice to roll (0 means Boar Brawl).
    player_score:    the current player's total score.
    opponent_score:  the other player's total score.
    dice:            a function of no arguments that returns one outcome.
    """
    # These checks catch a wrong argument early; keep them.
    assert type(num_rolls) == int, 'num_rolls must be an integer.'
    assert num_rolls >= 0, 'Cannot roll a negative number of dice in take_turn.'
    assert num_rolls <= 10, 'Cannot roll more than 10 dice.'
    # BEGIN PROBLEM 3
    if num_rolls == 0:
        return boar_brawl(player_score, opponent_score)
    return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the new total of a player who had PLAYER_SCORE points and rolled
    NUM_ROLLS dice, without the Sus Fuss rule.
    """
    score = player_score + take_turn(num_rolls, player_score, opponent_score, dice)
    return score


def is_prime(n):
    """Return whether N is a prime number."""
    if n == 1:
        return False
    k = 2
    while k < n:
        if n % k == 0:
            return False
        k += 1
    return True


def num_factors(n):
    """Return how many whole numbers divide N evenly, counting 1 and N."""
    # BEGIN PROBLEM 4
    count, k = 0, 1
    while k * k <= n:  # Factors come in pairs k and n // k; stop at the square root.
        if n % k == 0:
            if k * k == n:
                count += 1
            else:
                count += 2
        k += 1
    return count
    # END PROBLEM 4


def sus_points(score):
    """Return SCORE after Sus Fuss: a score with exactly 3 or 4 factors
    jumps up to the next prime number; any other score stays the same.
    """
    # BEGIN PROBLEM 4
    factors = num_factors(score)
    if factors == 3 or factors == 4:
        score += 1
        while not is_prime(score):
            score += 1
    return score
    # END PROBLEM 4


def sus_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the new total of a player who had PLAYER_SCORE points and rolled
    NUM_ROLLS dice, with the Sus Fuss rule applied to that total.
    """
    # BEGIN PROBLEM 4
    return sus_points(simple_update(num_rolls, player_score, opponent_score, dice))
    # END PROBLEM 4


def always_roll_5(score, opponent_score):
    """A strategy that rolls 5 dice every turn, whatever the scores are."""
    return 5


def play(strategy0, strategy1, update,
         score0=0, score1=0, dice=six_sided, goal=GOAL):
    """Play one game and return both final scores: Player 0's, then Player 1's.

    For example, play(always_roll_5, always_roll_5, sus_update) plays a game
    where each player rolls 5 dice every turn, with Sus Fuss in force.

    A strategy, such as always_roll_5, is given the current player's score and
    then the opponent's score, and returns how many dice to roll this turn.

    An update function, such as simple_update or sus_update, is given the
    number of dice, the current player's score, the opponent's score and the
    dice, and returns the current player's score after the turn.

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
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 = update(strategy0(score0, score1), score0, score1, dice)
        else:
            score1 = update(strategy1(score1, score0), score1, score0, dice)
        who = 1 - who
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
    def strategy(score, opponent_score):
        return n
    return strategy
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
    """Return whether STRATEGY rolls the same number of dice for every pair
    of scores below GOAL.

    >>> is_always_roll(always_roll_5)
    True
    >>> is_always_roll(always_roll(3))
    True
    >>> is_always_roll(catch_up)
    False
    """
    # BEGIN PROBLEM 7
    first = strategy(0, 0)
    score = 0
    while score < goal:
        opponent_score = 0
        while opponent_score < goal:
            if strategy(score, opponent_score) != first:
                return False
            opponent_score += 1
        score += 1
    return True
    # END PROBLEM 7


def make_averaged(original_function, samples_count=1000):
    """Return a function that calls ORIGINAL_FUNCTION SAMPLES_COUNT times with
    the arguments it is given and returns the average of the results.

    It uses the *args syntax to accept any number of arguments.

    >>> dice = make_test_dice(4, 2, 5, 1)
    >>> averaged_dice = make_averaged(roll_dice, 40)
    >>> averaged_dice(1, dice)  # ten each of 4, 2, 5 and 1
    3.0
    """
    # BEGIN PROBLEM 8
    def averaged(*args):
        total, k = 0, 0
        while k < samples_count:
            total += original_function(*args)
            k += 1
        return total / samples_count
    return averaged
    # END PROBLEM 8


def max_scoring_num_rolls(dice=six_sided, samples_count=1000):
    """Return the number of dice, from 1 to 10, with the highest average score
    for one turn. A tie goes to the smaller number of dice.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice)
    1
    """
    # BEGIN PROBLEM 9
    averaged_roll = make_averaged(roll_dice, samples_count)
    best_rolls, best_average = 1, 0
    num_rolls = 1
    while num_rolls <= 10:
        average = averaged_roll(num_rolls, dice)
        if average > best_average:
            best_rolls, best_average = num_rolls, average
        num_rolls += 1
    return best_rolls
    # END PROBLEM 9


def winner(strategy0, strategy1):
    """Return 0 if STRATEGY0 wins a game against STRATEGY1, and 1 otherwise."""
    score0, score1 = play(strategy0, strategy1, sus_update)
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

    print('boar_strategy win rate:', average_win_rate(boar_strategy))
    print('sus_strategy win rate:', average_win_rate(sus_strategy))
    print('final_strategy win rate:', average_win_rate(final_strategy))
    "*** You may add more experiments here ***"


def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):
    """Roll 0 dice when Boar Brawl would give at least THRESHOLD points, and
    NUM_ROLLS dice otherwise. Sus Fuss is not taken into account.
    """
    # BEGIN PROBLEM 10
    # STUB: return num_rolls  # Remove this line once implemented.
    if boar_brawl(score, opponent_score) >= threshold:
        return 0
    return num_rolls
    # END PROBLEM 10


def sus_strategy(score, opponent_score, threshold=11, num_rolls=6):
    """Roll 0 dice when doing so would raise the score by at least THRESHOLD
    points once every rule (Sus Fuss included) applies, and NUM_ROLLS otherwise.
    """
    # BEGIN PROBLEM 11
    # STUB: return num_rolls  # Remove this line once implemented.
    if sus_update(0, score, opponent_score) - score >= threshold:
        return 0
    return num_rolls
    # END PROBLEM 11


def final_strategy(score, opponent_score):
    """Describe your final strategy here in a few sentences.

    *** YOUR DESCRIPTION HERE ***
    """
    # BEGIN PROBLEM 12
    # STUB: return 6  # Remove this line once implemented.
    # The number of dice with the best chance to win against a player who always rolls 6, worked
    # out for every pair of scores: starting from the scores nearest the goal, each choice of 0 to
    # 10 dice is worth the sum, over what the dice can show, of its probability times the chance
    # to win from where it leads; the best choice is kept (fewer dice on a tie). Row: your score;
    # column: the opponent's score; X stands for 10. `hogkit optimal --table FILE` recomputes it.
    best_against_always_roll_6 = (
        '44444444444444444444000066600056000000000000077000000000000000000000000000000000000000000000000000X0',  # 0
        '44444440004444444444444566656400000006660000000000000777777222220000800000000002000000000000000000X0',  # 1
        '4444444444444444444444456666666666666666000000007777777700000000000080899899898220000000000000000XX0',  # 2
        '55555666666666666666666666656666666666666666777777777777777077777777008998998981111222222900000009X0',  # 3
        '000000000066666666555555555555566666666666666776777777777776000000000088888888811111111119X9XXX9X9X0',  # 4
        '555556666600000000000000000000666666666666667776777777777777707708088888888888801111111119X9XXX9X9X0',  # 5
        '000000000066666666600000000000056665600066666776777777777777776777778888888888801111111118X8XXX8X8X0',  # 6
        '0000000000000000000000000000000000000000666677777777777777788878888888888888787XXXXX888X88X8XXX8XXX0',  # 7
        '0000000000000000000000000000000000000000000000000077777777778878888777788788787XXXXX777X78X8XXX8XXX0',  # 8
        '0000000000000000000000000000000000000000000000000000007066677777787777777777777XXXXX777X78X8XXX8XXX0',  # 9
        '44444444444444444444000444444000000000006666666600000000000077777000000000000000000000000000000000X0',  # 10
        '00000000004444444444444444444404444444440000000000000060660000000000000000000000000000000000000000X0',  # 11
        '00000400000000000004444444444444444445555555566566060050000000000000660000000000000000000000000000X0',  # 12
        '33344445555555555550444444444555555556666666666666666606000506006066600000000000000055505700000000X0',  # 13
        '0000000000555555555344433333355555555555555555566666655555550000000000666666565000000000009099909XX0',  # 14
        '3333333000000000000033300000005354434444444455545555555555544445565566666566565044444444469099909XX0',  # 15
        '0000000000444444440000000000000000000000555555555555555554445545565556566566564400000000069699969XX0',  # 16
        '0000000000000000000000000000000000000000000000000055555555540000000000565565554444444444468688868XX0',  # 17
        '000000000000000000000000000000000000000000000000000000909000555555555555955X5X4033344443468688868XX0',  # 18
        '0000000000000000000000000000000000000000000000000099990000008888888999959X59XXX033330003058588858XX0',  # 19
        '22222222222222222242000000000000000000000000000000000000000000000000000000000000000888888000000000X0',  # 20
        '11111111333333333333333422242400000000000000000000000000000000000000050000000000000000000000000000X0',  # 21
        '00000000000000000000111111111100000000000000444044000000000000000000000000000007000000000000000000X0',  # 22
        '11111111110000000000000000000077777764444444444474877887888600000000440000000000000000000000000000X0',  # 23
        '88888887770000000000777788888888777877777777777888888888888777777777000480480807777700070400000000X0',  # 24
        '7787777777000000000777777777877777777777777777787777778788876766767784888048080067760006047477747XX0',  # 25
        '7777777777777666666777777777777777777000777777777777778777766666666777788888888600000000006666666XX0',  # 26
        '0000000000000000000077777777700000000000667777777700000000000600636600337837888111110001006366636XX0',  # 27
        '00000000000000000000000000000077000700000000000000777777777666666666333378378780XXXX111X136366636XX0',  # 28
        '0000000000000000000000000000000000000000000000707000070700000070000000777X77X7XX0000XXX0X06666666XX0',  # 29
        '1111111111000000000055555556560000000000000000070000000000070000000000000000000000X00000000000000000',  # 30
        '0000000000111111111555566666666666666666000000000066667677770000000000000000000X00000000000000000000',  # 31
        '6666666666666666666666666666666666666666666666666666666666670600505076777X77X7X000000000000000000XX0',  # 32
        '6666666666666666666566666666666666666666666666666666666666666060000000666X66X6XXXXXX000X000000000XX0',  # 33
        '0000000000555555555555556665655666666555555566666666666666660000000000606X06X6XX00000000040000000XX0',  # 34
        '000000000000000000005555555555555555500000000000555555655554444040450000660666609999XXX9X44044404XX0',  # 35
        '00000000000000000000000000000055555555555555555555555555555664644445616069069699900900090041444149X0',  # 36
        '000000000000000000000000000000000000000055555555555555555558888868650669699695999999XXX9XX4X444X4XX0',  # 37
        '00000000000000000000000000000000000000000000000000555555555885885855555959959599999999999X3X333X39X0',  # 38
        '0000000000000000000000000000000000000000000000008888888888888888888599999999999999999999903X333X39X0',  # 39
        '222222222222224444440000000000000000000000000004000000000000000000000000000000000000000000000000000X',  # 40
        '22222222222222233333444444444400000004440000000000000040444000008880880000000008000000000XXXXXXXX00X',  # 41
        '000000000033333333333333444444444444444444040000440400404440000000000000000000000000000000000000000X',  # 42
        '000000000000000000003333000303333444444444444334440004444407707000040000000000000000000000000000000X',  # 43
        '000000000033333333333333333330333333333333333333444444444447000000000000084484877777777772202220279X',  # 44
        '333333333300000000000000000000333333333333333333434444366667777767644404477473778888888880202220279X',  # 45
        '000000000000000000000000000000000000000033333333333333363666666666663333377373770000000000101110179X',  # 46
        '000000000000000000000000000000000000000033333333333366666666000000000033377373760000000000080008079X',  # 47
        '000000000000000000000000000000000000000000000000000000000006666676776676777777777777777778888888878X',  # 48
        '000000000000000000000000000000000000000000000066660000000007777777777777787770788888888888888888878X',  # 49
        '222222222222222222220000222022000000000000000000000000000000000000000000000000000000000000000000000X',  # 50
        '112222222222222222222222222222000000000000000000000555050060060666666600000000000000000000000000000X',  # 51
        '000000000000000000001111111111000000000000000000000000000000550550600000000000060000000000000000000X',  # 52
        '000000000000000000001111111155555555555555551551555555055555000000065666666666660000000007000000000X',  # 53
        '777777777777777776666666666555555555566666666666555655656666666666660066666666666666666667000000007X',  # 54
        '000000000000000000004444444444444444444400000000555555555544454454451100000000046666666660666666667X',  # 55
        '000000000066666660000000000000555555555555555556555555555555555556666666666656566666666666666666666X',  # 56
        '000000000066666666565555500000000000000055555555555555555555555555560055655656555555555556000000006X',  # 57
        '000000000000000000000000000000000000000000000000004554545555555555555500550555555555555556060006056X',  # 58
        '0000000000000000000000000000000000000000000000000055500000005555555566665955X5X5XXXXXXXXXXXXXXXXX56X',  # 59
        '222222222222323333333333334343000000000000000005000000000005000000000000000000000000XXX0X0000000000X',  # 60
        '444444444444444444444444444444444444444400000000000000000000000000000000000000000000000000000000000X',  # 61
        '000000000000000000002222222233000333333300000000000000000000000000000000000000000000000000000000000X',  # 62
        '000000000000000000002222233333332222222222222223330000000000000000040000404404040000000000000000000X',  # 63
        '000000000000000000003333330000333333333333333333333333334444000000040000000000040000000004000000004X',  # 64
        '000000000000000000000000000000000000000000000000333333333333344444444400040044300000000000000000004X',  # 65
        '000000000000000000000000000000333333333333333333333333333330333333443300030333300000000004444444444X',  # 66
        '000000000000000000006655555550000000000033333333333333333333333333330033333333999999999999999999904X',  # 67
        '0000000000000000000000000000000000000000000000000000000000000000000000333338889999999999999999999939',  # 68
        '0000000000000000000000000000000000000000000000005500000000003333333333336788888888899999988888888839',  # 69
        '4444442222000002222542222000000000000000000000550000000000000000000000000000000000000000000000000009',  # 70
        '0000000000111111111200000000000000000000000000000022255555500000000000000000000800000000000000000008',  # 71
        '0000000000222222222244444444444444222222222222224400000000000000222222000000000000000000000000000008',  # 72
        '5555555555554444555555555555555555555555555566656665555555555555550000567777788888888888880000000008',  # 73
        '0000000000111111111100000000000000000000221111111100000000000000000000000000777700000000000000000028',  # 74
        '0000000000000000000011111111110000000000111111111111111111111111111111000000777077777777777777777027',  # 75
        '0000000000000000000044444444440000000000444466645454454444444444444444556677777777777777707777777717',  # 76
        '0000000000000000000000000000000000000000000000000033344444410000000000111616666600000000000000000007',  # 77
        '0000000000000000000000000000000000000000000000000004444444444444444441000666666066666666660000000007',  # 78
        '0000000000000000000000000000000000000000006667776666667677777677676677766766666666666666666666666666',  # 79
        '1111111222222222222200000000000000000000000000000000000000006667676500000000000000000000000000000000',  # 80
        '0000000000222222222222222222220000000000000000000000000000000000000000000000000000000000000000000000',  # 81
        '0000000000000000000011111111110000000000222222222200000000000000000000000000555000000000000000000000',  # 82
        '0111000000000000000000000000001111111112000000000000022222220000000000000000055055555555550000000000',  # 83
        '0000000000000000000000000000005544444444444444444444442222220000000000000555555555555555555555555505',  # 84
        '0000000000000000000000000000000000000000444444444444422222222222222222000445555555555555555555555505',  # 85
        '0000000000000000000000000000000000000000000000000044432222222222222222244444444444444444444444444405',  # 86
        '0000000000000000000000000000000000000000111111110000000000000000000000111444444444444444444444444404',  # 87
        '0000000000000000000000000000000000000000000000000011111000000000000000000444444444444444444444444404',  # 88
        '0000000000000000000000000000000000000000000000000000000000005555554444444444444444444444444444444444',  # 89
        '0000000000000000000000004444440000000000000000000000000000000000000000000000000000000000000000000000',  # 90
        '0000000000111111111100000000000000033444000000000000000000000000000000000000000000000000000000000000',  # 91
        '0000000000000000000000000000000003333332000000000000000000000000000000000000000000000000000000000000',  # 92
        '0000000000000000000000002222220002222222222222222200000000000000000000000000000000000000000000000000',  # 93
        '0000000000000000000000000000000002222222222222222222222222220000000000000000000000000000000000000000',  # 94
        '0000000000000000000000000000000000000000000000000022222222222222222222000000000000000000000000000000',  # 95
        '0000000000000000000000000000000000000000000000000000000000002222222222222222222200000000000000000000',  # 96
        '0000000000000000000000000000000000000000000000000000000000000000000000222222222200000000000000000000',  # 97
        '0000000000000000000000000000000000000000000000000000000000000000000000000000000011111111110000000000',  # 98
        '0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',  # 99
    )
    return '0123456789X'.index(best_against_always_roll_6[score][opponent_score])
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
