#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Host test of auxbus/lsaux on synthetic sysfs trees laid out as the kernel lays them out
# (/sys/bus/<bus>/devices/<name> -> ../../../devices/.../<name>, driver and module links,
# modalias, uevent, irqs/, /sys/module/auxbus/parameters): the text tree, valid JSON with the same
# data (python3 -m json.tool and a python3 check of the content), JSON escaping of '"' and '\',
# the exit status of each error, under every shell found of dash, busybox sh and bash.
# Prints TAP; exit status 1 if anything failed. tests/run runs it as a host result.
# Usage: tests/tools/lsaux-test.sh [LSAUX]   (LSAUX_TEST_DIR=DIR: build the trees in DIR and keep them)

TOP=$(cd "$(dirname "$0")/../.." && pwd)
LSAUX=${1:-$TOP/auxbus/lsaux}
T=${LSAUX_TEST_DIR:-$(mktemp -d)}
[ -n "${LSAUX_TEST_DIR:-}" ] || trap 'rm -rf "$T"' EXIT
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
fail() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n $1"
	[ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/# /'
	return 0
}

# rel FROM TO: TO (a path below $R) relative to directory FROM (below $R), as the kernel's
# sysfs links are
rel() {
	_f=${1#"$R"/} _t=${2#"$R"/} _up=""
	while [ -n "$_f" ]; do
		_up="../$_up"
		case $_f in */*) _f=${_f%/*} ;; *) _f="" ;; esac
	done
	echo "$_up$_t"
}
# slink TARGET LINK: a relative symlink LINK -> TARGET (both absolute paths below $R)
slink() { mkdir -p "${2%/*}" && ln -s "$(rel "${2%/*}" "$1")" "$2"; }

# driver BUS NAME [MODULE]: a driver directory, with its module link
driver() {
	mkdir -p "$R/bus/$1/drivers/$2"
	if [ -n "$3" ]; then
		mkdir -p "$R/module/$3"
		slink "$R/module/$3" "$R/bus/$1/drivers/$2/module"
	fi
}
# parent PATH BUS DRIVER: a parent device below devices/ bound to BUS's DRIVER ("" unbound)
parent() {
	mkdir -p "$R/devices/$1"
	[ -n "$3" ] && slink "$R/bus/$2/drivers/$3" "$R/devices/$1/driver"
	return 0
}
# adev BUS PARENT NAME DRIVER MODALIAS-FILE UEVENT-MODALIAS [IRQ...]: an auxiliary device; DRIVER
# "" is unbound; MODALIAS-FILE "" has no modalias file; IRQs "-" makes an empty irqs/
adev() {
	_b=$1 _d=$R/devices/$2/$3 _drv=$4 _ma=$5 _ue=$6
	shift 6
	mkdir -p "$_d/power"
	slink "$_d" "$R/bus/$_b/devices/${_d##*/}"
	[ -n "$_drv" ] && slink "$R/bus/$_b/drivers/$_drv" "$_d/driver"
	[ -n "$_ma" ] && echo "$_ma" >"$_d/modalias"
	{ [ -n "$_drv" ] && echo "DRIVER=$_drv"; [ -n "$_ue" ] && echo "MODALIAS=$_ue"; } >"$_d/uevent"
	if [ $# -gt 0 ]; then
		mkdir -p "$_d/irqs"
		for _i in "$@"; do [ "$_i" = - ] || : >"$_d/irqs/$_i"; done
	fi
	return 0
}
auxbus_mod() { # auxbus_mod MODE BUS [VERSION]
	mkdir -p "$R/module/auxbus/parameters"
	echo "$1" >"$R/module/auxbus/parameters/mode"
	echo "$2" >"$R/module/auxbus/parameters/bus"
	[ -n "$3" ] && echo "$3" >"$R/module/auxbus/version"
	echo 0123456789ABCDEF0123456 >"$R/module/auxbus/srcversion"
}

# bundled: 5.10, auxbus.ko registers "auxiliary"; an SOF DSP (one client unbound), an mlx5 port,
# a root-device parent without a driver whose client has irqs.
R=$T/bundled
mkdir -p "$R/bus/auxiliary/devices" "$R/bus/platform/devices" "$R/bus/mlx5_shim/devices"
auxbus_mod bundled auxiliary 0.1.0
driver platform snd_sof_shim snd_sof_shim
driver auxiliary snd_sof_shim_ipc_flood.ipc_flood snd_sof_shim_ipc_flood
driver mlx5_shim mlx5_shim_core mlx5_shim_core
driver auxiliary mlx5_shim_eth.eth mlx5_shim_eth
driver auxiliary mlx5_shim_rdma.rdma mlx5_shim_rdma
driver auxiliary auxbus_test_client.client auxbus_test_client
parent platform/snd_sof_shim.0 platform snd_sof_shim
adev auxiliary platform/snd_sof_shim.0 snd_sof_shim.ipc_flood.0 snd_sof_shim_ipc_flood.ipc_flood \
	"" auxiliary:snd_sof_shim.ipc_flood
adev auxiliary platform/snd_sof_shim.0 snd_sof_shim.hda-probes.0 "" "" auxiliary:snd_sof_shim.hda-probes
parent mlx5_shim1p0 mlx5_shim mlx5_shim_core
adev auxiliary mlx5_shim1p0 mlx5_shim_core.eth.0 mlx5_shim_eth.eth \
	auxiliary:mlx5_shim_core.eth auxiliary:mlx5_shim_core.eth
adev auxiliary mlx5_shim1p0 mlx5_shim_core.rdma.0 mlx5_shim_rdma.rdma \
	auxiliary:mlx5_shim_core.rdma auxiliary:mlx5_shim_core.rdma -
parent auxbus_test_parent "" ""
mkdir -p "$R/module/auxbus_test_parent"
slink "$R/module/auxbus_test_parent" "$R/devices/auxbus_test_parent/module"
adev auxiliary auxbus_test_parent auxbus_test_parent.client.0 auxbus_test_client.client \
	"" auxiliary:auxbus_test_parent.client 100 101

cat >"$T/bundled.want" <<-'EOF'
	implementation: bundled (auxbus.ko 0.1.0 registers bus auxiliary)
	bus auxiliary (auxbus.ko):
	  auxbus_test_parent  no driver  module auxbus_test_parent
	    auxbus_test_parent.client.0  driver auxbus_test_client.client  module auxbus_test_client  modalias auxiliary:auxbus_test_parent.client  irqs 100 101
	  mlx5_shim1p0  driver mlx5_shim_core  module mlx5_shim_core
	    mlx5_shim_core.eth.0  driver mlx5_shim_eth.eth  module mlx5_shim_eth  modalias auxiliary:mlx5_shim_core.eth
	    mlx5_shim_core.rdma.0  driver mlx5_shim_rdma.rdma  module mlx5_shim_rdma  modalias auxiliary:mlx5_shim_core.rdma  irqs none
	  platform/snd_sof_shim.0  driver snd_sof_shim  module snd_sof_shim
	    snd_sof_shim.hda-probes.0  unbound  modalias auxiliary:snd_sof_shim.hda-probes
	    snd_sof_shim.ipc_flood.0  driver snd_sof_shim_ipc_flood.ipc_flood  module snd_sof_shim_ipc_flood  modalias auxiliary:snd_sof_shim.ipc_flood
EOF

# coexist: 6.1 with auxbus.ko beside the kernel's bus; a built-in driver (no module link) on the
# kernel's bus, a quote and a backslash in a name, the version only as srcversion
R=$T/coexist
mkdir -p "$R/bus/auxiliary/devices" "$R/bus/auxbus/devices" "$R/bus/platform/devices"
auxbus_mod coexist auxbus
driver platform snd_sof_shim snd_sof_shim
driver auxbus snd_sof_shim_ipc_flood.ipc_flood snd_sof_shim_ipc_flood
driver platform builtin_parent ""
driver auxiliary builtin_client.x ""
parent platform/snd_sof_shim.3 platform snd_sof_shim
adev auxbus platform/snd_sof_shim.3 snd_sof_shim.ipc_flood.7 snd_sof_shim_ipc_flood.ipc_flood \
	"" auxbus:snd_sof_shim.ipc_flood
adev auxbus platform/snd_sof_shim.3 'odd"na\me.x.0' "" "" 'auxbus:odd"na\me.x'
parent 'pci0000:00/0000:00:02.0' platform builtin_parent
adev auxiliary 'pci0000:00/0000:00:02.0' builtin_parent.x.0 builtin_client.x "" ""

cat >"$T/coexist.want" <<-'EOF'
	implementation: coexist (auxbus.ko (srcversion 0123456789ABCDEF0123456) registers bus auxbus beside the kernel's auxiliary)
	bus auxiliary (the kernel's built-in bus):
	  pci0000:00/0000:00:02.0  driver builtin_parent  module built-in
	    builtin_parent.x.0  driver builtin_client.x  module built-in  modalias -
	bus auxbus (auxbus.ko):
	  platform/snd_sof_shim.3  driver snd_sof_shim  module snd_sof_shim
	    odd"na\me.x.0  unbound  modalias auxbus:odd"na\me.x
	    snd_sof_shim.ipc_flood.7  driver snd_sof_shim_ipc_flood.ipc_flood  module snd_sof_shim_ipc_flood  modalias auxbus:snd_sof_shim.ipc_flood
EOF

# kernel: the kernel's bus, auxbus.ko not loaded, no devices
R=$T/kernel
mkdir -p "$R/bus/auxiliary/devices" "$R/devices" "$R/module"
cat >"$T/kernel.want" <<-'EOF'
	implementation: kernel (the kernel's bus auxiliary; auxbus.ko not loaded)
	bus auxiliary (the kernel's built-in bus):
	  (no devices)
EOF

# kernel, auxbus.ko loaded as the compat library
R=$T/compat
mkdir -p "$R/bus/auxiliary/devices" "$R/devices"
auxbus_mod kernel auxiliary 0.1.0
cat >"$T/compat.want" <<-'EOF'
	implementation: kernel (the kernel's bus auxiliary; auxbus.ko 0.1.0 loaded as compat library)
	bus auxiliary (the kernel's built-in bus):
	  (no devices)
EOF

# none: no bus at all
mkdir -p "$T/none/bus/platform" "$T/none/devices" "$T/none/module"

# What the JSON must say, per tree: the same devices, drivers, modules, modaliases and irqs.
cat >"$T/check.py" <<-'EOF'
	import json, sys
	doc = json.load(open(sys.argv[1]))
	want = {
	    "bundled": ("bundled", {"loaded": True, "mode": "bundled", "bus": "auxiliary",
	                            "version": "0.1.0", "srcversion": "0123456789ABCDEF0123456"}, [
	        ("auxiliary", "auxbus.ko", [
	            ("auxbus_test_parent", None, "auxbus_test_parent", [
	                ("auxbus_test_parent.client.0", "auxbus_test_client.client", "auxbus_test_client",
	                 "auxiliary:auxbus_test_parent.client", [100, 101])]),
	            ("mlx5_shim1p0", "mlx5_shim_core", "mlx5_shim_core", [
	                ("mlx5_shim_core.eth.0", "mlx5_shim_eth.eth", "mlx5_shim_eth",
	                 "auxiliary:mlx5_shim_core.eth", None),
	                ("mlx5_shim_core.rdma.0", "mlx5_shim_rdma.rdma", "mlx5_shim_rdma",
	                 "auxiliary:mlx5_shim_core.rdma", [])]),
	            ("platform/snd_sof_shim.0", "snd_sof_shim", "snd_sof_shim", [
	                ("snd_sof_shim.hda-probes.0", None, None, "auxiliary:snd_sof_shim.hda-probes", None),
	                ("snd_sof_shim.ipc_flood.0", "snd_sof_shim_ipc_flood.ipc_flood",
	                 "snd_sof_shim_ipc_flood", "auxiliary:snd_sof_shim.ipc_flood", None)])])]),
	    "coexist": ("coexist", {"loaded": True, "mode": "coexist", "bus": "auxbus",
	                            "version": None, "srcversion": "0123456789ABCDEF0123456"}, [
	        ("auxiliary", "kernel", [
	            ("pci0000:00/0000:00:02.0", "builtin_parent", None, [
	                ("builtin_parent.x.0", "builtin_client.x", None, None, None)])]),
	        ("auxbus", "auxbus.ko", [
	            ("platform/snd_sof_shim.3", "snd_sof_shim", "snd_sof_shim", [
	                ('odd"na\\me.x.0', None, None, 'auxbus:odd"na\\me.x', None),
	                ("snd_sof_shim.ipc_flood.7", "snd_sof_shim_ipc_flood.ipc_flood",
	                 "snd_sof_shim_ipc_flood", "auxbus:snd_sof_shim.ipc_flood", None)])])]),
	    "kernel": ("kernel", {"loaded": False, "mode": None, "bus": None, "version": None,
	                          "srcversion": None}, [("auxiliary", "kernel", [])]),
	}[sys.argv[2]]
	got = (doc["implementation"], doc["auxbus"], [
	    (b["name"], b["provider"], [
	        (p["path"], p["driver"], p["module"], [
	            (d["name"], d["driver"], d["module"], d["modalias"], d["irqs"]) for d in p["devices"]])
	        for p in b["parents"]]) for b in doc["buses"]])
	if got != want:
	    print("want", want)
	    print("got ", got)
	    sys.exit(1)
	EOF

shells=""
command -v dash >/dev/null && shells="$shells dash"
command -v busybox >/dev/null && busybox sh -c : 2>/dev/null && shells="$shells busybox_sh"
command -v bash >/dev/null && shells="$shells bash"
# Debian's own python3 first: a pyenv shim on PATH takes 0.4 s a start
PY=/usr/bin/python3
[ -x $PY ] || PY=$(command -v python3)
have_py=0
[ -n "$PY" ] && have_py=1

for sh in $shells; do
	run() { if [ "$sh" = busybox_sh ]; then busybox sh "$LSAUX" "$@"; else "$sh" "$LSAUX" "$@"; fi; }
	for tree in bundled coexist kernel compat; do
		out=$(run --sysfs "$T/$tree" 2>&1)
		if [ "$out" = "$(cat "$T/$tree.want")" ]; then
			ok "$sh: $tree: text"
		else
			fail "$sh: $tree: text" "$(printf '%s\n' "$out" | diff "$T/$tree.want" - )"
		fi
	done
	out=$(LSAUX_SYSFS=$T/bundled run 2>&1)
	[ "$out" = "$(cat "$T/bundled.want")" ] && ok "$sh: LSAUX_SYSFS" || fail "$sh: LSAUX_SYSFS" "$out"
	for tree in bundled coexist kernel; do
		if [ $have_py = 0 ]; then
			echo "ok $((n += 1)) $sh: $tree: JSON # SKIP no python3"
			continue
		fi
		run --json --sysfs="$T/$tree" >"$T/$tree.json" 2>"$T/err"
		if ! $PY -m json.tool "$T/$tree.json" >/dev/null 2>"$T/err"; then
			fail "$sh: $tree: --json is valid JSON" "$(cat "$T/err" "$T/$tree.json")"
		elif ! $PY "$T/check.py" "$T/$tree.json" $tree >"$T/err" 2>&1; then
			fail "$sh: $tree: --json has the data of the tree" "$(cat "$T/err")"
		else
			ok "$sh: $tree: --json is valid JSON with the data of the tree"
		fi
	done
	run --sysfs "$T/none" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] && grep -q 'no auxiliary bus' "$T/err" && ok "$sh: no bus: exit 1, says so" ||
		fail "$sh: no bus: exit 1, says so" "rc $rc: $(cat "$T/err")"
	run --sysfs "$T/missing" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 1 ] && ok "$sh: missing sysfs root: exit 1" || fail "$sh: missing sysfs root: exit 1" "rc $rc"
	run --bogus >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$T/out" ] && grep -q '^usage: lsaux' "$T/err" &&
		ok "$sh: unknown option: usage on stderr, exit 2" ||
		fail "$sh: unknown option: usage on stderr, exit 2" "rc $rc: $(cat "$T/out" "$T/err")"
	run --sysfs >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 2 ] && ok "$sh: --sysfs without DIR: exit 2" || fail "$sh: --sysfs without DIR: exit 2" "rc $rc"
	run -h >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 0 ] && grep -q '^usage: lsaux' "$T/out" && ok "$sh: -h: usage on stdout, exit 0" ||
		fail "$sh: -h: usage on stdout, exit 0" "rc $rc"
done
[ -n "$shells" ] || fail "a shell to run lsaux with (dash, busybox, bash)"

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed (shells:$shells)"
[ $failed = 0 ]
