#!/bin/sh
# A minimal test engine for tests/arena.rs: exits when asked to move.
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name exits"; echo "uciok";;
    ugi) echo "id name exits"; echo "ugiok";;
    isready) echo "readyok";;
    go*) exit 3;;
    quit) exit 0;;
  esac
done
