/* The exact win-rate recursion for one pair of strategies, for the contest's many pairs.
 *
 * The same computation as graders/analysis.py:win_tables, state by state instead of one
 * anti-diagonal at a time: numpy's per-call cost dominates when thousands of pairs are solved,
 * and this loop does each pair in about a millisecond. Tables are row-major: counts[k] (how many classes k dice have), nexts[k][a][c],
 * probs[k][c], zero[a][b], extra[a'][b] (NULL when no rule gives extra turns), the strategies
 * first[a][b] and second[a][b], and the results win_first / win_second, size x size, zeroed
 * by the caller so that entries past the goal mean "that player has already lost".
 */
#include <stddef.h>

static double value(int goal, int size, int classes, const long *counts, const long *nexts,
                    const double *probs, const long *zero, const unsigned char *extra, int a, int b, long k,
                    const double *mine, const double *theirs) {
    double total = 0.0;
    for (int c = 0; c < counts[k]; c++) {  /* the classes of k dice come first; the rest is padding */
        double p = probs[k * classes + c];
        long next = (k == 0 && c == 0) ? zero[a * goal + b] : nexts[((size_t)k * goal + a) * classes + c];
        double later;
        if (extra != NULL && next < goal && extra[next * goal + b])
            later = mine[next * size + b];
        else
            later = 1.0 - theirs[(size_t)b * size + next];
        total += p * later;
    }
    return total;
}

void win_pair(int goal, int size, int classes, const long *counts, const long *nexts, const double *probs,
              const long *zero,
              const unsigned char *extra, const long *first, const long *second,
              double *win_first, double *win_second) {
    for (int total = 2 * goal - 2; total >= 0; total--) {
        int low = total - goal + 1 > 0 ? total - goal + 1 : 0;
        int high = total < goal - 1 ? total : goal - 1;
        for (int a = low; a <= high; a++) {
            int b = total - a;
            win_first[a * size + b] = value(goal, size, classes, counts, nexts, probs, zero, extra, a, b,
                                            first[a * goal + b], win_first, win_second);
            win_second[a * size + b] = value(goal, size, classes, counts, nexts, probs, zero, extra, a, b,
                                             second[a * goal + b], win_second, win_first);
        }
    }
}
