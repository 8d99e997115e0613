#!/bin/sh
# A minimal test engine for tests/arena.rs: prints garbage around a legal move.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name garbage"; echo "uciok";;
    ugi) echo "id name garbage"; echo "ugiok";;
    isready) echo "readyok";;
    go*) echo "hello there"; printf "\377\376 not utf8\n"; echo "bestmovex 2"; echo ""; echo "readyok"; echo "bestmove 1 ponder 2";;
    quit) exit 0;;
  esac
done
