/* The exact win-rate recursion for one pair of strategies, compiled: what graders/analysis.py's
 * win_tables computes in numpy one anti-diagonal at a time, state by state here, for every game
 * an edition's model describes (with or without a memory, extra turns or a swap).
 */
#include <stddef.h>
#include <stdlib.h>

/* Each player carries a memory of MEMORY
 * classes, a turn may give the mover another (extra), and a rule may move both scores once a
 * turn's points are in (after, which never lowers their sum). Strategies see the two scores only
 * (first[a][b], second[a][b]). Tables are win[a][b][o][m] (the mover's score, the other's, the
 * other's memory, the mover's) over goal x goal x memory x memory, as graders/analysis.py's
 * win_tables gives them: nexts[k][m][a][c] and recalls[k][m][a][c] (the new score and the memory
 * carried on), zero[m][a][b] and zero_recall[m][a][b] for rolling no dice, after[a'][b'][2]
 * (NULL: the scores are kept), extra[a'][b] (NULL: never another turn). A turn that leaves the
 * mover past the goal wins; one that leaves the other past it (a swap) loses. The memories of the
 * other player are the innermost loop, so each outcome reads one contiguous row. */
typedef struct {
    int goal, size, memory, classes;
    const long *counts, *nexts, *recalls, *zero, *zero_recall, *after;
    const double *probs;
    const unsigned char *extra;
} Game;

/* Where outcome C of rolling K dice from (a, b) with the mover's memory M leads: the mover's score
 * and the other's once the turn's points are in (and any swap), and the memory the mover carries on. */
static void outcome(const Game *g, int a, int b, int m, long k, int c, long *mover, long *other, long *recall) {
    long next;
    if (k == 0 && c == 0) {
        size_t at = ((size_t)m * g->goal + a) * g->goal + b;
        next = g->zero[at];
        *recall = g->zero_recall[at];
    } else {
        size_t at = (((size_t)k * g->memory + m) * g->goal + a) * g->classes + c;
        next = g->nexts[at];
        *recall = g->recalls[at];
    }
    *mover = next;
    *other = b;
    if (g->after != NULL) {
        size_t at = ((size_t)next * g->size + b) * 2;
        *mover = g->after[at];
        *other = g->after[at + 1];
    }
}

static void values_memory(const Game *g, int a, int b, int m, long k, const double *mine, const double *theirs,
                          double *out) {
    int memory = g->memory, goal = g->goal;
    size_t mm = (size_t)memory * memory;
    double won = 0.0;  /* the chance of the outcomes that end the game with the mover ahead */
    for (int o = 0; o < memory; o++)
        out[o] = 0.0;
    for (int c = 0; c < g->counts[k]; c++) {
        double p = g->probs[k * g->classes + c];
        long mover, other, recall;
        outcome(g, a, b, m, k, c, &mover, &other, &recall);
        if (mover >= goal) {  /* the mover has won (whatever the other's score) */
            won += p;
        } else if (other >= goal) {  /* the other has: nothing to add */
        } else if (g->extra != NULL && g->extra[(size_t)mover * goal + other]) {
            const double *row = mine + ((size_t)mover * goal + other) * mm + recall;
            for (int o = 0; o < memory; o++)
                out[o] += p * row[(size_t)o * memory];
        } else {
            const double *row = theirs + ((size_t)other * goal + mover) * mm + (size_t)recall * memory;
            for (int o = 0; o < memory; o++)
                out[o] += p * (1.0 - row[o]);
        }
    }
    for (int o = 0; o < memory; o++)
        out[o] += won;
}

/* One pass over every state, in order of decreasing score sum, for the searches of a game with a
 * memory (graders/analysis.py's full_best_response, reach-weighted improvement and the second
 * seat), one player's way of choosing each:
 *   FIXED     the number of dice a score-only table first[a][b] gives;
 *   FULL      the number a full-state table first[a][b][o][m] gives;
 *   BEST      the number best at each full state (ties: fewer dice), written to choice[a][b][o][m];
 *   IMPROVE   at each pair of scores, the number best on average over the states behind it, weighed
 *             by weights[a][b][o][m] (the fewest dice among those within TIE of the best); the current
 *             choice first[a][b] stays unless that one gains more than TIE; written to choice[a][b].
 * The second player's table is FIXED or FULL (second_full). Tables as in win_memory. */
enum { FIXED = 0, FULL = 1, BEST = 2, IMPROVE = 3 };
#define MOST_DICE 10
#define TIE 1e-12  /* gains closer than this are the same, whatever the order of the sums */

static void all_options(const Game *g, int a, int b, const double *mine, const double *theirs, double *options) {
    /* options[(k * memory + m) * memory + o]: the mover's chance rolling k dice with memories (o, m). */
    for (int k = 0; k <= MOST_DICE; k++)
        for (int m = 0; m < g->memory; m++)
            values_memory(g, a, b, m, k, mine, theirs, options + ((size_t)k * g->memory + m) * g->memory);
}

static void fixed(const Game *g, int a, int b, long k, double *mine, const double *theirs) {
    /* The mover's chances at (a, b) rolling k dice, for every pair of memories, written in place. */
    int memory = g->memory;
    size_t at = ((size_t)a * g->goal + b) * memory * memory;
    double out[256];
    for (int m = 0; m < memory; m++) {
        values_memory(g, a, b, m, k, mine, theirs, out);
        for (int o = 0; o < memory; o++)
            mine[at + (size_t)o * memory + m] = out[o];
    }
}

static void choose(const Game *g, int mode, int a, int b, const long *table, const double *weights,
                   const double *options, double *here, long *choice) {
    int memory = g->memory, goal = g->goal;
    size_t mm = (size_t)memory * memory, at = ((size_t)a * goal + b) * mm;
    long pick = 0;
    if (mode == IMPROVE) {
        double gain[MOST_DICE + 1];
        for (int k = 0; k <= MOST_DICE; k++) {
            gain[k] = 0.0;
            for (int m = 0; m < memory; m++)
                for (int o = 0; o < memory; o++)
                    gain[k] += options[((size_t)k * memory + m) * memory + o] * weights[at + (size_t)o * memory + m];
        }
        double most = gain[0];
        for (int k = 1; k <= MOST_DICE; k++)
            if (gain[k] > most)
                most = gain[k];
        long best = 0;  /* the fewest dice within rounding of the most */
        while (gain[best] < most - TIE)
            best++;
        pick = table[a * goal + b];
        if (gain[best] > gain[pick] + TIE)
            pick = best;
        choice[a * goal + b] = pick;
    }
    for (int m = 0; m < memory; m++) {
        for (int o = 0; o < memory; o++) {
            long k = mode == FIXED ? table[a * goal + b] : mode == FULL ? table[at + (size_t)o * memory + m] : pick;
            if (mode == BEST) {
                k = 0;
                for (int j = 1; j <= MOST_DICE; j++)
                    if (options[((size_t)j * memory + m) * memory + o] > options[((size_t)k * memory + m) * memory + o])
                        k = j;
                choice[at + (size_t)o * memory + m] = k;
            }
            here[at + (size_t)o * memory + m] = options[((size_t)k * memory + m) * memory + o];
        }
    }
}

int win_memory(int goal, int size, int memory, int classes, const long *counts, const long *nexts,
               const long *recalls, const double *probs, const long *zero, const long *zero_recall,
               const long *after, const unsigned char *extra, const long *first, const long *second,
               double *win_first, double *win_second);

int search_memory(int goal, int size, int memory, int classes, const long *counts, const long *nexts,
                  const long *recalls, const double *probs, const long *zero, const long *zero_recall,
                  const long *after, const unsigned char *extra, int mode, const long *first, const double *weights,
                  int second_full, const long *second, double *win_first, double *win_second, long *choice) {
    Game g = {goal, size, memory, classes, counts, nexts, recalls, zero, zero_recall, after, probs, extra};
    size_t mm = (size_t)memory * memory;
    if (memory > 256)
        return -1;  /* fixed()'s buffer */
    double *options = malloc(sizeof(double) * (MOST_DICE + 1) * mm);
    if (options == NULL)
        return -1;
    for (int total = 2 * goal - 2; total >= 0; total--) {
        int low = total - goal + 1 > 0 ? total - goal + 1 : 0;
        int high = total < goal - 1 ? total : goal - 1;
        for (int a = low; a <= high; a++) {
            int b = total - a;
            if (mode == FIXED)
                fixed(&g, a, b, first[a * goal + b], win_first, win_second);
            else {
                all_options(&g, a, b, win_first, win_second, options);
                choose(&g, mode, a, b, first, weights, options, win_first, choice);
            }
            if (!second_full)
                fixed(&g, a, b, second[a * goal + b], win_second, win_first);
            else {
                all_options(&g, a, b, win_second, win_first, options);
                choose(&g, FULL, a, b, second, NULL, options, win_second, NULL);
            }
        }
    }
    free(options);
    return 0;
}

/* How likely each state where the first strategy moves is to come up (graders/analysis.py's
 * reach): probability mass pushed forward from the start, in order of increasing score sum, for a
 * game starting at (0, 0) with both memories START, each seat taken half the time. here[a][b][o][m]
 * is the first strategy's, there the second's (both zeroed by the caller, goal x goal x memory x
 * memory). */
static void push(const Game *g, int a, int b, long k, const double *from, double *same, double *other_side) {
    int memory = g->memory, goal = g->goal;
    size_t mm = (size_t)memory * memory;
    const double *mass = from + ((size_t)a * goal + b) * mm;
    for (int m = 0; m < memory; m++) {
        for (int c = 0; c < g->counts[k]; c++) {
            double p = g->probs[k * g->classes + c];
            long mover, other, recall;
            outcome(g, a, b, m, k, c, &mover, &other, &recall);
            if (mover >= goal || other >= goal)
                continue;  /* the game is over */
            if (g->extra != NULL && g->extra[(size_t)mover * goal + other]) {
                double *to = same + ((size_t)mover * goal + other) * mm + recall;
                for (int o = 0; o < memory; o++)
                    to[(size_t)o * memory] += p * mass[(size_t)o * memory + m];
            } else {
                double *to = other_side + ((size_t)other * goal + mover) * mm + (size_t)recall * memory;
                for (int o = 0; o < memory; o++)
                    to[o] += p * mass[(size_t)o * memory + m];
            }
        }
    }
}

void reach_memory(int goal, int size, int memory, int classes, const long *counts, const long *nexts,
                  const long *recalls, const double *probs, const long *zero, const long *zero_recall,
                  const long *after, const unsigned char *extra, const long *first, const long *second,
                  double *here, double *there) {
    Game g = {goal, size, memory, classes, counts, nexts, recalls, zero, zero_recall, after, probs, extra};
    for (int total = 0; total <= 2 * goal - 2; total++) {
        int low = total - goal + 1 > 0 ? total - goal + 1 : 0;
        int high = total < goal - 1 ? total : goal - 1;
        for (int a = low; a <= high; a++) {
            int b = total - a;
            push(&g, a, b, first[a * goal + b], here, here, there);
            push(&g, a, b, second[a * goal + b], there, there, here);
        }
    }
}

/* Both players' chances at every state for two score-only strategies (graders/analysis.py's win_tables). */
int win_memory(int goal, int size, int memory, int classes, const long *counts, const long *nexts,
               const long *recalls, const double *probs, const long *zero, const long *zero_recall,
               const long *after, const unsigned char *extra, const long *first, const long *second,
               double *win_first, double *win_second) {
    return search_memory(goal, size, memory, classes, counts, nexts, recalls, probs, zero, zero_recall, after,
                         extra, FIXED, first, NULL, 0, second, win_first, win_second, NULL);
}

/* A pair of strategies in a game of tactics (graders/tactics.py's _solve), from each player's
 * distribution of turn gains: ours[s][o][k] (goal x goal x (goal + 1)) is the chance that my turn at
 * (s, o) scores k points (the last column: the goal or more), others[o][s][k] theirs. v[s][o] (goal x
 * (2 goal + 1)) is my chance to win moving at (s, o), x[s][o] ((2 goal + 1) x goal) the same when
 * they move; the caller pads them (v 0 where their score is past the goal, x 1 where mine is). A
 * state where both may hand the turn back with nothing scored is the same state again: solved as
 * the two-unknown system it is (a game that never ends is won by nobody). */
void tactic_pair(int goal, const double *ours, const double *others, double *v, double *x) {
    int wide = 2 * goal + 1, gains = goal + 1;
    for (int total = 2 * goal - 2; total >= 0; total--) {
        int low = total - goal + 1 > 0 ? total - goal + 1 : 0;
        int high = total < goal - 1 ? total : goal - 1;
        for (int s = low; s <= high; s++) {
            int o = total - s;
            const double *mine = ours + ((size_t)s * goal + o) * gains;
            const double *theirs = others + ((size_t)o * goal + s) * gains;
            double c_me = 0.0, c_them = 0.0;
            for (int k = 1; k <= goal; k++) {
                c_me += mine[k] * x[(size_t)(s + k) * goal + o];
                c_them += theirs[k] * v[(size_t)s * wide + o + k];
            }
            double p_me = mine[0], p_them = theirs[0];
            double loop = 1.0 - p_me * p_them;
            double value = loop > 0 ? (c_me + p_me * c_them) / loop : 0.0;
            v[(size_t)s * wide + o] = value;
            x[(size_t)s * goal + o] = c_them + p_them * value;
        }
    }
}
