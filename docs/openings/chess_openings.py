#!/usr/bin/env python3
"""Random balanced chess openings for hyperchess `Boards=1x1` matches against chess engines.

usage: chess_openings.py SEED COUNT PLIES OUT [AVOID_FILE...]

Plays PLIES random legal moves from the chess start (python-chess, `pip install chess`), keeps
a line when Stockfish (/usr/games/stockfish, Debian's) at depth 10 scores the position within
80 centipawns for the side to move, and writes COUNT distinct lines (none of AVOID_FILE's) as
`fen <chess start> moves …`: the chess start with a queen, not hyperchess 1x1's own start, so
that a chess engine can play them. Castling cannot occur in 6 plies; hyperchess has none.

docs/openings/chess-1x1-6ply-balanced.txt is `chess_openings.py 77 300 6 OUT`; the training
games of docs/learning.md ("Games against Stockfish as data") used
`chess_openings.py 5 1000 6 open-train.txt docs/openings/chess-1x1-6ply-balanced.txt`.
"""
import random
import sys

import chess
import chess.engine

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def main():
    seed, count, plies, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    avoid = set()
    for f in sys.argv[5:]:
        avoid |= {l.strip() for l in open(f) if not l.startswith("#")}
    rng = random.Random(seed)
    eng = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    start = chess.Board(START)
    seen, lines = set(), []
    while len(lines) < count:
        b = start.copy()
        mv = []
        for _ in range(plies):
            legal = list(b.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            mv.append(m.uci())
            b.push(m)
        if len(mv) < plies or b.is_game_over():
            continue
        line = "fen " + START + " moves " + " ".join(mv)
        if line in seen or line in avoid:
            continue
        seen.add(line)
        sc = eng.analyse(b, chess.engine.Limit(depth=10))["score"].relative
        if sc.is_mate() or abs(sc.score()) > 80:
            continue
        lines.append(line)
    eng.quit()
    with open(out, "w") as f:
        f.write(
            f"# {count} random {plies}-ply openings of chess (no castling possible), python-chess, "
            f"seed {seed}, kept when Stockfish 15.1 at depth 10 scores them within 80 cp for the "
            "side to move\n"
        )
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
