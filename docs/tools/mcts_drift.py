#!/usr/bin/env python3
"""How much a search's moves lose in hyperchess, position by position, by a deeper alpha-beta's
count: the small losses that decide MCTS's games against alpha-beta at 1 s (docs/results.md,
"2026-12-07 (afternoon)"), which the tactical screen (mcts_blunders.py, 150 cp or more) misses.

  mcts_drift.py make QUATRE GAMES.jsonl ENGINE DEPTH EVERY MAXCP SUITE.json
      Every EVERY-th position where the seat named ENGINE moved in the arena games of
      GAMES.jsonl (from ply 8), scored by QUATRE's alpha-beta at DEPTH plies (a fresh table for
      each, so the score is the same on any machine), until one side leads by more than MAXCP.
  mcts_drift.py run QUATRE SCORER SUITE.json LIMIT DEPTH CACHE.json [Option=Value ...]
      QUATRE's move in each position (MCTS unless `Algorithm=alphabeta` is given; one thread;
      LIMIT `nodes=30000` or `depth=2`), the position after it scored by SCORER's alpha-beta at
      DEPTH (kept in CACHE.json, for the next runs), and the move's loss:
      the score before plus the score after from the other side, clamped to +-300 cp. One line
      per position (game, ply, move, alpha-beta's move in the game's scoring, loss), then the mean.
      CACHE.json holds scores by the moves from the start, so runs on any suite can share it.
  mcts_drift.py pair A.log B.log
      The two runs' losses paired position by position: the mean difference, 1.96 standard
      errors, and in how many positions both lost the same.

The suite of 2026-12-07: docs/positions/hyperchess-mcts-drift.json (237 positions, depth 6).
"""
import json
import math
import os
import sys
import time

from mcts_blunders import arena_games, go, start  # shared with the tactical screen


def make(binary, games, who, depth, every, maxcp, out):
    p = start(binary, [])
    suite = []
    for g, seat, moves in arena_games(games, who):
        n = 0
        for i in range(8, len(moves)):
            if i % 2 != seat:
                continue
            n += 1
            if n % every:
                continue
            s, best = go(p, moves[:i], 'depth %d' % depth, True)
            if s is None or abs(s) > maxcp:
                break
            suite.append(dict(game=g['game'], ply=i, moves=moves[:i], played=moves[i],
                              ab_best=best, before=s))
        print('game %d: %d positions' % (g['game'], len(suite)), flush=True)
    json.dump(suite, open(out, 'w'), indent=0)


def run(binary, scorer, suite, limit, depth, cache_file, options):
    opts = dict(options)
    opts.setdefault('Algorithm', 'mcts')
    m = start(binary, list(opts.items()))
    s = start(scorer, [])
    cache = json.load(open(cache_file)) if os.path.exists(cache_file) else {}
    total = 0
    positions = json.load(open(suite))
    t0 = time.time()
    for k, b in enumerate(positions):
        _, mv = go(m, b['moves'], limit.replace('=', ' '))
        # (By the position itself: a suite's game numbers repeat when it comes from two files.)
        key = ' '.join(b['moves'] + [mv])
        if key not in cache:
            after, _ = go(s, b['moves'] + [mv], 'depth %d' % depth, True)
            cache[key] = after if after is not None else 0
            if k % 10 == 0:
                json.dump(cache, open(cache_file, 'w'))
        lost = max(-300, min(300, b['before'] + cache[key]))
        total += lost
        print(b['game'], b['ply'], mv, b['ab_best'], lost, flush=True)
    json.dump(cache, open(cache_file, 'w'))
    print('mean loss %.1f cp over %d in %.0f s' % (total / len(positions), len(positions),
                                                     time.time() - t0))


def pair(a, b):
    def load(f):
        d = {}
        for line in open(f):
            t = line.split()
            if len(t) == 5:
                d[len(d)] = int(t[4])
        return d
    x, y = load(a), load(b)
    k = sorted(set(x) & set(y))
    if len(k) < 2:
        sys.exit('pair: %d positions in both logs; at least 2 are needed' % len(k))
    d = [x[i] - y[i] for i in k]
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((v - mean) ** 2 for v in d) / (len(d) - 1))
    print('%d positions: mean loss %s %.1f, %s %.1f, difference %.1f +- %.1f (1.96 se); '
          'equal losses %d' % (len(k), a, sum(x[i] for i in k) / len(k), b,
                            sum(y[i] for i in k) / len(k), mean, 1.96 * sd / math.sqrt(len(d)),
                            sum(v == 0 for v in d)))


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[:1] == ['make'] and len(a) == 8:
        make(a[1], a[2], a[3], int(a[4]), int(a[5]), int(a[6]), a[7])
    elif a[:1] == ['run'] and len(a) >= 7:
        run(a[1], a[2], a[3], a[4], int(a[5]), a[6], [o.split('=', 1) for o in a[7:]])
    elif a[:1] == ['pair'] and len(a) == 3:
        pair(a[1], a[2])
    else:
        sys.exit(__doc__)
