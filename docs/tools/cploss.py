#!/usr/bin/env python3
"""What each move of one engine cost in a match's chess games, by Stockfish's count.

    python3 docs/tools/cploss.py RECORDS.jsonl NAME [--depth 12] [--stockfish PATH] [--out MOVES.jsonl]

RECORDS.jsonl is a `quatre match --out` file of chess games (hyperchess `Boards=1x1` with chess's
promotions, against a chess engine); NAME is the seat name of the engine to judge. Stockfish
scores the position before each of that engine's moves and after it (`go depth D`, one thread),
both from the mover's view; a move's loss is how much lower the second is (0 when it is not;
scores clamped to +-1000, a mate counting 3000). It prints the average loss a move, by phase
(plies 0-19 of the game's moves; the endgame: six or fewer knights, bishops, rooks and queens),
and the moves that lost 150 or more from a position Stockfish put between -150 and +400. Needs
python-chess (`pip install chess`). The games have no castling (hyperchess has none).
"""
import argparse
import collections
import json

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("records")
    ap.add_argument("name")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--out", help="one JSON line per judged move")
    a = ap.parse_args()
    eng = chess.engine.SimpleEngine.popen_uci(a.stockfish)
    eng.configure({"Threads": 1, "Hash": 32})
    limit = chess.engine.Limit(depth=a.depth)
    out = open(a.out, "w") if a.out else None
    rows = []
    for line in open(a.records):
        d = json.loads(line)
        if a.name not in d.get("seats", []) or "result" not in d:
            continue
        me = d["seats"].index(a.name)
        b = chess.Board(d["start"])
        b.castling_rights = 0
        for m in d["opening"]:
            b.push_uci(m)
        for i, m in enumerate(d["moves"]):
            if (len(d["opening"]) + i) % 2 != me or b.is_game_over():
                b.push_uci(m)
                continue
            info = eng.analyse(b, limit)
            before = info["score"].pov(b.turn).score(mate_score=3000)
            best = info["pv"][0].uci() if info.get("pv") else ""
            fen = b.fen()
            pieces = sum(fen.split()[0].count(c) for c in "nbrqNBRQ")
            b.push_uci(m)
            if b.is_game_over():
                after = 3000 if b.is_checkmate() else 0
            else:
                after = -eng.analyse(b, limit)["score"].pov(b.turn).score(mate_score=3000)
            r = {"game": d["game"], "ply": i, "fen": fen, "move": m, "best": best,
                 "before": before, "after": after, "pieces": pieces}
            rows.append(r)
            if out:
                out.write(json.dumps(r) + "\n")
    eng.quit()
    clamp = lambda x: max(-1000, min(1000, x))
    loss = lambda r: max(0, clamp(r["before"]) - clamp(r["after"]))
    if not rows:
        print("no move of", a.name)
        return
    print("%s: %d moves, %.1f cp lost a move" % (a.name, len(rows), sum(map(loss, rows)) / len(rows)))
    phases = collections.defaultdict(list)
    for r in rows:
        if abs(r["before"]) <= 600:  # not yet decided
            ph = "opening" if r["ply"] < 20 else ("endgame" if r["pieces"] <= 6 else "middlegame")
            phases[ph].append(loss(r))
    for ph in ("opening", "middlegame", "endgame"):
        v = phases[ph]
        if v:
            print("  %-10s %5d moves, %.1f cp a move, %d lost 100 or more"
                  % (ph, len(v), sum(v) / len(v), sum(1 for x in v if x >= 100)))
    big = [r for r in rows if loss(r) >= 150 and -150 <= r["before"] <= 400]
    print("  %d moves lost 150 or more from a position between -150 and +400:" % len(big))
    for r in big:
        print("   game %d ply %d %s played %s (Stockfish: %s) %+d -> %+d"
              % (r["game"], r["ply"], r["fen"], r["move"], r["best"], r["before"], r["after"]))


if __name__ == "__main__":
    main()
