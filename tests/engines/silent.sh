#!/bin/sh
# A test engine that never completes the handshake (reads and ignores everything).
while IFS= read -r line; do
  case "$line" in
    quit) exit 0;;
  esac
done
