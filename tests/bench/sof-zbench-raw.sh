#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# sof-zbench.sh (P2) with sof-parwrite's own lines of its first SOF_ZBENCH_RAW rounds (default
# 2) and each round's figures over the floods' windows beside the figures it reports: tests/run
# --bench [-k KERNEL] with AUXBUS_BENCH_SCRIPTS="/tests/bench/sof-zbench-raw.sh
# /tests/bench/table.sh". The raw lines are "# raw pinned|free ROUND 1|t STEP THREAD FILE
# CONTENT start_ns S end_ns T" (tests/tools/sof-parwrite.c).
# kmods: snd-compress
# timeout: 600
export SOF_ZBENCH_RAW="${SOF_ZBENCH_RAW:-2}"
exec sh /tests/cases/sof-zbench.sh
