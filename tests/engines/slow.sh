#!/bin/sh
# A minimal test engine for tests/arena.rs: answers 0.5 s after go (past a short movetime).
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name slow"; echo "uciok";;
    ugi) echo "id name slow"; echo "ugiok";;
    isready) echo "readyok";;
    go*) sleep 0.5; echo "bestmove 1";;
    quit) exit 0;;
  esac
done
