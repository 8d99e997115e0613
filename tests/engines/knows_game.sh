#!/bin/sh
# A test engine that declares a Game option (so the arena counts it as knowing the game), plays
# the move given as its second argument and appends every go line it gets to the file named by
# its first argument.
log="$1"
move="$2"
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name knows"; echo "option name Game type string default hyperchess"; echo "uciok";;
    isready) echo "readyok";;
    go*) echo "$line" >> "$log"; echo "bestmove $move";;
    quit) exit 0;;
  esac
done
