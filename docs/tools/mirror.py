#!/usr/bin/env python3
"""Mirrored copies of chess (1x1) training data: the same positions with the colours swapped,
the files reversed, or both, for `quatre train`.

    python3 docs/tools/mirror.py MODE OUT DATA...

MODE is `colours` (the board turned over and the colours swapped: White's pieces on e2 become
Black's on e7, the other side to move, the results swapped), `files` (the a-file becomes the
h-file; the same side to move) or `both` (the two in turn). Chess on one board has no castling
(`Boards=1x1 Promotions=chess`), so each is an exact symmetry of the rules: the mirrored
position has the same value for its mover, and each line keeps its score and gets its move
mirrored. DATA are data files of chess (the text format of docs/learning.md: `quatre selfplay`,
`quatre label`, `docs/tools/siblings.py`); OUT gets every game of them, mirrored, with
`mirror=MODE` added to its reason.
Positions may hold guards (`g`, hyperchess's own start; a guard moves as a king and is mirrored
as any piece). Plain Python, no module needed.
"""
import os
import sys

OPTIONS = "Boards=1x1,MaxPlies=0,Promotions=chess"


def square(s, mode):
    f, r = ord(s[0]) - ord("a"), int(s[1]) - 1
    if mode in ("colours", "both"):
        r = 7 - r
    if mode in ("files", "both"):
        f = 7 - f
    return "%s%d" % (chr(ord("a") + f), r + 1)


def move(m, mode):
    if m == "-" or len(m) < 4:
        return m
    return square(m[0:2], mode) + square(m[2:4], mode) + m[4:]


def board(fen, mode):
    rows, side, castling, ep, rest = fen.split(" ", 4)
    if castling != "-":
        sys.exit("mirror.py: castling rights in %s (chess on one board has none)" % fen)
    rows = rows.split("/")
    if mode in ("colours", "both"):
        rows = [r.swapcase() for r in reversed(rows)]
        side = "b" if side == "w" else "w"
    if mode in ("files", "both"):
        rows = [flip_row(r) for r in rows]
    if ep != "-":
        ep = square(ep, mode)
    return " ".join(["/".join(rows), side, castling, ep, rest])


def flip_row(row):
    """A FEN row read from the h-file: runs of empty squares stay runs."""
    cells, run = [], 0
    for c in row:
        if c.isdigit():
            run = run * 10 + int(c)
        else:
            if run:
                cells.append(str(run))
                run = 0
            cells.append(c)
    if run:
        cells.append(str(run))
    return "".join(reversed(cells))


def header(line, mode):
    p = line.split("\t")
    if p[2] != OPTIONS:
        sys.exit("mirror.py: not chess on one board (%s): %s" % (OPTIONS, p[2]))
    for i, x in enumerate(p):
        if x.startswith("result=") and mode in ("colours", "both"):
            p[i] = "result=" + ",".join(reversed(x[len("result="):].split(",")))
    p[-1] = p[-1] + " (mirror=%s)" % mode
    return "\t".join(p)


def position(line, mode):
    ply, seat, score, m, fen = line.split("\t", 4)
    if mode in ("colours", "both"):
        seat = "2" if seat == "1" else "1"
    return "\t".join([ply, seat, score, move(m, mode), board(fen, mode)])


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("colours", "files", "both"):
        sys.exit(__doc__)
    mode, out, data = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(out + ".tmp", "w") as w:
        for f in data:
            for line in open(f):
                line = line.rstrip("\n")
                if line.startswith("quatre-selfplay/"):
                    w.write(header(line, mode) + "\n")
                elif line:
                    w.write(position(line, mode) + "\n")
    os.rename(out + ".tmp", out)


if __name__ == "__main__":
    main()
