"""The Game of Hog: Piggy Points and More Boar, with commentary."""

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


def piggy_points(score):
    """Return the points for rolling zero dice under Piggy Points: the distance
    between the tens digit and the ones digit of SCORE (the opponent's score),
    plus 4.

    score:  the opponent's current score.
    """
    # BEGIN PROBLEM 2
    tens = score // 10 % 10
    ones = score % 10
    return abs(tens - ones) + 4
    # END PROBLEM 2


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Return the points scored in one turn by rolling NUM_ROLLS dice (0 means
    Piggy Points) against an opponent who has OPPONENT_SCORE points.

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
        return piggy_points(opponent_score)
    return roll_dice(num_rolls, dice)
    # END PROBLEM 3


def more_boar(player_score, opponent_score):
    """Return whether the current player goes again under More Boar: their
    smallest digit is below the opponent's smallest digit and their largest
    digit is above the opponent's largest digit. A one-digit score has that
    digit as both its smallest and its largest.

    >>> more_boar(25, 43)
    True
    >>> more_boar(22, 43)
    False
    >>> more_boar(31, 43)
    False
    >>> more_boar(7, 10)
    False
    """
    # BEGIN PROBLEM 4
    def smallest(n):
        least = n % 10
        while n >= 10:
            n = n // 10
            least = min(least, n % 10)
        return least

    def largest(n):
        most = n % 10
        while n >= 10:
            n = n // 10
            most = max(most, n % 10)
        return most

    return (smallest(player_score) < smallest(opponent_score)
            and largest(player_score) > largest(opponent_score))
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
    score, and returns how many dice to roll this turn. A turn is one roll of
    the dice, and More Boar can give the same player several turns in a row.

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
            again = more_boar(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            again = more_boar(score1, score0)
        say = say(score0, score1)  # Problem 6: the commentary after every turn.
        if not again:
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

    >>> f0 = announce_highest(1)  # only Player 1 is watched
    >>> f1 = f0(12, 0)
    >>> f2 = f1(12, 9)
    Player 1 has reached a new maximum point gain. 9 point(s)!
    >>> f3 = f2(20, 9)
    >>> f4 = f3(20, 30)
    Player 1 has reached a new maximum point gain. 21 point(s)!
    >>> f5 = f4(20, 47)  # Player 1 gets 17 points: not enough for a new high
    >>> f6 = f5(21, 47)
    >>> f7 = f6(21, 77)
    Player 1 has reached a new maximum point gain. 30 point(s)!
    """
    assert who == 0 or who == 1, 'The who argument should indicate a player.'
    # BEGIN PROBLEM 7
    def say(score0, score1):
        score = score1 if who else score0
        gain = score - last_score
        if gain > running_high:
            print("Player", who, "has reached a new maximum point gain.", gain, "point(s)!")
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
    print('piggypoints_strategy win rate:', average_win_rate(piggypoints_strategy))
    print('more_boar_strategy win rate:', average_win_rate(more_boar_strategy))
    print('final_strategy win rate:', average_win_rate(final_strategy))
    "*** You may add more experiments here ***"


def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when Piggy Points would give at least CUTOFF points, and
    NUM_ROLLS dice otherwise.
    """
    # BEGIN PROBLEM 10
    # STUB: return 6  # Remove this line once implemented.
    if piggy_points(opponent_score) >= cutoff:
        return 0
    return num_rolls
    # END PROBLEM 10


def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when that gives the player another turn under More Boar;
    otherwise roll 0 when Piggy Points gives at least CUTOFF points, and
    NUM_ROLLS dice when it does not.
    """
    # BEGIN PROBLEM 11
    # STUB: return 6  # Remove this line once implemented.
    if more_boar(score + piggy_points(opponent_score), opponent_score):
        return 0
    return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)
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
        '333400400033334400003334444050034444440003444445700344444790X0444447X0X05777XXX44007XXXXX400889XXXX0',  # 0
        '32300040003300000000033344040003334444000344444400004444449000444447X0000444XXX40057XXXXX400889XXXX0',  # 1
        '2000004000333000000002300000000233344000003334440000444444000004444490000444XXX000409XXXX300089XXXX0',  # 2
        '2000330000033000000002330000000033000000003333440000033344000004334490004046XXX000079XXXX300089XXXX0',  # 3
        '0000333000030000000000200000000033300000000333000X00033334900000333660000068XXX000000XXXX000009XXXX0',  # 4
        '0023333000000000000000200300000003300000000333000X003033336X0033333390000308XXX000000XXXX000000XXXX0',  # 5
        '09223330000000000000002223300000223330000020333000003033303X003303338X003383XXX1000000XXX0000000XXX0',  # 6
        '80000000004570000000702222300080222333009022233500003202058XX03302358XX03350XXXXX0069XXXX0000000XXX0',  # 7
        '9X0000000077780000007X2222X0070X222233000X222255800X222255X0XX022055XXXX0557XXXXXX008XXXXX0000XXXXX0',  # 8
        '89000002077778X008077X000000077X022225089X0222250XXX022225X0XX002227XXXX00779XXX0X008XXXXXX000XXXXX0',  # 9
        '80000022007778X70007990000000689000000009X00225770XX00222590XX000227X0XX00079XX2X0000XXXXXX009XXXXX0',  # 10
        '89100224007777X00797890000020699000000579900000000XX00047790XX000047X0XX00009XX0XX2800XXXXX009XXXXX0',  # 11
        '89X0111400767790079089X00010078X00000067990000007XX100000000X100009990X104000XX0X00090XXXXX009XXXXX0',  # 12
        '89XX111000666700999089XX11119789XX0001688X10000479XX10000099X111000000X110600XX0X968990XXXX009XXXXX0',  # 13
        '89XXX11000666796999089XXX1199089XXX1116889XXX01079XX1100069XXX10100099XX14660000X01809X0X09009XXXXX0',  # 14
        '78XXXX1000666796688088XXXX190089XXXX116889XXXX1669XXXXX8169XXX1368089XXX130880XXX01899XX00X008XXXXX0',  # 15
        '689XXXX00660669888805899XXX00078XXXXX35089XXXXX6699XXXX8868XXXXXX8X89XXX1368XXXX008899XXXX0008XXXXX0',  # 16
        '6690000006556688888055889XXX0068XXXXXX0078XXXXX8699XXXX7888XXXXXX8XX9X0XXXX9XXXX0XX899XXXX000XXXXXX0',  # 17
        '6580000070755680000053788X889005929XXXX007X22X577099XX25789X0XXX5789XX0XXX58XXXX0XXX9XXXXX000XXXXXX0',  # 18
        '57600002577856800000055680000055822XXX07778222250089X2222780XXX022278X0XX057799X00X0889XXXX00XXXXXX0',  # 19
        '5550002200555580000074568888007570000000778022250089X0022770XXX00227800XX007799XXX000899XXX00XXXXXX0',  # 20
        '5550022250550000000060557770004770000005077000000008900467700XX0004780XX0000799220X700999X2X0X9XXXX0',  # 21
        '657111140064500004406045770000667000040467700000470890000000XX0000778090X2000990X7008099999X099XXXX0',  # 22
        '667X11110066660044606446770070667X01110666710004477891000001XXX10000009X90400990990677099999099XXXX0',  # 23
        '600XX1110066667114006046797770667XX11176667XX0104778911006799XX01000719XX1460000996677809099099XXXX0',  # 24
        '6009XX10006606761600604678677066699X1996668XXX0467789XXX16699XX1X60681XXX10660811X6677880099098XXXX0',  # 25
        '5569XXX00060666860006606686670666999X98066699XX367788X9XX66999XXXXX68X0XXX8688810X8677888009098XXXX0',  # 26
        '553800000065556886006505686660033889X900656889XX57778999X86999XXXXX88X0XXXXX8X8X00X8888XX800088XXXX0',  # 27
        '5636000070555560000055356866606336689990055889XXX0077889X789099XXX788X0XXXX78XXX000X8X9XXX000889XXX0',  # 28
        '567300000056656000000785680000603368000005502225000770222568099022257X00X005777X00X07677XXX00889XXX0',  # 29
        '5553002000555558000055555870006023580000555578XX000777022550009X0225700XXX04777XX00X06777XX00879XXX0',  # 30
        '4522020000005000000050055770000505577700055500000007770445500889004770XX0X004772X0X00077777X0779XXX0',  # 31
        '222011024044400000004040000000000257700004450000000067000000000900667020X000079022006079722707799XX0',  # 32
        '44001111004444004440444400004660225770004444000001406600000070880000009XX010069024076608X42777789XX0',  # 33
        '40009111000440011440644440044060044770760444X11106666670044177881000619XXX13000014X40660904497689XX0',  # 34
        '00009X100064044614006640461440660447777606449916666666991467778899066119XX0330601XX66666001499689XX0',  # 35
        '44017XX0004044466300560046610066004666706634989966666698X067778899X66909XXXXX6810XXX6768600196689XX0',  # 36
        '533160000053304666005303466600553046666060336799666656679X687778899X69099XXXXX8X00XXX878X10066689XX0',  # 37
        '555360006055533660005533366660555036666005336699900555669XX60770889X890990XXXXXX0000XXXXXX0008679XX0',  # 38
        '55683000005666360000056636500056883666600503368800005552235700777225590099020X8X000X0557XXX000579XX0',  # 39
        '53583000005553560000525535000050773500000502358000555502225000770225500099022X5XX00X0057XXX0005789XX',  # 40
        '225500000055550000004002350000050535750000003580000555558X5007777024508009904XXXX000X047XXXX005789XX',  # 41
        '22000000004245000000002200000000002500006020257700004450000000677084707088900XX0XXX0X007X222007789XX',  # 42
        '20000010000200000000042400000040420000000002257000004440000040067000004008900XX0XX0XXX00X222207689XX',  # 43
        '40000111000400010140404400040040042000000400247000704440010114066000401708810000XXXXXXX0X042407689XX',  # 44
        '000007100040000411004040001440440404004505002470066044491106666666094117788830X11XXXXXXX00144X4689XX',  # 45
        '000117X00040400441004400446140440004644055600477766663499906666669730807788899X101XXXXXXX0014X0689XX',  # 46
        '431116000044404466004303046600433004664055300466666603367996666666796807778899XX0XXXXXXXX1001X067XXX',  # 47
        '45331400604444346000553303666055303366505563036660063334699605555669X807777889XX0XXXXXXXXX000X057XXX',  # 48
        '3567X0000035555300003566636000366873665006688366600033336888005550685800770708XX0XXX0XXXXXX000057XXX',  # 49
        '3356X0000033333300003355530000005663500000578366600052336880055555285600777728XXXX999XXXXXX000057XXX',  # 50
        '3336X000003333500000333333000002055350000005535000600223580005555558X050077078X9999990XXXXXX000X7XXX',  # 51
        '220000000022240000000222500000000222000050205255000002225880005455580050667708X09999990XXXXX000XXXXX',  # 52
        '200000000002000000000022000000402220000000000250000500225700000444000020066707X088099909XXXXX0XXXXXX',  # 53
        '0000000000000000000000200000000002000000040020000000000240000000440000440066000078809990X0XXX0XXXXXX',  # 54
        '000000110000000011000000001000440400000004001000000040024700440444070111406660901780899900XXXXXXXXXX',  # 55
        '00011170000000004100040000411004000001004440004004544000477664044477066466666791017888999001XXXXXXXX',  # 56
        '4411117000330011440044010044000440004410403000444455410046766630334796665566679X088888899X001XXXXXXX',  # 57
        '44441140604444434000444441464044403143404433004540555600466603333346990555566698088888889X0XXXXXXXXX',  # 58
        '3467XX00003444550000346666300035666633300566773550066889366600333336880055550688X87778888XXXXXXXXXXX',  # 59
        '3356XX00003333330000333355300033566630000356663550005688366660333336850055555687X07777888XXXXXXXXXXX',  # 60
        '3336X000003333300000333333000003355530000005563000000568356000022235800055555587707777778XXXXXXXXXXX',  # 61
        '22000000003333000000022330000000222300000002553000000256250005002235800044455580777777778999XXXXXXXX',  # 62
        '2000000000022000000002220000000022200000000022200004002525000000022500000444557056067777799999XXXXXX',  # 63
        '000000000002000000000020000000000200000000002000000000022500004002250000004440005560667070999099999X',  # 64
        '000000000000000000000000000000000000000000000000000010020000040000240000004440701450666600888909999X',  # 65
        '000000000000000000000000000000000000000000400000000040000004410100040014404444710145666670088809999X',  # 66
        '0011111X0000000004000000001410031001041400400000100401000444441100046603300344690666666668001889999X',  # 67
        '4444111X50440444400044440414404440411440444400144334330004455566100466033333346890555666680088888889',  # 68
        '3446XX1000344444500034444560003445566440345677733005666774440667777366003333336880555556688088888889',  # 69
        '3346XX0000333330000033334450003334446300033566633000566663540066677366000333336580555555688888888889',  # 70
        '3335X00000333330000033333300000333335000003366630000055663500006667365060023335508055555577888888888',  # 71
        '2200000000333300000003333000000033330000002233500000005553000000566350000022235000044555577788877778',  # 72
        '2000000000020000000002230000000022200000000222000000000222000000026200022002225000004455577777777778',  # 73
        '2000000000020000000000200000000002000000000020000000000220000000022200000000225000004444506770777778',  # 74
        '0000000000000000000000000000000000000000000000000000000200000000002000010200024000000444006666077777',  # 75
        '0000000000000000000000000000000000000000000000000000000000000001000000411100004000000444460666007777',  # 76
        '0000000000000000000000000000000000000000000000010000010000000001000004411110004606330044440016666667',  # 77
        '3330111000330000000003100100000010100140004400114444440000030441100044051110004670333333460066666667',  # 78
        '3445550000034433500003444455000044445X403444555X44344445583305555560440XXXXX003600033333360006666666',  # 79
        '003550000000003300000333335000033444580033344458300334444533004455503400XXXX003606003333360006666666',  # 80
        '0024000000000330000033333300000333334800033344480000033445300004444X33000XXXX03506002333350000555556',  # 81
        '0200000000233300000022333000000233330000003333480000023334000000344X300000XXX03000600222350000555556',  # 82
        '2200000000222000000002330000000022200000000333000000002334000000033X0000000XXX2000500022240000055555',  # 83
        '2000000000020000000000200000000002000000000020000000000200000000003800000000882005550002200000055555',  # 84
        '0000000000000000000000000000000000000000000000000000000000000000000000000000080405510000200000044445',  # 85
        '0000000000000000000000000000000000000000000000000000000000000000000000000000000444111000000000004445',  # 86
        '0000000000000000000000000000000000000000000000000000000000000000000000000010000444111000000000000444',  # 87
        '0000000000000000000000000000004440110000000000000000000000000000100000000110000404411100040044444444',  # 88
        '0000000000000000000000000000000444440000004404400000044000000000555000088888000400888800040004444334',  # 89
        '0000000000000000000000000000000033300000000333000000003000000000445050005555000300055550030000333333',  # 90
        '0000000000000000000000000000000003000000000030000000000000000000444550000555500300005550030000033333',  # 91
        '0000000000000000000000000000000000000000000000000000000000000000334440000044404300000444030000003333',  # 92
        '0000000000000000000000000000000000000000000000000000000000000000033440000004444300000044030000000323',  # 93
        '0000000000000000000000000000000000000000000000000000000000000000023300000000333000000003320000000022',  # 94
        '0000000000000000000000000000000000000000000000000000000000000000002000000000030000000000300000000002',  # 95
        '0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',  # 96
        '0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',  # 97
        '0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',  # 98
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
