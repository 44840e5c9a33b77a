"""A text interface for Hog: watch a game turn by turn, or play one."""

from hog import play, always_roll_5, take_turn, perfect_square, next_perfect_square
from dice import six_sided


def play_and_print(strategy0, strategy1):
    """Play a game between STRATEGY0 and STRATEGY1, printing every turn."""
    final0, final1 = play(printing_strategy(0, strategy0),
                          printing_strategy(1, strategy1),
                          square_update_and_print,
                          dice=printing_dice(six_sided))
    print('The final score is Player 0:', final0, 'vs Player 1:', final1)


def printing_strategy(who, strategy):
    """Return a strategy that behaves like STRATEGY and also prints the scores
    and the number of dice chosen. WHO is the player using it, 0 or 1.
    """
    def choose_and_print(score, opponent_score):
        if who == 0:
            score0, score1 = score, opponent_score
        else:
            score0, score1 = opponent_score, score
        print('The score is', score0, 'to', score1)
        num_rolls = strategy(score, opponent_score)
        print('Player', who, 'rolls', num_rolls, 'dice:')
        return num_rolls
    return choose_and_print


def printing_dice(dice):
    """Return dice that behave like DICE and also print each outcome."""
    def roll():
        outcome = dice()
        print('  ', outcome)
        return outcome
    return roll


def square_update_and_print(num_rolls, player_score, opponent_score, dice):
    """Work like square_update and also print how the player's score changed,
    naming Pig Tail and Square Swine when they apply."""
    if num_rolls == 0:
        print('  ', 'Pig Tail!')
    score = player_score + take_turn(num_rolls, opponent_score, dice)
    new_score = score
    if perfect_square(score):
        new_score = next_perfect_square(score)
        print('  ', 'Square Swine:', score, 'is a perfect square, so it becomes', new_score)
    print(' ', player_score, '->', new_score)
    return new_score


def interactive_strategy(who):
    """Return a strategy that asks a person how many dice to roll."""
    def strategy(score, opponent_score):
        prompt = 'Player ' + str(who) + ': how many dice will you roll (0-10)? '
        while True:
            try:
                answer = input(prompt)
            except EOFError:
                print()
                print('No more input: the game stops here.')
                exit(1)
            if answer.strip().isdigit() and 0 <= int(answer) <= 10:
                return int(answer)
            print('Please type a whole number from 0 to 10.')
    return strategy


def main():
    """Read the command line and start the game it asks for."""
    import argparse
    parser = argparse.ArgumentParser(description='Play Hog in the terminal')
    parser.add_argument('--num_players', '-n', type=int, default=0, choices=[0, 1, 2],
                        help='how many people play (0 watches two computer players)')
    args = parser.parse_args()
    if args.num_players == 0:
        play_and_print(always_roll_5, always_roll_5)
    elif args.num_players == 1:
        play_and_print(interactive_strategy(0), always_roll_5)
    else:
        play_and_print(interactive_strategy(0), interactive_strategy(1))


if __name__ == '__main__':
    main()
