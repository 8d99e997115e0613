#!/bin/sh
# A test engine for tests/arena_records.rs that starts once: `flaky.sh FILE COMMAND…` runs
# COMMAND… (an engine) the first time, creating FILE; every later time (FILE exists) it exits
# at once, as dies.sh does.
marker=$1
shift
if [ -e "$marker" ]; then
  exit 1
fi
: > "$marker"
exec "$@"
