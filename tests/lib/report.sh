# SPDX-License-Identifier: GPL-2.0-only
# Rows and the report of the kernel-matrix harness (tests/run): every result is a row in
# $RUN/rows, printed as KTAP at the end.
# Sourced by tests/run; bash only.

# --- results -----------------------------------------------------------------------------------
# Two kinds of rows: a case's (a test case run in a guest, with its subtests as a nested KTAP
# block) and the infrastructure's (fetch, builds, style, a boot's log/taint/kmemleak checks, the
# DKMS and Debian system tests). Rows are kept in $RUN/rows and printed, numbered, at the end
# (emit_ktap: plan first, the infrastructure as one test with its rows as subtests); while the
# run goes on each row is a "# " progress line.
declare -A T_PASS T_FAIL T_SKIP T_IOK T_IFAIL T_SECS T_BOOT T_CPU
TABLE_KEYS=()
VERSIONS=()
SEP=$'\x1f'

# result KEY ok|fail|skip NAME [COMMENT]: an infrastructure row
result() { record infra "$@"; }
# case_result KEY ok|fail|skip NAME COMMENT [BLOCK]: a case's row; BLOCK a file with its subtests
case_result() { record case "$@"; }
# not_scheduled KEY CASE WHY: a case this run leaves out on KEY (a diagnostic, not a skip)
not_scheduled() { record unsched "$1" - "$2" "$3"; }

record() {
	local kind=$1 key=$2 verdict=$3 name=$4 comment=${5:-} block=${6:-}
	comment=${comment//$'\n'/ }
	if [ "$AUXBUS_CHILD" = 1 ]; then
		# one line per row, for the parent's replay_child
		printf '@row%s%s%s%s%s%s%s%s%s%s%s%s\n' "$SEP" "$kind" "$SEP" "$key" "$SEP" "$verdict" \
			"$SEP" "$name" "$SEP" "$comment" "$SEP" "$block"
		return
	fi
	table_key "$key"
	printf '%s%s%s%s%s%s%s%s%s%s%s\n' "$kind" "$SEP" "$key" "$SEP" "$verdict" "$SEP" "$name" \
		"$SEP" "$comment" "$SEP" "$block" >>"$RUN/rows"
	case $kind/$verdict in
	unsched/*) return ;;
	case/ok) T_PASS[$key]=$((${T_PASS[$key]:-0} + 1)) ;;
	*/skip) T_SKIP[$key]=$((${T_SKIP[$key]:-0} + 1)) ;;
	case/*) T_FAIL[$key]=$((${T_FAIL[$key]:-0} + 1)) ;;
	infra/fail) T_IFAIL[$key]=$((${T_IFAIL[$key]:-0} + 1)) ;;
	infra/*) T_IOK[$key]=$((${T_IOK[$key]:-0} + 1)) ;;
	esac
	case $verdict in
	ok) echo "# ok: $name${comment:+ # $comment}" ;;
	skip) echo "# skip: $name # SKIP $comment" ;;
	*) echo "# NOT OK: $name${comment:+ # $comment}" ;;
	esac
}

table_key() {
	local key=$1
	case " ${TABLE_KEYS[*]:-} " in *" $key "*) ;; *) TABLE_KEYS+=("$key") ;; esac
	T_PASS[$key]=${T_PASS[$key]:-0}
	T_FAIL[$key]=${T_FAIL[$key]:-0}
	T_SKIP[$key]=${T_SKIP[$key]:-0}
	T_IOK[$key]=${T_IOK[$key]:-0}
	T_IFAIL[$key]=${T_IFAIL[$key]:-0}
	T_SECS[$key]=${T_SECS[$key]:-0}
	T_BOOT[$key]=${T_BOOT[$key]:-0}
	T_CPU[$key]=${T_CPU[$key]:-0}
}

# replay_child FILE KEY: the output of a child chain: its rows recorded here, the rest printed.
replay_child() {
	local tag kind key verdict name comment block done=0
	while IFS= read -r line; do
		case $line in
		@row"$SEP"*)
			IFS=$SEP read -r tag kind key verdict name comment block <<<"$line"
			record "$kind" "$key" "$verdict" "$name" "$comment" "$block" ;;
		@secs$'\t'*)
			IFS=$'\t' read -r tag key comment <<<"$line"
			table_key "$key"
			read -r T_SECS[$key] T_BOOT[$key] T_CPU[$key] <<<"$comment" ;;
		@version$'\t'*) VERSIONS+=("${line#*$'\t'}") ;;
		@done) done=1 ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$1"
	if [ $done = 0 ]; then
		result "$2" fail "$2: the second chain finished" "it stopped early: see $1"
	fi
}

# emit_ktap: the whole run as KTAP: version, plan, the infrastructure (one test, its rows as
# subtests), then every case's row after its block. Lines before "KTAP version 1" are progress.
emit_ktap() {
	local rows=$RUN/rows kind key verdict name comment block n=0 i=0 ninfra ncase ifail=0
	touch "$rows"
	ninfra=$(grep -c "^infra$SEP" "$rows")
	ncase=$(grep -c "^case$SEP" "$rows")
	echo "KTAP version 1"
	echo "# auxbus kernel matrix, run $AUXBUS_RUN_ID, logs in $RUN"
	echo "1..$((ncase + (ninfra > 0)))"
	if [ "$ninfra" -gt 0 ]; then
		echo "    KTAP version 1"
		echo "    1..$ninfra"
		while IFS=$SEP read -r kind key verdict name comment block; do
			[ "$kind" = infra ] || continue
			i=$((i + 1))
			case $verdict in
			ok) echo "    ok $i $name${comment:+ # $comment}" ;;
			skip) echo "    ok $i $name # SKIP $comment" ;;
			*) echo "    not ok $i $name${comment:+ # $comment}"; ifail=$((ifail + 1)) ;;
			esac
		done <"$rows"
		n=1
		if [ $ifail = 0 ]; then echo "ok 1 infrastructure # $ninfra checks"
		else echo "not ok 1 infrastructure # $ifail of $ninfra checks failed"; fi
	fi
	while IFS=$SEP read -r kind key verdict name comment block; do
		[ "$kind" = case ] || continue
		n=$((n + 1))
		[ -n "$block" ] && [ -s "$block" ] && cat "$block"
		case $verdict in
		ok) echo "ok $n $name${comment:+ # $comment}" ;;
		skip) echo "ok $n $name # SKIP $comment" ;;
		*) echo "not ok $n $name${comment:+ # $comment}" ;;
		esac
	done <"$rows"
	# what this run left out, a line per case and reason (make check-full runs the rest)
	awk -F "$SEP" '$1 == "unsched" { k = $4 SUBSEP $5; if (!(k in w)) { o[++m] = k; w[k] = "" }
		w[k] = w[k] " " $2 }
		END { if (m) print "# not scheduled here (tests/README.md says where each case runs):"
		for (i = 1; i <= m; i++) { split(o[i], p, SUBSEP); printf "#   %s:%s (%s)\n", p[1], w[o[i]], p[2] } }' "$rows"
}

# final_report: the KTAP report, the check-full-only lines, the kernels, the table per pair, the
# cost of each case and the run's totals; pins the kernels of a green run (PASS, FAIL, SKIP, IOK,
# IFAIL are left set for the closing line)
final_report() {
	local k tb tc hc
	emit_ktap
	[ "${AUXBUS_FULL:-0}" = 1 ] ||
		kernel_lines | awk '$6 == "full" { printf "#   %s (%s %s): make check-full only\n", $1, $4, $2 }'
	echo "#"
	echo "# kernels (pinned by the last green run, or resolved at fetch time):"
	printf '%s\n' "${VERSIONS[@]}" | awk '!seen[$0]++ { print "#   " $0 }'
	echo "#"
	# cases: the case rows; infra: the infrastructure's; seconds: all of it; in QEMU: the boots' wall
	# time; qemu cpu: the CPU time QEMU used in them
	printf '# %-20s %7s %7s %8s %6s %6s %8s %8s %9s\n' "kernel/backend" passed failed skipped infra "fail" \
		seconds "in QEMU" "qemu cpu"
	PASS=0 FAIL=0 SKIP=0 IOK=0 IFAIL=0
	for k in "${TABLE_KEYS[@]}"; do
		printf '# %-20s %7s %7s %8s %6s %6s %8s %8s %9s\n' "$k" "${T_PASS[$k]}" "${T_FAIL[$k]}" "${T_SKIP[$k]}" \
			"${T_IOK[$k]}" "${T_IFAIL[$k]}" "${T_SECS[$k]}" "${T_BOOT[$k]}" "${T_CPU[$k]}"
		PASS=$((PASS + T_PASS[$k])) FAIL=$((FAIL + T_FAIL[$k])) SKIP=$((SKIP + T_SKIP[$k]))
		IOK=$((IOK + T_IOK[$k])) IFAIL=$((IFAIL + T_IFAIL[$k]))
	done
	tb=0 tc=0
	for k in "${TABLE_KEYS[@]}"; do tb=$((tb + ${T_BOOT[$k]:-0})) tc=$((tc + ${T_CPU[$k]:-0})); done
	# what each case costs the matrix: its guest seconds and guest CPU seconds summed over its pairs
	awk -F "$SEP" '$1 == "case" && $5 ~ /^[0-9.]+ s, cpu [0-9.]+ s$/ {
			c = $4; sub(/^[^ ]*: /, "", c); split($5, f, /[ ,]+/); n[c]++; s[c] += f[1]; u[c] += f[4] }
		END { for (c in n) printf "%s %d %.1f %.1f\n", c, n[c], s[c], u[c] }' "$RUN/rows" | sort -k3,3nr |
		awk 'BEGIN { printf "# %-26s %5s %9s %9s\n", "case cost", "pairs", "guest s", "cpu s" }
			{ printf "# %-26s %5d %9.1f %9.1f\n", $1, $2, $3, $4; t += $3; u += $4 }
			END { printf "# %-26s %5s %9.1f %9.1f\n", "all cases", "", t, u }'
	# host CPU: user and system time of every process of the run that has ended (bash's times),
	# QEMU, builds, DKMS and the system test alike: over the host's CPUs, the least wall time
	times >"$RUN/times"
	hc=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, y, /[ms]/)
		printf "%d", u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$RUN/times")
	echo "# total $(( $(date +%s) - t_all )) s; host CPU $hc s ($(nproc) CPUs); in QEMU $tb s (wall, summed over" \
		"all chains), QEMU CPU $tc s; logs in $RUN"
	echo "# cases: $PASS passed, $FAIL failed; skipped (cases and infrastructure): $SKIP; infrastructure: $IOK passed, $IFAIL failed"
	# a green run pins the Debian kernels it ran on (tests/lib/host.sh, pinned_abi), keeping the
	# pins of suites it did not run (make check-arm64 beside make check)
	if [ $((FAIL + IFAIL)) -eq 0 ] && [ -z "$want_kernels" ] && [ ${#want_cases[@]} -eq 0 ]; then
		{ printf '%s\n' "${VERSIONS[@]}" | awk '$3 !~ /auxbus/ && !seen[$2]++ { print $2, $3 }'
		  cat "$AUXBUS_CACHE/kernels.pinned" 2>/dev/null; } | awk 'NF && !seen[$1]++' \
			>"$AUXBUS_CACHE/kernels.pinned.new" && mv -f "$AUXBUS_CACHE/kernels.pinned.new" "$AUXBUS_CACHE/kernels.pinned"
	fi
}
