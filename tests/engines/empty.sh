#!/bin/sh
# A minimal test engine for tests/arena.rs: answers bestmove without a move.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name empty"; echo "uciok";;
    ugi) echo "id name empty"; echo "ugiok";;
    isready) echo "readyok";;
    go*) echo "bestmove";;
    quit) exit 0;;
  esac
done
