#!/bin/sh
# A test engine whose Game option is a list offering hyperchess alone: the arena must refuse
# it for another game before any game. It answers no move (it is never asked for one).
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name lists"; echo "option name Game type combo default hyperchess var hyperchess"; echo "uciok";;
    ugi) echo "id name lists"; echo "option name Game type combo default hyperchess var hyperchess"; echo "ugiok";;
    isready) echo "readyok";;
    go*) echo "bestmove 0000";;
    quit) exit 0;;
  esac
done
