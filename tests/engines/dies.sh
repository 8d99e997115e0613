#!/bin/sh
# A test engine for tests/arena_records.rs that never starts: it exits at once, as a program whose
# shared libraries or input files are missing on the machine would.
echo "dies: cannot load what it needs" >&2
exit 127
