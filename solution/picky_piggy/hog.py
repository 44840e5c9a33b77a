"""The Game of Hog: Picky Piggy and Hog Pile, with commentary."""

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
    # The digits of 1/7 come round every six places, so digit SCORE is digit PLACE, from 1 to 6;
    # a score of 0 gives place 6, whose digit is the 7 the rules give it.
    place = (score - 1) % 6 + 1
    return 10 ** place // 7 % 10
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
        say = say(score0, score1)  # Problem 6: the commentary after every turn.
        who = next_player(who)
    # END PROBLEM 5
    # Problem 6 calls the commentary at the end of every turn, inside the loop of Problem 5.
    # BEGIN PROBLEM 6
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
        score = score1 if who else score0
        gain = score - last_score
        if gain > running_high:
            print(gain, "point(s)! That's a record gain for Player", str(who) + "!")
            return announce_highest(who, score, gain)
        return announce_highest(who, score, running_high)
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
    def averaged(*args):
        total, k = 0, 0
        while k < trials_count:
            total += original_function(*args)
            k += 1
        return total / trials_count
    return averaged
    # END PROBLEM 8


def max_scoring_num_rolls(dice=six_sided, trials_count=1000):
    """Return the number of dice, from 1 to 10, with the highest average score
    for one turn. A tie goes to the smaller number of dice.

    >>> dice = make_test_dice(1, 6)
    >>> max_scoring_num_rolls(dice)
    1
    """
    # BEGIN PROBLEM 9
    averaged_roll = make_averaged(roll_dice, trials_count)
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
    # STUB: return 6  # Remove this line once implemented.
    if picky_piggy(opponent_score) >= cutoff:
        return 0
    return num_rolls
    # END PROBLEM 10


def hog_pile_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when Picky Piggy would bring the player's score level with
    the opponent's, so that Hog Pile doubles it; otherwise roll 0 when Picky
    Piggy gives at least CUTOFF points, and NUM_ROLLS dice when it does not.
    """
    # BEGIN PROBLEM 11
    # STUB: return 6  # Remove this line once implemented.
    if score + picky_piggy(opponent_score) == opponent_score:
        return 0
    return picky_piggy_strategy(score, opponent_score, cutoff, num_rolls)
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
    # to win from where it leads (Hog Pile included); the best choice is kept (fewer dice on a tie).
    # Row: your score; column: the opponent's score; X stands for 10.
    # `hogkit optimal --edition picky_piggy --table FILE` recomputes it.
    best_against_always_roll_6 = (
        '555550666660636634445455555566676677787788698899779X77777X88888888888888999999X9XXXXXXXX9999999XXXX0',  # 0
        '4555555566666666344444455555566666777777887988997X9977777X78878888888888889999999XXXXXXX999999XXXXX0',  # 1
        '4445555555060666064444445555556666677777887888997X99X7777X77777888888888889999999XXXXXXX9999X9XXXXX0',  # 2
        '4445555555666667664447445554556666667777787888997999X7777X777778888888888889999999XXXXXX9999X9XXXXX0',  # 3
        '4444555505566666067344045554556665667766777888897999XX777X77777778888888888999999999X9XX9999XXXXXXX0',  # 4
        '44444455556506667663434444545556656667667778778879999X77XX7777777777888888899999999999999999XXXXXXX0',  # 5
        '4444444555505660606336344444455555666666777877887988997X9X777777777778888889999999999999999XXXXXXXX0',  # 6
        '0444444660555566666636334444445555566666777777888988997X9X77777777777888888899999999999999XXXXXXXXX0',  # 7
        '0444044448555555060666064443445555556666677777888888997X99X7777X77777888888899999999999999XXXXXXXXX0',  # 8
        '0644044444955605666667667347445554556665667777788888997X99X7777X77777788888889989999999XXXXXXXXXXXX0',  # 9
        '0666044444095505566666067343044454556655667766778888897999XX777X77777778888889988999999XXXXXXXXXXXX0',  # 10
        '0666044444409555650666766333344444555555666766777878887999XX777X77777778888X89988999999XXXXXXXXXXXX0',  # 11
        '66660344444409555056606063763344444555556666667778778889999X7X9X77777X78888X89888999999XXXXXXXXXXXX0',  # 12
        '66660604444444X0555157666667334443445555566666777877888988997X9977777X78888X8988889999XXXXXXXXXXXXX0',  # 13
        '666606034404440X555555060670034443445554556666677777888988997X99X7777X78888X8988888999XXXXXXXXXXXXX0',  # 14
        '6666060334044443X55605666607663348444554556665667777788888997X99X7777X7888XX8988889X9XXXXXXXXXXXXXX0',  # 15
        '66660606330344440X5505566666063343044444555655667777778888997999XX77XX7888XX9988889X9XXXXXXXXXXXXXX0',  # 16
        '666666066603344440X555650666767333334444555555666766778888899999XX7XXXXX8XXXX9888XXXXXXXXXXXXXXXXXX0',  # 17
        '5565660666033344440X555056606063323344444455556666667778778899999X7XXXXX8XXXX9888XXXXXXXXXXXXXXXXXX0',  # 18
        '55556666660303344443X0555167666277334443445555566666777877888988997XXXXX9XXXXX888XXXXXXXXXXXXXXXXXX0',  # 19
        '555566666606033304440X555556060270033343445554556666677777888988997X99XX9XXXXX88XXXXXXXXXXXXXXXXXXX0',  # 20
        '5555666666060333034443X55605666207223343444554556665667777888888999X99XX9XXXXX88XXXXXXXXXXXXXXXXXXX0',  # 21
        '55556666660603330334440X55051X6666063333044444555655667777788888999999XXXXXXXX9XXXXXXXXXXXXXXXXXXXX0',  # 22
        '555555666606066603334440X555X50666767333334444555555667766778888899999XXXXXXXX9XXXXXXXXXXXXXXXXXXXX0',  # 23
        '4555555666660666033344040X955066606003323344444455556667667788878899999XXXXXXXXXXXXXXXXXXXXXXXXXXXX0',  # 24
        '44455555666666660303344441X055516X66027733444344555556666677787788898899XXXXXXXXXXXXXXXXXXXXXXXXXXX0',  # 25
        '444555555666666606033304440X555616060200033343445554556666777777888988999XXXXXXXXXXXXXXXXXXXXXXXXXX0',  # 26
        '4444555556666666070333034440X55X00666207223343444544556666667777888888999XXXXXXXXXXXXXXXXXXXXXXXXXX0',  # 27
        '44444555556666660603330334440X55061X6666023333044444556665667777788888999X99XXXXXXXXXXXXXXXXXXXXXXX0',  # 28
        '444404555566666666066703334440X555X50671723332334444555555667776778888899999XXXXXXXXXXXXXXXX9XXXXXX0',  # 29
        '0444044555556666660666033334040XX5501170600332334443445555666766778887889999XXXXXXXXXXXXX999999XXXX0',  # 30
        '04450444555556666666670303330441X055516X160277334443445555566666777877889999XXXXXXXXXXXXX9999999XXX0',  # 31
        '055504444555556666666607033304440X5566160602000333434455545566667777778889989XXXXXXXXXXXX9999999XXX0',  # 32
        '0555044445555566666666070333034440X55X0066620822333344455455666666777788898899XXXXXXXXXXX99999999XX0',  # 33
        '55550444444555566666660702330334440X55061X062702333304444455666566777778888899XXXXXXXXXXX99999999XX0',  # 34
        '555505444404555566666666077703334440X555X1067182333233444455565566777677888899XXX9XXXXXXXX9999999XX0',  # 35
        '5555050445044555556666660666033334040XX5501170600332334444445555666766778888899999XXXXXXXX9999999XX0',  # 36
        '55550504450444455556666666770703334441X055616X170277334443445555566666777877899999XXXXXXXX9999999XX0',  # 37
        '555505055504444455566666666607033304440X5566160102000333434455555566666777778899999XXXXXXX8889899XX0',  # 38
        '5555050555040444555566666666070333034440X55X0076620822334844555455666666777788999899XXXXXX888X889XXX',  # 39
        '55555555550404440555566666660706330334440X55091X072702333304445455666566777788899899XXXXXX888X889XXX',  # 40
        '555555555505044404555666666666066703334440X955X10671827332334444555555667777788888999X99XX888X8889XX',  # 41
        '55555555550504450445555666666606660333340400X5501170600332334444445555666766778888999999XX8X8X8889XX',  # 42
        '55555555550504450444455566666666660603340441X055616X177277334443445555566666778888899999998X9X8889XX',  # 43
        '555555555505054504444555566666666606033304440X559916060200037343445555556666778887889999998X9X8889XX',  # 44
        '5555555555050555044445555666666666060633034440X55X0076620822734844455455666667777788999899899X888XXX',  # 45
        '44555555550555550404444555566666660606660334440X55091X67270773330444445566656677778889889989998X8XXX',  # 46
        '444455555555555505044405555666666666066603334440X955X106718773333344445556556677777888889989999X8XXX',  # 47
        '44444555555555550504440445555666666606660333344400X55011706003323344444455556677767788888889999X8XXX',  # 48
        '44440455555555550504440444455556666666660603340441X056616X1772773374434455556667767788888889999X8XXX',  # 49
        '444404455555555505044404044455556666666606033304440X559616060200037343445555566666778887888989998XXX',  # 50
        '4444044444555555050545040444555566666666060636044440X55X00766208227338444554556666777777888889998XXX',  # 51
        '04440444444555550555550404440555556666660606660344440X55091X6667067333044454556666667777888888998XXX',  # 52
        '044404444444455405555504444404555556666666066603344440X955X1067176633333444455666566777777888899XXXX',  # 53
        '04440444440444445555550504440444555555666606660333444400X55011706003323344444555656677767788888XXXXX',  # 54
        '04440404440444440555550504440444445555566666660603344441X055616X666277334443445555666776777888XXXXXX',  # 55
        '044404044404444445555505044404044455555566666606033404440X5566160602000333434455555666667XXXXXXXXXXX',  # 56
        '0444040444044444445554050444040444455555666666060636044440X55X0076620822334X445554556666XXXXXXXXXXXX',  # 57
        '04440404440444440444440504440404440445555666660606660344440X55071966670233330444545XX66XXXXXXXXXXXXX',  # 58
        '044404044404444404444405444404044404445555566666066603344440X8559606768273323344545XXXXXXXXXXXXXXXXX',  # 59
        '0444040444040444044444045444040444044445555555666666033444440095501670600332334444XXXXXXXXXXXXXXXXXX',  # 60
        '04440404440404440444440444440404440404444555556666660603444441X0555169670279334443XXXXXXXXXXXXXXXXXX',  # 61
        '044404044404044404444404444404044404044445555556666606033404440X55861606020003X4X3XXXXXXXXXXXXXXXXXX',  # 62
        '0443040443040444044444044444040444040444045555666666060336044440X5590086620922X34XXXXXXXXXXXXXXXXXXX',  # 63
        '03330304430304440404440444440404440404440445555666660606660344440X550719082909939909X9X999X9X9X9XXXX',  # 64
        '033303043303044304044404444404044404044404445555666666066603344440X75596089199939999999999999999999X',  # 65
        '033303033303033303044404444404444404044404444455566566066606344404008550119080939999999999999999999X',  # 66
        '03330303330303330304440444440444440404440404445555656666660603440441X0577189889999999999999999999999',  # 67
        '033303033303033303044304444404444404044404044405555566666606066604440X558818080990089998889999999999',  # 68
        '0333030333030333030333044444044444040444040444055555666666060666064440X65800888208888888888888888889',  # 69
        '03330303330303330303330304440444440404440404440455556566650606650644450X7708198888088888888888888888',  # 70
        '033303033303033303033303044404444404044404044404555555666565066505664550X777880888888888888888888888',  # 71
        '0333030333030333030333030443044444044444040444044555555555556665056655550087701880808888888888888888',  # 72
        '03330303330303330303330303330344440444440404440404445555555555550505555561X0777178777777777777778778',  # 73
        '033303033303033303033303033303444304444404044404044455555555555505555505660X777717070777077777777777',  # 74
        '0333030333030333030333030333033443034443040444040444445555555555050555056660X77707777777777777777777',  # 75
        '03330303330303330303330303330303330344430304430404440455555555555505550566660X7707177777077777777777',  # 76
        '022200033300033303033303033303033303033303044304044404445454555555555505666660X766760776767676677777',  # 77
        '0222000222000333030333030333030333030333030443030444044444444454545555056666660076606660606666666666',  # 78
        '02220002220002220003330303330303330303330303330304440444444444444455540555666661X0666666666666666666',  # 79
        '022200022200022200033300033303033303033303033303044303444444444444445405555566660X666666066666666666',  # 80
        '0222000222000222000222000333000333030333030333030343034443444444444444055555555560X56605656566666666',  # 81
        '02220002220002220002220002330003330303330303330303330333330344444444444455555555550X5505565555055555',  # 82
        '020200022200022200022200022200022200033303033303033303333303334344444444555555555550X555550555555555',  # 83
        '0202000202000222000222000222000222000222030333030333030333033333034444444455555555550055505550505555',  # 84
        '0202000202000202000222000222000222000222000333030333030333030333033344444444445454555480555555555555',  # 85
        '0202000202000202000222000222000222000222000233030333030333030333033333444444444444444408444444044444',  # 86
        '0202000202000202000202000202000202000222000222000233000333000233030333044444444444444440844444444444',  # 87
        '0202000202000202000202000202000202000202000222000222000222000222030333034444444444444444084404444444',  # 88
        '0202000202000202000202000202000202000202000222000222000222000222020333033333344444444444408444440443',  # 89
        '0202000202000202000202000202000202000202000222000222000222000222000233033333333333333333330033303333',  # 90
        '0101000101000102000202000202000202000202000202000222000222000222000223033333333333333333333350333333',  # 91
        '0101000101000101000101000101000101000102000202000202000202000202000222033333033333033333033304033333',  # 92
        '0101000101000101000101000101000101000102000202000202000202000202000222020233030333030333030330030332',  # 93
        '0100000100000101000101000101000101000101000202000202000202000202000202020222020222020222020222030202',  # 94
        '0100000100000100000100000100000100000101000202000202000202000202000202000222000222000222000222000222',  # 95
        '0100000100000100000100000100000100000100000101000101000101000101000102000202000202000202000202000002',  # 96
        '0000000000000000000000000000000100000100000100000100000100000100000101000202000202000202000202000100',  # 97
        '0000000000000000000000000000000000000000000000000000000000000000000100000100000100000100000100000100',  # 98
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
