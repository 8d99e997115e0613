#!/usr/bin/env python3
"""The time of one MCTS search, with or without a learned move policy (docs/results.md,
"2026-12-07 (early morning)").

  mcts_policy_time.py QUATRE POLICY|- NODES REPS [MOVE ...]

Starts QUATRE (`--game hyperchess`, `Threads 1`, `Algorithm mcts`; with a POLICY file also
`Policy net`, `PolicyFile POLICY`, `PolicyWeight 0`), then REPS times searches the position
after the MOVEs from the start with `go nodes NODES` (MCTS starts each search afresh). Prints
the median wall time from `go` to `bestmove`, in seconds, and the move (the same move for the
same build and options on every run: one thread, fixed playouts). Pin it to a core (`taskset -c
0`) and alternate the builds compared, as absolute times drift on a shared machine.
"""
import sys
import time

from mcts_blunders import go, start


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    binary, policy, nodes, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    options = [('Algorithm', 'mcts')]
    if policy != '-':
        options += [('Policy', 'net'), ('PolicyFile', policy), ('PolicyWeight', '0')]
    p = start(binary, options)
    times = []
    best = None
    for _ in range(reps):
        begin = time.time()
        _, best = go(p, sys.argv[5:], 'nodes %d' % nodes)
        times.append(time.time() - begin)
    p.stdin.write('quit\n')
    p.stdin.flush()
    times.sort()
    print('%.3f %s' % (times[len(times) // 2], best))


if __name__ == '__main__':
    main()
