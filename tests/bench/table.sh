#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bench's one table (busybox sh), last of the bench scripts: the rows the benchmarks
# before it appended to /tmp/bench.rows ("figure|instructions|ratio|target", one a line).
# Under -icount shift=0 every figure is guest instructions (a guest ns each).
# timeout: 60

ROWS=/tmp/bench.rows
[ -s "$ROWS" ] || { echo "bench: no rows in $ROWS"; exit 1; }
row() { printf '| %-52s | %14s | %-24s | %-9s |\n' "$1" "$2" "$3" "$4"; }
echo "bench: make bench, $(uname -r) ($(uname -v)); instructions (guest ns under -icount shift=0)"
row figure instructions ratio target
echo "|---|---:|---|---|"
while IFS='|' read -r f v r t; do
	row "$f" "$v" "$r" "$t"
done <"$ROWS"
