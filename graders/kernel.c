/* The exact win-rate recursion for one pair of strategies, compiled: what graders/analysis.py's
 * win_tables computes in numpy one anti-diagonal at a time, state by state here, for every game
 * an edition's model describes (with or without a memory, extra turns or a swap).
 */
#include <stddef.h>

/* Each player carries a memory of MEMORY
 * classes, a turn may give the mover another (extra), and a rule may move both scores once a
 * turn's points are in (after, keeping their sum). Strategies see the two scores only
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

static void values_memory(const Game *g, int a, int b, int m, long k, const double *mine, const double *theirs,
                          double *out) {
    int memory = g->memory, goal = g->goal;
    size_t mm = (size_t)memory * memory;
    double won = 0.0;  /* the chance of the outcomes that end the game with the mover ahead */
    for (int o = 0; o < memory; o++)
        out[o] = 0.0;
    for (int c = 0; c < g->counts[k]; c++) {
        double p = g->probs[k * g->classes + c];
        long next, recall;
        if (k == 0 && c == 0) {
            size_t at = ((size_t)m * goal + a) * goal + b;
            next = g->zero[at];
            recall = g->zero_recall[at];
        } else {
            size_t at = (((size_t)k * memory + m) * goal + a) * g->classes + c;
            next = g->nexts[at];
            recall = g->recalls[at];
        }
        long mover = next, other = b;
        if (g->after != NULL) {
            size_t at = ((size_t)next * g->size + b) * 2;
            mover = g->after[at];
            other = g->after[at + 1];
        }
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

void win_memory(int goal, int size, int memory, int classes, const long *counts, const long *nexts,
                const long *recalls, const double *probs, const long *zero, const long *zero_recall,
                const long *after, const unsigned char *extra, const long *first, const long *second,
                double *win_first, double *win_second) {
    Game g = {goal, size, memory, classes, counts, nexts, recalls, zero, zero_recall, after, probs, extra};
    size_t mm = (size_t)memory * memory;
    double out[256];
    if (memory > 256)
        return;
    for (int total = 2 * goal - 2; total >= 0; total--) {
        int low = total - goal + 1 > 0 ? total - goal + 1 : 0;
        int high = total < goal - 1 ? total : goal - 1;
        for (int a = low; a <= high; a++) {
            int b = total - a;
            double *here_first = win_first + ((size_t)a * goal + b) * mm;
            double *here_second = win_second + ((size_t)a * goal + b) * mm;
            for (int m = 0; m < memory; m++) {
                values_memory(&g, a, b, m, first[a * goal + b], win_first, win_second, out);
                for (int o = 0; o < memory; o++)
                    here_first[(size_t)o * memory + m] = out[o];
                values_memory(&g, a, b, m, second[a * goal + b], win_second, win_first, out);
                for (int o = 0; o < memory; o++)
                    here_second[(size_t)o * memory + m] = out[o];
            }
        }
    }
}
