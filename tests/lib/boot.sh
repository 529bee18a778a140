# SPDX-License-Identifier: GPL-2.0-only
# Boots of the kernel-matrix harness (tests/run): the initramfs, QEMU under a watchdog and a
# guest slot, and the verdict of a boot from its report and its console.
# Sourced by tests/run; bash only.

# --- initramfs ---------------------------------------------------------------------------------
# Copy a Debian module (by modprobe name) and its dependencies from MODDIR into ROOT, uncompressed.
copy_kmod() {
	local moddir=$1 root=$2 name=$3 path deps d dest
	path=$(modprobe_path "$moddir" "$name") || return 1
	deps=$(awk -v m="$path" -F': *' '$1 == m { print $2 }' "$moddir/modules.dep")
	for d in "$path" $deps; do
		dest=$root/lib/modules/$ABI/${d%.xz}
		dest=${dest%.zst}
		dest=${dest%.gz}
		[ -f "$dest" ] && continue
		mkdir -p "$(dirname "$dest")"
		case $d in
		*.xz) xz -dc "$moddir/$d" >"$dest" ;;
		*.zst) zstd -qdc "$moddir/$d" >"$dest" ;;
		*.gz) gzip -dc "$moddir/$d" >"$dest" ;;
		*) cp "$moddir/$d" "$dest" ;;
		esac
	done
}
modprobe_path() { # the modules.dep path of module NAME (dashes and underscores alike)
	local moddir=$1 name=${2//-/_}
	awk -F: -v n="$name" '{ b = $1; sub(".*/", "", b); sub("\\.ko.*", "", b); gsub("-", "_", b);
		if (b == n) { print $1; found = 1; exit } } END { exit !found }' "$moddir/modules.dep"
}

# iproute2's rdma, vdpa and devlink, which the mlx5 cases drive the shim with, from the suite's
# own chroot ($ROOT; iproute2 installed there once, cached with it) with their shared libraries
# and the dynamic loader, at the same paths in the guest. Busybox has neither.
guest_tools_locked() {
	local root=$1
	[ -x "$root/usr/bin/rdma" ] || [ -x "$root/sbin/rdma" ] && return 0
	chroot_update "$root"
	in_chroot "$root" -- apt-get install -y -qq iproute2 >>"$root/.auxbus-apt.log" 2>&1
}
copy_guest_tools() { # copy_guest_tools DEST_ROOT
	local dest=$1 guest real
	# the chroot's are the host's architecture: another's guest goes without them
	if foreign "$SUITE"; then
		log "$KNAME: no rdma, vdpa, devlink in the $(suite_arch "$SUITE") guest (the chroot's are $(host_arch))"
		return 0
	fi
	[ -x "$ROOT/usr/bin/rdma" ] || [ -x "$ROOT/sbin/rdma" ] || chroot_locked "$ROOT" guest_tools_locked "$ROOT" ||
		{ log "warning: installing iproute2 in $ROOT failed: no rdma, vdpa, devlink in the guest"; return 0; }
	# "GUEST-PATH REAL-PATH" of each tool and library, resolved inside the chroot: their
	# symlinks are absolute (bullseye's /lib64/ld-linux-x86-64.so.2 -> /lib/x86_64-linux-gnu/
	# ld-2.31.so) and would resolve against the host's files outside it.
	# shellcheck disable=SC2016
	in_chroot "$ROOT" -- sh -c 'for t in rdma vdpa devlink; do
		p=$(command -v $t) || continue
		echo "/usr/sbin/$t $(readlink -f "$p")"
		for f in $(ldd "$p" | grep -o "/[^ ]*"); do echo "$f $(readlink -f "$f")"; done
	done' | while read -r guest real; do
		[ -e "$dest$guest" ] && continue
		mkdir -p "$dest$(dirname "$guest")"
		cp "$ROOT$real" "$dest$guest" || log "warning: guest tools: no $real in $ROOT"
	done
}

make_initramfs() { # make_initramfs DIR BUILT_TREE MODDIR CASES...
	local dir=$1 built=$2 moddir=$3 c k ko bb
	shift 3
	rm -rf "$dir/root"
	mkdir -p "$dir/root"/{bin,sbin,etc,proc,sys,dev,tmp,root,usr/bin,usr/sbin,lib/modules/"$ABI"/extra}
	bb=$(guest_busybox "$SUITE") || return 1
	cp "$bb" "$dir/root/bin/busybox"
	# the applets of the host's busybox (another architecture's cannot run here; same suite)
	for c in $(/bin/busybox --list); do
		[ "$c" = busybox ] || ln -sf busybox "$dir/root/bin/$c"
	done
	cp "$TOP/tests/guest/init" "$dir/root/init"
	chmod +x "$dir/root/init"
	mkdir -p "$dir/root/tests"
	cp -r "$TOP/tests/lib" "$TOP/tests/guest" "$TOP/tests/cases" "$dir/root/tests/"
	mkdir -p "$dir/root/tests/bench"
	cp "$TOP"/tests/bench/*.sh "$dir/root/tests/bench/" 2>/dev/null
	cp "$TOP"/tests/demo*.sh "$dir/root/tests/" 2>/dev/null
	# Static test tools built on the host (tests/tools); modinfo replaces busybox's link.
	if foreign "$SUITE"; then
		build_guest_tools "$ROOT" "$TAG" >"$dir/guest-tools.log" 2>&1 &&
			cp --remove-destination "$built"/guest-tools/* "$dir/root/bin/" ||
			log "warning: $KNAME: tests/tools did not build for $(suite_arch "$SUITE"): see $dir/guest-tools.log"
	elif [ -d "$RUN/tools" ]; then
		cp --remove-destination "$RUN"/tools/* "$dir/root/bin/" 2>/dev/null
	fi
	# lsaux where make install puts it
	cp "$TOP/auxbus/lsaux" "$dir/root/usr/sbin/lsaux"
	: >"$dir/root/etc/auxbus-modules"
	while IFS= read -r ko; do
		cp "$ko" "$dir/root/lib/modules/$ABI/extra/"
		basename "$ko" .ko >>"$dir/root/etc/auxbus-modules"
	done < <(find "$built" -name '*.ko' -not -path '*/mainline-client/*')
	# what the pair's build left out and why ("auxbus: left out NAME...: REASON"), for skips
	sed -n 's/^auxbus: left out //p' "$dir/build.log" >"$dir/root/etc/auxbus-left-out" 2>/dev/null
	# Modules a third-party client build produced, kept apart (tests/mainline-client).
	if [ -d "$built/tests/mainline-client" ]; then
		find "$built/tests/mainline-client" -name '*.ko' -exec cp {} "$dir/root/lib/modules/$ABI/extra/" \; \
			-exec sh -c 'basename "$1" .ko >>"$2"' sh {} "$dir/root/etc/auxbus-modules" \;
	fi
	# The kernel's modules the bundle's modules depend on (mlx5_shim_rdma: ib_core where the
	# kernel has CONFIG_INFINIBAND), from this kernel's own tree.
	for k in $(find "$dir/root/lib/modules/$ABI/extra" -name '*.ko' -exec modinfo -F depends {} \; |
		tr ',' '\n' | sort -u); do
		grep -qx "$k" "$dir/root/etc/auxbus-modules" && continue
		copy_kmod "$moddir" "$dir/root" "$k" || log "warning: $KNAME has no module $k (a dependency)"
	done
	copy_guest_tools "$dir/root"
	# arm64's report port is a virtio console (-M virt has one UART): its modules
	for k in $(guest_report_kmods); do
		grep -q "/${k}\.ko" "$moddir/modules.builtin" 2>/dev/null || copy_kmod "$moddir" "$dir/root" "$k" ||
			log "warning: $KNAME has no module $k (the report port)"
	done
	# Debian modules the cases ask for, from this kernel's own tree.
	for c in "$@"; do
		for k in $(case_header kmods "$c"); do
			copy_kmod "$moddir" "$dir/root" "$k" ||
				log "warning: $KNAME has no module $k (asked by $c)"
		done
	done
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		if [ -f "$moddir/$f" ]; then
			cp "$moddir/$f" "$dir/root/lib/modules/$ABI/"
		else
			: >"$dir/root/lib/modules/$ABI/$f"
		fi
	done
	depmod -b "$dir/root" "$ABI"
}

# --- booting -----------------------------------------------------------------------------------
# boot DIR IMAGE CASES...: one guest of the initramfs tree $BOOT_ROOT (default DIR/root) and
# this boot's settings; its console, report and QEMU's status land in DIR.
boot() {
	local dir=$1 image=$2 cmdline accel c cap first root=${BOOT_ROOT:-$1/root}
	shift 2
	mkdir -p "$dir/over/etc"
	cat >"$dir/over/etc/auxbus-test.conf" <<-EOF
		KERNEL=$KNAME
		BACKEND=$BACKEND
		AUXBUS_BUS=$BUS
		AUXBUS_PREFIX=$PREFIX
		AUXBUS_MODE=${SCRIPT_MODE:-check}
		CASES="$*"
		GUEST_SCRIPTS="${GUEST_SCRIPTS:-}"
		REPORT_TTY=$(guest_report_tty)
		REPORT_KMODS="$(guest_report_kmods)"
	EOF
	# the settings as a second cpio archive: the kernel unpacks both, so boots of one tree can
	# run at once
	{ (cd "$root" && find . | cpio -o -H newc --quiet)
	  (cd "$dir/over" && find . | cpio -o -H newc --quiet); } | gzip -1 >"$dir/initramfs.gz"
	# No acpi=off: without ACPI the guest has no HPET or PM timer, cannot calibrate the TSC and
	# falls back to jiffies, and every ktime-based measurement (IPC flood, benchmarks) then has a
	# resolution of one tick. A soft lockup or a task hung for hung_task_timeout_secs (120 s)
	# panics the guest at once instead of leaving it to the watchdog below.
	cmdline="console=$(guest_console) panic=-1 panic_on_warn=1 oops=panic softlockup_panic=1 hung_task_panic=1"
	# Benchmarks time the bus, not slub_debug's poisoning. On a KASAN kernel KASAN does
	# slub_debug's work (redzones, use-after-free and double free, alloc and free stacks) more
	# precisely, and both at once cost the debug kernels' guests half as much CPU again.
	[ "${SCRIPT_MODE:-}" = bench ] || grep -qs '^CONFIG_KASAN=y' "${KCONFIG:-/nonexistent}" ||
		cmdline="$cmdline slub_debug=FZPU"
	cmdline="$cmdline no_hash_pointers printk.devkmsg=on rdinit=/init"
	# A TCG vCPU whose host thread is starved by other guests stops for seconds: RCU's default
	# stall timeout (21 s) is too short for that.
	cmdline="$cmdline rcupdate.rcu_cpu_stall_timeout=60"
	# The debug kernels under TCG's -cpu max (LA57) sometimes die in early CPU setup (a KASAN
	# wild-memory-access into the 5-level direct map): 4-level paging there.
	[ "$KIND" = debug ] && cmdline="$cmdline no5lvl"
	accel=$QEMU_ACCEL
	# Until the first case starts: boot, module and initramfs setup (debug: KASAN, lockdep).
	first=180
	[ "$KIND" = debug ] && first=300
	# another architecture's kernel, every instruction translated
	foreign "$SUITE" && first=300
	# The hard limit of the whole boot: every case at its timeout, plus the boot.
	cap=$((first + 120))
	for c in "$@" ${GUEST_SCRIPTS:-}; do cap=$((cap + $(case_timeout "$c") + WATCH_GRACE)); done
	cap=${AUXBUS_BOOT_TIMEOUT:-$cap}
	# vCPUs: one, but two for a case that says "# smp: 2" (the races: a boot of its own). 2-vCPU
	# TCG guests on a 2-CPU host wait on each other's cross-vCPU wakeups and run slower.
	local smp=${AUXBUS_SMP:-1} h icount=()
	if [ -z "$AUXBUS_SMP" ]; then
		[ $# -eq 1 ] && h=$(case_header smp "$1") && [ -n "$h" ] && smp=$h
	fi
	# Benchmarks count instructions: under -icount shift=0 the guest's clock advances 1 ns per
	# executed instruction, whatever the host's load (sleep=off: an idle vCPU's wait costs
	# nothing). One vCPU, so that the count is the benchmark's own CPU's.
	if [ "${SCRIPT_MODE:-}" = bench ]; then
		icount=(-icount shift=0,sleep=off)
		smp=${AUXBUS_SMP:-1}
	fi
	local attempt status early qpid slot_fd=""
	# A kernel with delayed kobject releases (debugk) spends its boots waiting for them, at
	# a fifth of a CPU: it takes no slot.
	grep -qs '^CONFIG_DEBUG_KOBJECT_RELEASE=y' "${KCONFIG:-/nonexistent}" || guest_slot slot_fd
	for attempt in 1 2 3; do
		rm -f "$dir/console.log" "$dir/results.ktap" "$dir/watchdog" "$dir/qemu.times"
		: >"$dir/results.ktap"
		(
			# shellcheck disable=SC2046
			timeout "$cap" $(qemu_machine) -accel "$accel" \
				-m "$AUXBUS_MEM" -smp "$smp" "${icount[@]}" -no-reboot -display none \
				-monitor none -kernel "$image" -initrd "$dir/initramfs.gz" -append "$cmdline" \
				-serial "file:$dir/console.log" $(qemu_report_port "$dir/results.ktap") \
				-nic none </dev/null >"$dir/qemu.log" 2>&1
			rc=$?
			times >"$dir/qemu.times"
			exit $rc
		) &
		qpid=$!
		boot_watch "$qpid" "$dir" "$first" &
		local wpid=$!
		wait "$qpid"
		status=$?
		kill "$wpid" 2>/dev/null
		wait "$wpid" 2>/dev/null
		if [ -s "$dir/watchdog" ]; then
			log "watchdog: $KNAME/$BACKEND: $(cat "$dir/watchdog")"
		fi
		# Two retries, only for a kernel that died before it ran /init: nothing of the bundle
		# was loaded or run yet. Seen under TCG about once in 40 boots: on the KASAN kernel an
		# interrupt during early CPU setup ("KASAN: wild-memory-access" in handle_edge_irq),
		# on 7.x an "Oops: int3" in sched_clock_cpu while static keys were being patched.
		if [ $attempt -lt 3 ] && [ ! -s "$dir/results.ktap" ] &&
			grep -qa 'Kernel panic' "$dir/console.log" &&
			! grep -qa 'Run /init as init process' "$dir/console.log"; then
			early=$dir/console-early-panic-$(date +%H%M%S).log
			mv "$dir/console.log" "$early"
			log "warning: $KNAME panicked before /init ($(grep -am1 -E 'BUG:|Oops:|Kernel panic' \
				"$early" | tr -d '\r')); booting again (see $early)"
			continue
		fi
		break
	done
	[ -n "$slot_fd" ] && exec {slot_fd}>&-
	echo $status >"$dir/qemu.status"
}

# The guest's machine by $SUITE's architecture: QEMU and its machine, the console, and the report
# port (the second 16550 on x86; a virtio console on arm64's virt machine, which has one UART).
qemu_binary() { case $(suite_arch "$SUITE") in arm64) echo qemu-system-aarch64 ;; *) echo qemu-system-x86_64 ;; esac; }
qemu_machine() {
	case $(suite_arch "$SUITE") in
	# pauth-impdef: TCG's own pointer-authentication hash, much cheaper than QARMA's
	arm64) echo "qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on" ;;
	*) echo "qemu-system-x86_64 -cpu max" ;;
	esac
}
guest_console() { case $(suite_arch "$SUITE") in arm64) echo ttyAMA0 ;; *) echo ttyS0 ;; esac; }
qemu_report_port() { # qemu_report_port FILE
	case $(suite_arch "$SUITE") in
	arm64) echo "-device virtio-serial-device -chardev file,id=report,path=$1 -device virtconsole,chardev=report" ;;
	*) echo "-serial file:$1" ;;
	esac
}
guest_report_tty() { case $(suite_arch "$SUITE") in arm64) echo /dev/hvc0 ;; *) echo /dev/ttyS1 ;; esac; }
guest_report_kmods() { case $(suite_arch "$SUITE") in arm64) echo virtio_mmio virtio_console ;; esac; }

# timed_boot ROOT DIR CASES...: boot the tree ROOT with CASES, its wall seconds in DIR/wall
timed_boot() {
	local root=$1 d=$2 t0
	shift 2
	t0=$(date +%s)
	mkdir -p "$d"
	BOOT_ROOT=$root boot "$d" "$BOOT_IMAGE" "$@"
	echo $(( $(date +%s) - t0 )) >"$d/wall"
}

# guest_slot VAR: wait for one of AUXBUS_GUESTS guest slots (every tests/run on this cache
# shares them) and keep it locked on the descriptor in VAR until the caller closes it: at
# most that many guests run at once, whatever the chains.
guest_slot() {
	local -n fd_out=$1
	local i fd
	mkdir -p "$AUXBUS_CACHE/locks"
	while :; do
		for ((i = 0; i < AUXBUS_GUESTS; i++)); do
			exec {fd}>"$AUXBUS_CACHE/locks/guest-$i.lock"
			if flock -n "$fd"; then fd_out=$fd; return 0; fi
			exec {fd}>&-
		done
		sleep 1
	done
}

WATCH_GRACE=20
# boot_watch QPID DIR FIRST: stop the guest (kill the QEMU subshell's children) when no case
# has started FIRST seconds after QEMU did, or when the case the guest is running ("# running
# CASE" on its report port) has run WATCH_GRACE seconds past its timeout (the kmemleak scan
# at the end, "# phase kmemleak", 300 s): a wedged guest costs minutes.
boot_watch() {
	local qpid=$1 dir=$2 first=$3 cur="" c since now limit
	since=$(date +%s)
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 2
		c=$(tr -d '\r' <"$dir/results.ktap" | sed -n 's/^# \(running\|phase\) //p' | tail -n 1)
		now=$(date +%s)
		[ "$c" != "$cur" ] && { cur=$c; since=$now; }
		case $cur in
		"") limit=$first ;;
		kmemleak) limit=300 ;;
		*) limit=$(($(case_timeout "$cur") + WATCH_GRACE)) ;;
		esac
		if [ $((now - since)) -gt "$limit" ]; then
			echo "${cur:-boot}: no progress for $((now - since)) s (limit $limit s); QEMU stopped" \
				>"$dir/watchdog"
			pkill -TERM -P "$qpid" 2>/dev/null
			sleep 5
			pkill -KILL -f "$(qemu_binary) .*$dir/initramfs.gz" 2>/dev/null
			return
		fi
	done
}

# boot_account KEY DIR WALL: add a boot's wall and QEMU CPU seconds to KEY's table row
boot_account() {
	local cpu
	cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, y, /[ms]/)
		printf "%d", u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$2/qemu.times" 2>/dev/null)
	T_BOOT[$1]=$(( ${T_BOOT[$1]:-0} + $3 ))
	T_CPU[$1]=$(( ${T_CPU[$1]:-0} + ${cpu:-0} ))
}
# boot_cpu DIR: "cpu S s (R cores)" of the last boot's QEMU, from the subshell's `times`
boot_cpu() {
	local wall=$2
	awk -v w="$wall" 'NR == 2 {
		split($1, u, /[ms]/); split($2, y, /[ms]/); c = u[1] * 60 + u[2] + y[1] * 60 + y[2]
		printf "qemu cpu %d s (%.2f of one CPU)", c, (w > 0 ? c / w : 0) }' "$1/qemu.times" 2>/dev/null
}

# What fails a boot when the console shows it: tests/lib/patterns.sh, the guest's too.
BAD_CONSOLE=$BAD_LOG
# Taint flags our own modules set on a Debian kernel: O (out-of-tree, 4096) and E (unsigned,
# 8192). Any other flag (W warning, D oops, B bad page, L soft lockup...) fails the boot.
TAINT_OK=$((4096 | 8192))

# case_section MARKER CASE FILE: the lines of FILE from "MARKER CASE" up to the next MARKER
# line (another case's start) or "# phase " (the boot's own checks at its end)
case_section() {
	awk -v m="$1" -v c="$2" 'index($0, m) { on = (substr($0, index($0, m) + length(m)) == c) }
		/^# phase / { on = 0 } on' "$3"
}

# case_block DIR CASE EXPECT: CASE's nested KTAP block (its subtests, version and plan first,
# as the guest prints them) from the boot's report; a self-test's ("# expect: fail") subtests,
# failed on purpose, as diagnostics.
case_block() {
	awk -v c="$2" '$0 == "# running " c { on = 1; next }
		on && /^(not )?ok [0-9]+ / { exit } on && /^    / { print }' "$1/results.clean" |
	if [ "$3" = fail ]; then grep -v '^    KTAP version\|^    1\.\.' | sed 's/^    \([^#]\)/    # \1/'
	else cat; fi
}

# boot_verdict KEY PREFIX SUFFIX DIR: a boot's own rows, from its cleaned report and console
# (DIR/results.clean, DIR/console.clean): the guest finished, the kernel log is clean
# (BAD_CONSOLE), the kernel is tainted by our modules only (TAINT_OK). The matrix's boots and
# the Debian system test's alike; each row's name is "PREFIX check SUFFIX".
boot_verdict() {
	local key=$1 pre=$2 suf=$3 dir=$4 bad done taint
	bad=$(grep -Ea "$BAD_CONSOLE" "$dir/console.clean" | head -n 1)
	done=$(grep -c '^# guest-done' "$dir/results.clean")
	taint=$(sed -n 's/^# taint: //p' "$dir/results.clean" | tail -n 1)
	if [ "$done" = 1 ] && [ -z "$bad" ]; then
		result "$key" ok "$pre kernel log clean$suf"
	elif [ -n "$bad" ]; then
		result "$key" fail "$pre kernel log clean$suf" "$bad (see $dir/console.log)"
	else
		result "$key" fail "$pre guest finished$suf" \
			"no guest-done marker; qemu exit $(cat "$dir/qemu.status"); see $dir/console.log"
	fi
	if [ -n "$taint" ] && [ $((taint & ~TAINT_OK)) -ne 0 ]; then
		result "$key" fail "$pre kernel not tainted$suf" \
			"/proc/sys/kernel/tainted is $taint: flags beyond out-of-tree and unsigned"
	elif [ "$done" = 1 ] && [ -z "$taint" ]; then
		result "$key" fail "$pre kernel not tainted$suf" "the guest reported no taint"
	elif [ -n "$taint" ]; then
		result "$key" ok "$pre kernel not tainted$suf" "tainted $taint: out-of-tree/unsigned only"
	fi
}

# report DIR KEY EXPECT CASES...: turn one boot's results into KTAP lines. The boot's own
# checks (console, guest finished, taint, kmemleak) are results of their own; in the boot of a
# case that must fail ("# expect: fail") they are that case's failure, which must match its
# "# expect-match: ERE" (in the console, the guest's report or the verdict).
report() {
	local dir=$1 key=$2 expect=$3 c line verdict comment bad running done taint leak boot_fail em cbad cfail ce
	shift 3
	tr -d '\r' <"$dir/results.ktap" >"$dir/results.clean" 2>/dev/null || : >"$dir/results.clean"
	tr -d '\r' <"$dir/console.log" >"$dir/console.clean" 2>/dev/null || : >"$dir/console.clean"
	for c in "$@"; do
		if [ "$(case_header fault-reports "$c")" = yes ]; then
			awk "$ALLOC_REPORTS" "$dir/console.clean" >"$dir/console.f" &&
				mv "$dir/console.f" "$dir/console.clean"
			break
		fi
	done
	bad=$(grep -Ea "$BAD_CONSOLE" "$dir/console.clean" | head -n 1)
	done=$(grep -c '^# guest-done' "$dir/results.clean")
	running=$(sed -n 's/^# running //p' "$dir/results.clean" | tail -n 1)
	taint=$(sed -n 's/^# taint: //p' "$dir/results.clean" | tail -n 1)
	leak=$(sed -n 's/^# kmemleak-result: //p' "$dir/results.clean" | tail -n 1)
	boot_fail=""
	[ -n "$bad" ] && boot_fail="console: $bad"
	[ -n "$taint" ] && [ $((taint & ~TAINT_OK)) -ne 0 ] && boot_fail="$boot_fail; tainted $taint"
	[ "$leak" = leak ] && boot_fail="$boot_fail; kmemleak: $(grep -m1 '^# kmemleak: ' "$dir/results.clean" | cut -c13-)"
	[ "$leak" = disabled ] && boot_fail="$boot_fail; kmemleak disabled itself"
	boot_fail=${boot_fail#; }
	[ "$expect" = fail ] || record_times "$dir" "$KNAME/$BACKEND"
	for c in "$@"; do
		line=$(grep -E "^(not )?ok [0-9]+ $c( |$)" "$dir/results.clean" | head -n 1)
		if [ -n "$line" ]; then
			case $line in
			"ok "*"# SKIP"*) verdict=skip; comment=${line#*# SKIP } ;;
			"ok "*) verdict=ok; comment=$(echo "$line" | sed -n 's/^ok [0-9]* [^ ]*\( # \)\{0,1\}//p') ;;
			*) verdict=fail; comment=$(echo "$line" | sed -n 's/^not ok [0-9]* [^ ]*\( # \)\{0,1\}//p') ;;
			esac
		elif [ "$c" = "$running" ]; then
			verdict=fail
			if [ -s "$dir/watchdog" ]; then
				comment="host watchdog: $(cat "$dir/watchdog")${bad:+: $bad}"
			else
				comment="guest died while running it (qemu exit $(cat "$dir/qemu.status"))${bad:+: $bad}"
			fi
		else
			verdict=fail
			comment="not run: guest stopped before it (qemu exit $(cat "$dir/qemu.status"))"
		fi
		if [ "$expect" = fail ]; then
			em=$(case_header expect-match "$c")
			# Several self-tests in one boot: each is judged on its own part of the console
			# and of the report (from its "running" marker to the next case's), and on what
			# the boot reports at its end (kmemleak, taint); one case alone, on all of it.
			if [ $# -gt 1 ]; then
				case_section "auxbus-test: running " "$c" "$dir/console.clean" >"$dir/console.$c"
				{ case_section "# running " "$c" "$dir/results.clean"
				  sed -n '/^# phase kmemleak/,$p' "$dir/results.clean"; } >"$dir/results.$c"
			else
				cp "$dir/console.clean" "$dir/console.$c"
				cp "$dir/results.clean" "$dir/results.$c"
			fi
			cbad=$(grep -Ea "$BAD_CONSOLE" "$dir/console.$c" | head -n 1)
			cfail=${boot_fail#"console: $bad"}
			cfail=${cfail#; }
			[ -n "$cbad" ] && cfail="console: $cbad${cfail:+; $cfail}"
			if [ "$verdict" != fail ] && [ -n "$cfail" ]; then
				verdict=fail
				comment="$cfail"
			fi
			if [ "$verdict" = fail ] && ! grep -q "^# running $c\$" "$dir/results.clean"; then
				comment="the guest never started it: $comment"
			elif [ "$verdict" = fail ] && { [ -z "$em" ] ||
				! { cat "$dir/console.$c" "$dir/results.$c"; echo "$comment"; } | grep -Eq "$em"; }; then
				comment="failed, but not as expected (/${em:-no expect-match header}/): $comment"
			elif [ "$verdict" = fail ]; then
				verdict=ok
				comment="deliberate failure caught as /$em/: $comment"
			elif [ "$verdict" = ok ]; then
				verdict=fail
				comment="deliberately broken test was reported as passing"
			fi
		fi
		# "# console-expect: ERE": the kernel log must show it (e.g. on the reboot path).
		ce=$(case_header console-expect "$c")
		if [ "$verdict" = ok ] && [ -n "$ce" ] && ! grep -Eq "$ce" "$dir/console.clean"; then
			verdict=fail
			comment="the console never showed /$ce/"
		fi
		case_block "$dir" "$c" "$expect" >"$dir/block.$c"
		case_result "$key" "$verdict" "$KNAME/$BACKEND: $c" "$comment" "$dir/block.$c"
	done
	[ "$expect" = fail ] && return 0
	boot_verdict "$key" "$KNAME/$BACKEND:" " ($(basename "$dir"))" "$dir"
	case $leak in
	disabled)
		result "$key" fail "$KNAME/$BACKEND: kmemleak ($(basename "$dir"))" \
			"kmemleak disabled itself: $(sed -n 's/^# kmemleak-disabled: //p' "$dir/results.clean")" ;;
	leak)
		result "$key" fail "$KNAME/$BACKEND: kmemleak ($(basename "$dir"))" \
			"$(grep -m1 '^# kmemleak: ' "$dir/results.clean" | cut -c3-)" ;;
	clean) result "$key" ok "$KNAME/$BACKEND: kmemleak ($(basename "$dir"))" ;;
	esac
}
