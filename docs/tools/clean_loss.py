#!/usr/bin/env python3
"""A chess net's loss on games no training file saw: the check `quatre train`'s held-out loss
cannot give when the data hold siblings (a sibling is held out by its own line while the
position it is one move away from trains).

    python3 docs/tools/clean_loss.py --quatre QUATRE --data FILE... --net NET...

FILE are `quatre label --teacher` files (the text format of docs/learning.md) of chess games
(`Boards=1x1 Promotions=chess`) that no net here was trained on. Their quiet positions (not in
check, the teacher's move neither a capture nor a promotion: those the trainer keeps), 20,000
drawn with seed 1, are evaluated by QUATRE's `eval` with each NET (`builtin` for the shipped
one); printed for each, the mean of (σ(eval/K) − σ(teacher's score/K))² with K = 420, beside
the hand evaluation's. Needs python-chess (`pip install chess`).
"""
import argparse, math, random, subprocess

import chess

ap = argparse.ArgumentParser()
ap.add_argument('--quatre', required=True)
ap.add_argument('--data', nargs='+', required=True)
ap.add_argument('--net', nargs='+', required=True)
ap.add_argument('--positions', type=int, default=20000)
args = ap.parse_args()

rows = []
for f in args.data:
    for line in open(f):
        p = line.rstrip('\n').split('\t')
        if len(p) != 5 or line.startswith('quatre') or not p[2].lstrip('-').isdigit():
            continue
        b = chess.Board(p[4])
        b.castling_rights = 0
        if b.is_check():
            continue
        try:
            m = chess.Move.from_uci(p[3])
        except ValueError:
            continue
        if b.is_capture(m) or m.promotion:
            continue
        rows.append((p[4], int(p[2])))
random.seed(1)
rows = random.sample(rows, min(args.positions, len(rows)))
K = 420.0


def sig(x):
    return 1 / (1 + math.exp(-x / K))


def evals(net):
    cmds = ['uci', 'setoption name Boards value 1x1', 'setoption name Promotions value chess',
            'setoption name Eval value net']
    if net != 'builtin':
        cmds.append('setoption name EvalFile value ' + net)
    for fen, _ in rows:
        cmds += ['position fen ' + fen, 'eval']
    cmds.append('quit')
    out = subprocess.run([args.quatre], input='\n'.join(cmds) + '\n', capture_output=True,
                         text=True).stdout
    res = []
    for line in out.splitlines():
        # info string eval 87 cp for p2 (static evaluation, net hyperchess-1x1/5; hand 58 cp)
        if line.startswith('info string eval'):
            w = line.split()
            res.append((int(w[3]), int(w[w.index('hand') + 1])))
    if len(res) != len(rows):
        raise SystemExit(f'{net}: {len(res)} evaluations for {len(rows)} positions (a file refused?)')
    return res


print('positions', len(rows))
for net in args.net:
    r = evals(net)
    loss = sum((sig(e) - sig(s)) ** 2 for (e, _), (_, s) in zip(r, rows)) / len(rows)
    hand = sum((sig(h) - sig(s)) ** 2 for (_, h), (_, s) in zip(r, rows)) / len(rows)
    print(f'{net}: net {loss:.5f}, hand evaluation {hand:.5f}')
