#!/bin/sh
# A test engine that plays the move 1 and appends every setoption, position and go line it gets
# to the file named by its first argument. With a second argument `declares` it declares a Game
# option (an engine that knows the game); without, none (a chess engine, to the arena).
log="$1"
game=""
[ "$2" = "declares" ] && game="option name Game type string default hyperchess"
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name echo"; [ -n "$game" ] && echo "$game"; echo "uciok";;
    ugi) echo "id name echo"; [ -n "$game" ] && echo "$game"; echo "ugiok";;
    isready) echo "readyok";;
    position*|setoption*) echo "$line" >> "$log";;
    go*) echo "$line" >> "$log"; echo "bestmove 1";;
    quit) exit 0;;
  esac
done
