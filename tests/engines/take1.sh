#!/bin/sh
# A minimal test engine for tests/arena.rs: plays the move 1 (always legal in the test Nim).
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name take1"; echo "uciok";;
    ugi) echo "id name take1"; echo "ugiok";;
    isready) echo "readyok";;
    go*) echo "info depth 1 score cp 0"; echo "bestmove 1";;
    quit) exit 0;;
  esac
done
