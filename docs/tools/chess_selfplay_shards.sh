#!/bin/sh
# Training data for hyperchess `Boards=1x1 Promotions=chess`: quatre's own games, scored by Stockfish.
#
# usage: chess_selfplay_shards.sh DIR FROM TO
#
# For each shard I in FROM..TO (of 400), in DIR:
#   play/shard-I.txt  quatre selfplay: 100 games from open-train.txt (DIR/open-train.txt, made by
#                     `python3 docs/openings/chess_openings.py 5 2000 6 open-train.txt
#                     docs/openings/chess-1x1-6ply-balanced.txt`), 8,000 nodes for a written move,
#                     2,000 for the others, half the moves written;
#   lab/shard-I.txt   the same positions scored by Stockfish at 5,000 nodes (`quatre label --teacher`),
#                     each keeping its game's result.
# A shard already in lab/ is skipped, so a stopped run is resumed by running it again (each file
# is written as FILE.partial and renamed when whole); the files are the same whoever runs them
# (one thread, seeded by the shard). One shard takes about 70 s of one core (30 s of self-play, 40 s of
# labelling) and gives about 6,900 positions: shards 1-160 (1.1 M positions) took 2 h 15 min as
# two runs side by side on 2 cores (1-80 and 81-160).
#
# Environment: QUATRE (default `quatre`), STOCKFISH (default /usr/games/stockfish, Debian's).
# docs/learning.md ("Self-play scored by Stockfish") trains and measures a net on these files.
set -e
dir=$1
from=$2
to=$3
quatre=${QUATRE:-quatre}
stockfish=${STOCKFISH:-/usr/games/stockfish}
mkdir -p "$dir/play" "$dir/lab"
i=$from
while [ "$i" -le "$to" ]; do
  play="$dir/play/shard-$i.txt"
  lab="$dir/lab/shard-$i.txt"
  if [ ! -f "$lab" ]; then
    if [ ! -f "$play" ]; then
      "$quatre" selfplay --game hyperchess --option Boards=1x1 --option Promotions=chess \
        --openings "$dir/open-train.txt" --games 40000 --shard "$i/400" --nodes 8000 \
        --fast-nodes 2000 --full-share 0.5 --max-plies 300 --adjudicate win=700/6 --seed 21 \
        --concurrency 1 --quiet --out "$play"
    fi
    "$quatre" label --game hyperchess --data "$play" \
      --teacher "$stockfish option.Threads=1 option.Hash=16" --nodes 5000 --seed "$i" \
      --concurrency 1 --quiet --out "$lab"
  fi
  i=$((i + 1))
done
