# SPDX-License-Identifier: GPL-2.0-only
# Which cases run where (tests/run): the cases, their headers, the lines of tests/kernels.list
# and the axes; tests/README.md explains the rules.
# Sourced by tests/run; bash only.

# --- cases -------------------------------------------------------------------------------------
all_cases() {
	local f c g
	for f in "$TOP"/tests/cases/*.sh; do
		[ -e "$f" ] || continue
		c=$(basename "$f" .sh)
		# a kernel with a CASES column (tests/kernels.list) runs only the cases it names;
		# a glob with "!" takes cases out (only "!" globs: every other case)
		if [ -n "${KCASES:-}" ]; then
			local in=0 out=0
			[[ ${KCASES:0:1} == '!' ]] && in=1
			for g in ${KCASES//,/ }; do
				# shellcheck disable=SC2053
				case $g in
				# a case named with --case runs even where a "!" glob takes it out
				'!'*) [[ $c == ${g:1} ]] && [ ${#want_cases[@]} -eq 0 ] && out=1 ;;
				*) [[ $c == $g ]] && in=1 ;;
				esac
			done
			[ $in = 1 ] && [ $out = 0 ] || continue
		fi
		if [ ${#want_cases[@]} -gt 0 ]; then
			for g in "${want_cases[@]}"; do
				# shellcheck disable=SC2053
				[[ $c == $g ]] && { echo "$c"; break; }
			done
		else
			echo "$c"
		fi
	done
}
# case_header FIELD CASE: a "# FIELD:" header of tests/cases/CASE.sh, or of a guest script
# given by its path in the guest (/tests/...: make demo, make bench)
case_header() {
	local f="$TOP/tests/cases/$2.sh"
	case $2 in /tests/*) f=$TOP$2 ;; esac
	case_header_of "$1" "$f"
}
# case_timeout CASE: the seconds the guest's runner gives it ("# timeout:", default 300)
case_timeout() {
	local t
	t=$(case_header timeout "$1")
	echo "${t:-300}"
}
# kernel_lines: the lines of tests/kernels.list, comments dropped and the optional columns
# filled in: "NAME SUITE BACKENDS KIND CHAIN CASES" (CHAIN 1, CASES "-" where a line has none).
# The one reader of that file.
kernel_lines() {
	awk '$1 != "" && $1 !~ /^#/ { print $1, $2, $3, $4, ($5 == "" ? 1 : $5), ($6 == "" ? "-" : $6) }' \
		"$TOP/tests/kernels.list"
}
# auto_backend KNAME: the backend a user's build picks for KNAME (AUXBUS_BACKEND=auto): the
# kernel's bus where it has one (a line of tests/kernels.list with the kernel backend), else bundled
declare -A AUTO_BACKEND
while read -r _n _s _b _rest; do
	[[ ,$_b, == *,kernel,* ]] && AUTO_BACKEND[$_n]=kernel
done < <(kernel_lines)
auto_backend() { echo "${AUTO_BACKEND[$1]:-bundled}"; }
# flavour_of SUITE: the name of the kernel line of another flavour of SUITE's kernel (trixie:rt
# beside trixie), if tests/kernels.list has one
flavour_of() {
	[ -n "$1" ] && kernel_lines | awk -v s="$1" 'index($2, s ":") == 1 { print $1; exit }'
}
# case_unscheduled CASE: why CASE does not run on $KNAME/$BACKEND in this run; nothing when it
# runs. Its "# kernels:" and "# backends:" headers always apply. Its "# axes:" (what its
# behaviour depends on) choose the pairs in make check: "bus" and "harness" cases run on every
# pair their headers allow; the others ("api": the kernel's API generation) on each kernel's
# auto backend only, and on a debug kernel only with "detectors" (they exercise lifetimes or
# locking that KASAN, lockdep and kmemleak watch); where a suite has a second flavour of its
# kernel (trixie:rt, PREEMPT_RT), on that flavour's kernel only (a debug kernel of that suite
# keeps its detector cases). make check-full (AUXBUS_FULL=1)
# and a case named with --case ignore the axes.
case_unscheduled() {
	local c=$1 kernels backends axes auto
	kernels=$(case_header kernels "$c")
	backends=$(case_header backends "$c")
	if [ -n "$kernels" ] && [[ " $kernels " != *" $KNAME "* ]]; then
		echo "only on kernels: $kernels"
	elif [ -n "$backends" ] && [[ " $backends " != *" $BACKEND "* ]]; then
		echo "only with backends: $backends"
	elif [ "${AUXBUS_FULL:-0}" != 1 ] && [ ${#want_cases[@]} -eq 0 ]; then
		axes=$(case_header axes "$c")
		auto=$(auto_backend "$KNAME")
		case " $axes " in
		*" bus "* | *" harness "*) ;;
		*)
			if [ "$KIND" = debug ] && [[ " $axes " != *" detectors "* ]]; then
				echo "axes: $axes; not under the detectors"
			elif [ "$KIND" != debug ] && [[ ${SUITE:-} != *:* ]] && [ -n "$(flavour_of "${SUITE:-}")" ]; then
				echo "axes: $axes; on $(flavour_of "$SUITE") (the same API, and its own kernel)"
			elif [ "$BACKEND" != "$auto" ]; then
				echo "axes: $axes; on $KNAME/$auto"
			fi ;;
		esac
	fi
}

# schedule KEY: the cases $KNAME/$BACKEND runs, in SCHED; the others are recorded as "not
# scheduled here" diagnostics
schedule() {
	local key=$1 all c f why
	mapfile -t all < <(all_cases)
	SCHED=()
	for c in "${all[@]}"; do
		why=$(case_unscheduled "$c")
		if [ -n "$why" ]; then not_scheduled "$key" "$c" "$why"; else SCHED+=("$c"); fi
	done
	if [ ${#want_cases[@]} -eq 0 ] && [ -n "$KCASES" ] && [ -z "${SCRIPT_MODE:-}" ]; then
		for f in "$TOP"/tests/cases/*.sh; do
			c=$(basename "$f" .sh)
			[[ " ${all[*]} " == *" $c "* ]] || not_scheduled "$key" "$c" "not in $KNAME's CASES (tests/kernels.list)"
		done
	fi
}

# split_cases PAIR N CASES...: N lines of cases, balanced by each case's recorded guest seconds on
# PAIR ($AUXBUS_CACHE/times, record_times), else by its timeout; each line in the given order.
split_cases() {
	local pair=$1 n=$2 tf
	shift 2
	tf=$AUXBUS_CACHE/times/${pair//\//-}
	for c in "$@"; do
		printf '%s %s\n' "$c" "$(awk -v c="$c" '$1 == c { t = $2 } END { print t }' "$tf" 2>/dev/null)" |
			awk -v d="$(case_timeout "$c")" '{ print $1, ($2 == "" ? d / 10 : $2) }'
	done | awk -v n="$n" '{ c[NR] = $1; w[NR] = $2 }
		END { # longest first into the lightest part, then each part in the given order
			for (i = 1; i <= NR; i++) o[i] = i
			for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) if (w[o[j]] > w[o[i]]) { t = o[i]; o[i] = o[j]; o[j] = t }
			for (i = 1; i <= NR; i++) { b = 1; for (k = 2; k <= n; k++) if (s[k] < s[b]) b = k; s[b] += w[o[i]]; p[o[i]] = b }
			for (k = 1; k <= n; k++) { l = ""; for (i = 1; i <= NR; i++) if (p[i] == k) l = l (l == "" ? "" : " ") c[i]; print l } }'
}
# record_times DIR PAIR: the guest seconds of each case of a boot (for split_cases) and its
# subtest count (its block's plan, for --schedule)
record_times() {
	local tf=$AUXBUS_CACHE/times/${2//\//-} tmp c t
	mkdir -p "$AUXBUS_CACHE/times"
	tmp=$(mktemp "$tf.XXXXXX") || return 0
	{ sed -n 's/^ok [0-9]* \([^ ]*\) # \([0-9.]*\) s.*/\1 \2/p' "$1/results.clean" |
		while read -r c t; do
			echo "$c $t $(sed -n 's/^ *1\.\.\([0-9]*\).*/\1/p' "$1/block.$c" 2>/dev/null | head -n 1)"
		done
	  cat "$tf" 2>/dev/null; } | awk '!seen[$1]++' >"$tmp" && mv -f "$tmp" "$tf"
}

# not_run KEY WHY CASES...: the scheduled cases a failed build or fetch leaves unrun are failures
not_run() {
	local key=$1 why=$2 c
	shift 2
	for c in "$@"; do case_result "$key" fail "$key: $c" "not run: $why"; done
}
