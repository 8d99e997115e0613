#!/usr/bin/env python3
"""A real UCI client drives quatre: python-chess's engine module (pip install chess), on
`Boards=1x1` with `Promotions=chess` (chess without castling: a pawn promotes to n, b, r or q,
as a chess GUI expects). Run by tests/real_clients.rs; standalone:
    python3 tests/clients/python_chess_client.py target/release/quatre
Every engine move is checked legal by python-chess's own board. Searches are limited by nodes or
depth, never by time, except the ponder exchange (whose outcome does not depend on speed).
Prints one summary line `python-chess: N passed, 0 failed` and exits non-zero on any failure."""
import random
import sys

import chess
import chess.engine

ENGINE = sys.argv[1]
failures = []
passed = 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAILED:", what, flush=True)


def open_engine():
    e = chess.engine.SimpleEngine.popen_uci([ENGINE], timeout=60)
    e.configure({"Boards": "1x1", "Promotions": "chess", "Threads": 1, "Hash": 16})
    return e


def random_move(board, rng):
    # Any chess move, rook promotions included (no castling: every FEN here has none).
    return rng.choice(list(board.legal_moves))


def play_game(engine, fen, seed, engine_white, max_plies=160):
    rng = random.Random(seed)
    board = chess.Board(fen)
    while not board.is_game_over() and board.ply() < max_plies:
        if (board.turn == chess.WHITE) == engine_white:
            r = engine.play(board, chess.engine.Limit(nodes=1500))
            ok = r.move is not None and board.is_legal(r.move)
            check(ok, "engine move %s legal in %s" % (r.move, board.fen()))
            if not ok:
                return board
            board.push(r.move)
        else:
            board.push(random_move(board, rng))
    return board


def main():
    engine = open_engine()
    openings = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 2",
        "8/5k2/8/8/8/8/2K5/6R1 w - - 0 1",
        # Pawns about to promote on both sides: the game runs through promotions to its end.
        "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    ]
    for i, fen in enumerate(openings):
        for white in (True, False):
            play_game(engine, fen, 100 + i * 2 + white, white)

    # A GUI plays on past a threefold repetition and the 100-ply rule (claims in chess).
    board = chess.Board()
    for _ in range(3):
        for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
            board.push_uci(uci)
    check(board.can_claim_threefold_repetition(), "threefold reached")
    r = engine.play(board, chess.engine.Limit(depth=3))
    check(r.move is not None and board.is_legal(r.move), "a move after threefold: %s" % r.move)
    board = chess.Board("8/5k2/8/8/8/8/2K5/6R1 w - - 0 1")
    shuffle = ["g1g2", "f7e7", "g2g1", "e7f7"]
    while board.halfmove_clock < 100:
        board.push_uci(shuffle[board.ply() % 4])
    check(board.can_claim_fifty_moves(), "100 plies reached")
    r = engine.play(board, chess.engine.Limit(depth=3))
    check(r.move is not None and board.is_legal(r.move), "a move after 100 plies: %s" % r.move)

    # Analysis: mate, multipv, searchmoves.
    board = chess.Board("k7/8/2K5/8/8/8/8/7R w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(mate=2))
    check(info["score"].white() == chess.engine.Mate(2), "mate 2 found: %s" % info.get("score"))
    infos = engine.analyse(chess.Board(), chess.engine.Limit(depth=4), multipv=3)
    check(len(infos) == 3 and all("pv" in i for i in infos), "multipv 3: %d lines" % len(infos))
    r = engine.play(chess.Board(), chess.engine.Limit(depth=3),
                    root_moves=[chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")])
    check(r.move in (chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")),
          "searchmoves respected: %s" % r.move)

    # Pondering: python-chess sends `go ponder` on the predicted reply, then ponderhit or stop.
    board = chess.Board()
    for _ in range(3):
        r = engine.play(board, chess.engine.Limit(depth=3), ponder=True)
        check(r.move is not None and board.is_legal(r.move), "move while pondering: %s" % r.move)
        board.push(r.move)
        board.push(random_move(board, random.Random(board.ply())))

    # Chess's start is chess's: python-chess sends `position startpos` for it and sees a queen
    # on d1 (the rules' 1x1 start has a guard there, which cannot go to h5).
    board = chess.Board()
    for uci in ("e2e4", "e7e5", "d1h5"):
        board.push_uci(uci)
    r = engine.play(board, chess.engine.Limit(depth=3))
    check(r.move is not None and board.is_legal(r.move), "a move after 2. Qh5: %s" % r.move)
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    check("pv" in info and len(info["pv"]) > 0, "a line python-chess reads after 2. Qh5")

    # A position the engine refuses (castling rights): no move for a position it did not get.
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    try:
        r = engine.play(board, chess.engine.Limit(depth=3))
        check(not r.move, "no move for a refused position, got %s" % r.move)
    except chess.engine.EngineError as e:
        check(True, "refused: %s" % e)
    # ... and the next good position is searched again.
    r = engine.play(chess.Board(), chess.engine.Limit(depth=2))
    check(r.move is not None, "a move after the refused position")
    engine.quit()
    print("python-chess: %d passed, %d failed" % (passed, len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
