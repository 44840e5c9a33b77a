"""A text interface for Hog: watch a game turn by turn, or play one."""

from hog import play, always_roll, both, announce_highest, announce_lead_changes, say_scores
from dice import six_sided


def play_and_print(strategy0, strategy1):
    """Play a game between STRATEGY0 and STRATEGY1, printing every turn and the commentary."""
    commentary = both(say_scores, both(announce_highest(0), both(announce_highest(1), announce_lead_changes())))
    final0, final1 = play(printing_strategy(0, strategy0),
                          printing_strategy(1, strategy1),
                          dice=printing_dice(six_sided),
                          say=commentary)
    print('The final score is Player 0:', final0, 'vs Player 1:', final1)


def printing_strategy(who, strategy):
    """Return a strategy that behaves like STRATEGY and also prints the number of
    dice chosen. WHO is the player using it, 0 or 1.
    """
    def choose_and_print(score, opponent_score):
        num_rolls = strategy(score, opponent_score)
        if num_rolls == 0:
            print('Player', who, 'rolls 0 dice: Picky Piggy!')
        else:
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
        play_and_print(always_roll(5), always_roll(5))
    elif args.num_players == 1:
        play_and_print(interactive_strategy(0), always_roll(5))
    else:
        play_and_print(interactive_strategy(0), interactive_strategy(1))


if __name__ == '__main__':
    main()
