#!/usr/bin/env python3
"""Which of two searches is stronger at three seats, from matches of both line-ups: one X against
two Y, and one Y against two X (`quatre match --out` files of either, in any mix).

  mixed_share.py X Y GAMES.jsonl [GAMES2.jsonl ...]

A seat's engine is X when its name starts with X, Y when it starts with Y (e.g. `mcts` and `brs`
for seats named mcts, brs1, brs2 or brs, mcts1, mcts2). For each game, d = X's mean reward per
seat minus Y's. A line-up alone says little: a lone engine against two copies of another can
score more than its search alone would (in chess for three at 100 ms a move the lone seat was
worth about a tenth of a share, whichever search held it; docs/results.md, 2026-12-08 (small
hours)). So the script prints, for each line-up, the games, each side's share per seat and d
(95% interval over the games); then D, the mean of the two line-ups' d (each weighted alike):
above 0 X is the stronger, with its 95% interval; and the lone seat's edge, (d of one X − d of
one Y) / 3, what being alone added to a seat's share, whichever search held it.
"""
import json
import math
import sys


def side(name, x, y):
    if name.startswith(x):
        return 'X'
    if name.startswith(y):
        return 'Y'
    sys.exit('seat %s is neither %s nor %s' % (name, x, y))


def mean_ci(v):
    m = sum(v) / len(v)
    var = sum((a - m) ** 2 for a in v) / (len(v) - 1) if len(v) > 1 else float('nan')
    return m, var / len(v)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    x, y = sys.argv[1], sys.argv[2]
    lineups = {}
    for f in sys.argv[3:]:
        for line in open(f):
            r = json.loads(line)
            if 'result' not in r:
                continue
            kinds = [side(s, x, y) for s in r['seats']]
            xs = [v for k, v in zip(kinds, r['result']) if k == 'X']
            ys = [v for k, v in zip(kinds, r['result']) if k == 'Y']
            if not xs or not ys:
                continue
            sx, sy = sum(xs) / len(xs), sum(ys) / len(ys)
            lineups.setdefault((len(xs), len(ys)), []).append((sx, sy, sx - sy))
    ds = {}
    for nx, ny in sorted(lineups):
        g = lineups[(nx, ny)]
        d, var = mean_ci([t[2] for t in g])
        ds[(nx, ny)] = (d, var)
        print('%d %s against %d %s: %d games; per seat %s %.3f, %s %.3f; d %+.3f ± %.3f'
              % (nx, x, ny, y, len(g), x, sum(t[0] for t in g) / len(g),
                 y, sum(t[1] for t in g) / len(g), d, 1.96 * math.sqrt(var)))
    if set(ds) == {(1, 2), (2, 1)}:
        (d1, v1), (d2, v2) = ds[(1, 2)], ds[(2, 1)]
        D = (d1 + d2) / 2
        print('D (%s minus %s, the line-ups alike) %+.3f ± %.3f; the lone seat\'s edge %+.3f ± %.3f'
              % (x, y, D, 1.96 * math.sqrt(v1 + v2) / 2, (d1 - d2) / 3,
                 1.96 * math.sqrt(v1 + v2) / 3))
    else:
        print('D needs games of both three-seat line-ups (one %s against two %s, one %s against two %s)'
              % (x, y, y, x))


if __name__ == '__main__':
    main()
