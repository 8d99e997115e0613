#!/usr/bin/env python3
"""A tactical screen for MCTS in hyperchess: the positions where MCTS lost material against
alpha-beta, replayed one by one (docs/results.md, "2026-12-05 (morning)").

  mcts_blunders.py make QUATRE GAMES.jsonl ENGINE DEPTH LOSS SUITE.json
      Scores every position of the arena games in GAMES.jsonl (`quatre match --out`, hyperchess
      from its start) with QUATRE's alpha-beta at DEPTH plies, from each game's first ply until
      one side leads by more than 500 cp, and writes the positions where the seat named ENGINE
      moved and lost at least LOSS cp by that count (its score before, minus the score after).

  mcts_blunders.py run QUATRE SCORER SUITE.json LIMIT DEPTH LOSS [Option=Value ...]
      Asks QUATRE's MCTS (`Algorithm mcts`, one thread, the options given) for a move in each
      position of SUITE.json, within LIMIT (`nodes=8000` or `movetime=100`; with nodes the run is
      the same on every machine), scores the position after that move with SCORER's alpha-beta
      at DEPTH, and counts the moves that lose less than LOSS cp: one line per position, then
      `passed N of M`. A move that ends the game (no score after it) counts as a draw.

  mcts_blunders.py pair A.log B.log
      Compares two `run` logs position by position: how many each alone passed, and both.

Both engines speak the protocol on stdin/stdout (`QUATRE --game hyperchess`); the environment
reaches MCTS (e.g. the switches of docs/experiments/*.patch).
"""
import json
import subprocess
import sys
import time


def start(binary, options):
    p = subprocess.Popen([binary, '--game', 'hyperchess'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write('uci\nsetoption name Threads value 1\n')
    for k, v in options:
        p.stdin.write('setoption name %s value %s\n' % (k, v))
    p.stdin.write('isready\n')
    p.stdin.flush()
    while True:
        line = p.stdout.readline()
        if not line:
            sys.exit('%s: the engine ended' % binary)
        if 'error' in line:
            sys.exit('%s: %s' % (binary, line.strip()))
        if line.strip() == 'readyok':
            return p


def go(p, moves, limit, fresh=False):
    """The engine's score (cp, from the mover's view; mates as +-30000 less the distance) and
    best move for the position after `moves`; `fresh`: with an empty table (`ucinewgame`)."""
    p.stdin.write(('ucinewgame\n' if fresh else '') + 'position startpos' +
                  (' moves ' + ' '.join(moves) if moves else '') + '\ngo ' + limit + '\n')
    p.stdin.flush()
    score = None
    while True:
        t = p.stdout.readline().split()
        if not t:
            continue
        if t[0] == 'bestmove':
            return score, t[1]
        if 'score' in t:
            i = t.index('score')
            if t[i + 1] == 'cp':
                score = int(t[i + 2])
            elif t[i + 1] == 'mate':
                m = int(t[i + 2])
                score = 30000 - abs(m) if m > 0 else -30000 + abs(m)


def arena_games(path, who):
    """Each game of an arena file (`quatre match --out`), the seat named `who` in it and its
    moves from the start (the opening's, then the game's)."""
    for line in open(path):
        g = json.loads(line)
        yield g, g['seats'].index(who), g['opening'] + g['moves']


def make(binary, games, who, depth, loss, out):
    p = start(binary, [])
    suite = []
    for g, seat, moves in arena_games(games, who):
        scores = []
        for i in range(len(moves) + 1):
            s, best = go(p, moves[:i], 'depth %d' % depth)
            scores.append((s, best))
            if s is not None and abs(s) > 500:
                break
        found = 0
        for i in range(len(g['opening']), len(scores) - 1):
            before, best = scores[i]
            after = scores[i + 1][0]
            if i % 2 != seat or before is None or after is None:
                continue
            if before + after >= loss:
                found += 1
                suite.append(dict(game=g['game'], ply=i, moves=moves[:i], played=moves[i],
                                  ab_best=best, before=before, after=-after,
                                  loss=before + after, result=g['result'][seat]))
        print('game %d: %d plies scored, %d found' % (g['game'], len(scores), found), flush=True)
    json.dump(suite, open(out, 'w'), indent=0)
    print('%d positions written to %s' % (len(suite), out))


def run(binary, scorer, suite, limit, depth, loss, options):
    m = start(binary, [('Algorithm', 'mcts')] + options)
    s = start(scorer, [])
    passed = 0
    positions = json.load(open(suite))
    t0 = time.time()
    for b in positions:
        _, mv = go(m, b['moves'], limit.replace('=', ' '))
        after, _ = go(s, b['moves'] + [mv], 'depth %d' % depth)
        # No score after the move: the game is over (counted as a draw, score 0).
        lost = b['before'] + (after if after is not None else 0)
        ok = lost < loss
        passed += ok
        print(b['game'], b['ply'], mv, b['played'], b['ab_best'], lost, 'ok' if ok else '--',
              flush=True)
    print('passed %d of %d in %.0f s' % (passed, len(positions), time.time() - t0))


def pair(a, b):
    def load(f):
        d = {}
        for line in open(f):
            t = line.split()
            if len(t) == 7 and t[0] != 'passed':
                d[(t[0], t[1])] = t[6] == 'ok'
        return d
    x, y = load(a), load(b)
    k = set(x) & set(y)
    print('%d positions: %s alone %d, %s alone %d, both %d' % (
        len(k), a, sum(x[i] and not y[i] for i in k), b, sum(y[i] and not x[i] for i in k),
        sum(x[i] and y[i] for i in k)))


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[:1] == ['make'] and len(a) == 7:
        make(a[1], a[2], a[3], int(a[4]), int(a[5]), a[6])
    elif a[:1] == ['run'] and len(a) >= 7:
        run(a[1], a[2], a[3], a[4], int(a[5]), int(a[6]), [o.split('=', 1) for o in a[7:]])
    elif a[:1] == ['pair'] and len(a) == 3:
        pair(a[1], a[2])
    else:
        sys.exit(__doc__)
