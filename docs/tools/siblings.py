#!/usr/bin/env python3
"""Siblings of labelled positions, scored by Stockfish: training data for chess's 1x1 net.

    python3 docs/tools/siblings.py SEED CHUNKS OUTDIR DATA...

DATA are `quatre label --teacher` files (the text format of docs/learning.md) of chess games
(`Boards=1x1 Promotions=chess`). Each written position is one random quiet move (no capture,
no promotion) away from a position of DATA, chosen at random with seed SEED: the siblings a
search visits, which game positions alone never show a net. Stockfish (`/usr/games/stockfish`,
one thread, 16 MB) scores each at 5,000 nodes; positions it finds a mate in are left out. Each
position is its own game line (`start=siblings`, the source game's result), 10,000 positions to
a file `OUTDIR/sib-SEED-K.txt` for K = 0 … CHUNKS−1, written whole (resumable: an existing file
is kept and its positions skipped in the random stream). About 200 positions a second on one
core. Needs python-chess (`pip install chess`).
"""
import os
import random
import sys

import chess
import chess.engine

PER_FILE = 10000


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    seed, chunks, outdir, data = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    src = []
    for f in data:
        res = None
        for line in open(f):
            p = line.rstrip("\n").split("\t")
            if line.startswith("quatre-selfplay"):
                res = [x for x in p if x.startswith("result=")][0][len("result="):]
            elif len(p) == 5:
                src.append((int(p[0]), p[4], res))
    rng = random.Random(seed)
    sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    sf.configure({"Threads": 1, "Hash": 16})
    os.makedirs(outdir, exist_ok=True)
    for k in range(chunks):
        out = os.path.join(outdir, "sib-%d-%d.txt" % (seed, k))
        if os.path.exists(out):
            for _ in range(PER_FILE):
                rng.random()
            continue
        lines, n = [], 0
        while n < PER_FILE:
            ply, fen, res = rng.choice(src)
            b = chess.Board(fen)
            b.castling_rights = 0
            quiet = [m for m in b.legal_moves if not b.is_capture(m) and not m.promotion]
            if not quiet:
                continue
            b.push(rng.choice(quiet))
            if b.is_game_over():
                continue
            info = sf.analyse(b, chess.engine.Limit(nodes=5000))
            s = info["score"].pov(b.turn)
            if s.is_mate() or not info.get("pv"):
                continue
            seat = 1 if b.turn == chess.WHITE else 2
            lines.append(
                "quatre-selfplay/1\thyperchess\tBoards=1x1,MaxPlies=0,Promotions=chess\tseed=%d\t"
                "index=%d\tnodes=5000\tstart=siblings\tresult=%s\tplies=%d\tpositions=1\t"
                "reason=a sibling of a labelled position" % (seed, k * PER_FILE + n, res, ply + 1))
            lines.append("%d\t%d\t%d\t%s\t%s" % (ply + 1, seat, s.score(), info["pv"][0].uci(), b.fen()))
            n += 1
        open(out + ".tmp", "w").write("\n".join(lines) + "\n")
        os.rename(out + ".tmp", out)
        print("wrote", out, flush=True)
    sf.quit()


if __name__ == "__main__":
    main()
