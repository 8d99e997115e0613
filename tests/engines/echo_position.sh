#!/bin/sh
# A test engine that plays the move 1 and appends every setoption, position and go line it gets
# to the file named by its first argument.
log="$1"
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name echo"; echo "uciok";;
    ugi) echo "id name echo"; echo "ugiok";;
    isready) echo "readyok";;
    position*|setoption*) echo "$line" >> "$log";;
    go*) echo "$line" >> "$log"; echo "bestmove 1";;
    quit) exit 0;;
  esac
done
