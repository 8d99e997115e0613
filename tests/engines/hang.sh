#!/bin/sh
# A minimal test engine for tests/arena.rs: never answers go (nor stop).
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name hang"; echo "uciok";;
    ugi) echo "id name hang"; echo "ugiok";;
    isready) echo "readyok";;
    go*) : ;;
    quit) exit 0;;
  esac
done
