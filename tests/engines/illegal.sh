#!/bin/sh
# A minimal test engine for tests/arena.rs: answers an illegal move.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name illegal"; echo "uciok";;
    ugi) echo "id name illegal"; echo "ugiok";;
    isready) echo "readyok";;
    go*) echo "bestmove 9";;
    quit) exit 0;;
  esac
done
