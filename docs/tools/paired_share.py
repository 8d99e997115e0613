#!/usr/bin/env python3
"""Paired reward share of one engine between two sets of arena games (`quatre match --out`).

  paired_share.py ENGINE A.jsonl [A2.jsonl ...] -- B.jsonl [B2.jsonl ...]

Reads ENGINE's reward (its share of each game's point) in every finished game of both sets,
pairs the games by (seed, game index) (the same opening and seats when both matches used the
same seeds), and prints each set's share over the common games and their difference, A minus B,
with a 95% interval from the games' differences (docs/results.md, 2026-12-07 (night)).
"""
import json
import math
import sys


def load(files, engine):
    out = {}
    for f in files:
        for line in open(f):
            r = json.loads(line)
            if 'result' in r and engine in r.get('seats', []):
                out[(r['seed'], r['game'])] = r['result'][r['seats'].index(engine)]
    return out


def main():
    args = sys.argv[1:]
    if len(args) < 4 or '--' not in args:
        sys.exit(__doc__)
    engine, rest = args[0], args[1:]
    cut = rest.index('--')
    a, b = load(rest[:cut], engine), load(rest[cut + 1:], engine)
    keys = sorted(set(a) & set(b))
    if len(keys) < 2:
        sys.exit('fewer than 2 games in common')
    d = [a[k] - b[k] for k in keys]
    m = sum(d) / len(d)
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))
    print('%d common games: A %.3f, B %.3f, A - B %+.3f ± %.3f (95%%); A better in %d, B in %d'
          % (len(keys), sum(a[k] for k in keys) / len(keys), sum(b[k] for k in keys) / len(keys),
             m, 1.96 * sd / math.sqrt(len(d)), sum(x > 0 for x in d), sum(x < 0 for x in d)))


if __name__ == '__main__':
    main()
