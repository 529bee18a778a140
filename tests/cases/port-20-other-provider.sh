#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Issues 17 and 28: other vendors' out-of-tree auxiliary buses as they ship today, by their
# stand-ins (tests/porters/other-providers/Kbuild says what each models), each its own subtests:
# - mlnx: MLNX_OFED's auxiliary.ko holds the bus "auxiliary" and exports the unprefixed API
#   (Intel's drivers shipped the same module before their rename: one stand-in covers both).
#   auxbus.ko must fail with EEXIST and a line that names the module and what to do, not with
#   the module loader's duplicate-symbol refusal, and load once that module is gone.
# - intel: Intel's intel_auxiliary.ko registers "intel_auxiliary", exports intel_auxiliary_*
#   and gives its devices "intel_auxiliary:" aliases. auxbus.ko loads beside it and says so;
#   each bus binds its own device to its own driver, and no client carries the other bus's
#   alias, so none can autoload on the other bus's devices.
# Only where the kernel has no bus of its own (where those packages build theirs).
# kernels: bullseye debug debugc
# backends: bundled
. /tests/lib/ktap.sh

EXTRA=/lib/modules/$KVER/extra
ALIASES=/lib/modules/$KVER/modules.alias
MODS="porter_plain porter_net porter_ns porter_compat porter_legacy porter_multi porter_parent
intel_aux_client intel_aux_parent auxbus auxiliary intel_auxiliary"

cleanup() {
	for m in $MODS; do
		rmmod "$m" 2>/dev/null
	done
}
trap cleanup EXIT

# the two layouts' exports: one read of /proc/kallsyms (seconds under TCG) with both loaded,
# which only works because their names differ (no "exports duplicate symbol")
t_check "mlnx: insmod the stand-in auxiliary.ko" insmod "$EXTRA/auxiliary.ko"
t_check "intel: insmod the stand-in intel_auxiliary.ko beside it" insmod "$EXTRA/intel_auxiliary.ko"
syms=$(awk '$3 ~ /^(intel_)?auxiliary_device_init$/ { print $3 $4 }' /proc/kallsyms)
t_eq "mlnx: auxiliary_device_init is auxiliary.ko's" "auxiliary_device_init[auxiliary]" \
	"$(printf '%s\n' "$syms" | grep '^auxiliary_device_init')"
t_eq "intel: intel_auxiliary.ko exports intel_auxiliary_device_init" \
	"intel_auxiliary_device_init[intel_auxiliary]" "$(printf '%s\n' "$syms" | grep '^intel_')"
t_check "intel: rmmod intel_auxiliary" rmmod intel_auxiliary

# mlnx: the bus "auxiliary" is taken
t_log_mark other-provider-mlnx
t_check_errno "mlnx: insmod auxbus.ko fails with EEXIST" "File exists" insmod "$EXTRA/auxbus.ko"
t_check "mlnx: the kernel log names the module and its package" \
	t_log_has other-provider-mlnx "auxbus:.*a bus named 'auxiliary' is registered already, by module auxiliary: MLNX_OFED's (mlnx-ofa_kernel) or Intel's pre-2022 out-of-tree auxiliary.ko\. The bundle's clients cannot use that bus\."
t_check "mlnx: and says what to do" \
	t_log_has other-provider-mlnx "Unload it and the drivers that use it (modprobe -r auxiliary), or remove that package, then load auxbus again\.$"
t_check "mlnx: no duplicate-symbol refusal by the module loader" \
	t_log_lacks other-provider-mlnx 'exports duplicate symbol'
t_check_fails "mlnx: auxbus is not loaded" grep -q '^auxbus ' /proc/modules
t_check "mlnx: rmmod auxiliary" rmmod auxiliary
t_check "mlnx: modprobe auxbus works once the bus is free" modprobe auxbus
t_check "mlnx: its bus is there" test -d "/sys/bus/$AUXBUS_BUS/devices"
t_check "mlnx: rmmod auxbus" rmmod auxbus

# intel: a bus of its own beside the bundle's
IDEV=/sys/bus/intel_auxiliary/devices/intel_aux_parent.rdma.0
PDEV=/sys/bus/$AUXBUS_BUS/devices/porter_parent.plain.0
t_check "intel: insmod intel_auxiliary.ko again" insmod "$EXTRA/intel_auxiliary.ko"
t_check "intel: its bus is intel_auxiliary" test -d /sys/bus/intel_auxiliary/devices
t_log_mark other-provider-intel
t_check "intel: insmod auxbus.ko beside it" insmod "$EXTRA/auxbus.ko"
t_check "intel: the kernel log says the bundle's clients do not bind its devices" \
	t_log_has other-provider-intel "auxbus:.*module intel_auxiliary is loaded (Intel's out-of-tree drivers' (ice, irdma) intel_auxiliary.ko): its devices are on its own bus, and the bundle's clients do not bind them$"
t_check "intel: both buses are registered" \
	test -d /sys/bus/intel_auxiliary/devices -a -d "/sys/bus/$AUXBUS_BUS/devices"
t_check "intel: modprobe intel_aux_parent" modprobe intel_aux_parent
t_check "intel: its device is on the intel_auxiliary bus" test -e "$IDEV"
t_eq "intel: its uevent's MODALIAS" "MODALIAS=intel_auxiliary:intel_aux_parent.rdma" \
	"$(grep '^MODALIAS=' "$IDEV/uevent")"
t_check "intel: modprobe of that MODALIAS loads intel_aux_client" \
	modprobe intel_auxiliary:intel_aux_parent.rdma
t_check "intel: which binds it" t_wait_for "$IDEV/driver" 50
t_eq "intel: as intel_aux_client.rdma" intel_aux_client.rdma "$(basename "$(readlink "$IDEV/driver")")"
t_check "intel: modprobe porter_parent and porter_plain (the bundle's bus)" \
	sh -c 'modprobe porter_parent && modprobe porter_plain'
t_check "intel: porter_parent.plain.0 is bound on $AUXBUS_BUS" t_wait_for "$PDEV/driver" 50
t_eq "intel: as porter_plain" porter_plain "$(basename "$(readlink "$PDEV/driver")")"
t_eq "intel: intel_auxiliary has its own device only" intel_aux_parent.rdma.0 \
	"$(ls /sys/bus/intel_auxiliary/devices | tr '\n' ' ' | sed 's/ $//')"
t_eq "intel: and its own driver only" intel_aux_client.rdma \
	"$(ls /sys/bus/intel_auxiliary/drivers | tr '\n' ' ' | sed 's/ $//')"
t_check_fails "intel: $AUXBUS_BUS has none of its devices or drivers" \
	sh -c "ls /sys/bus/$AUXBUS_BUS/devices /sys/bus/$AUXBUS_BUS/drivers | grep intel_aux"
t_eq "intel: intel_aux_client's aliases: intel_auxiliary: only" \
	intel_auxiliary:intel_aux_parent.rdma "$(modinfo -F alias intel_aux_client | tr '\n' ' ' | sed 's/ $//')"
t_eq "intel: modules.alias: intel_auxiliary: aliases are intel_aux_client's only" \
	"alias intel_auxiliary:intel_aux_parent.rdma intel_aux_client" "$(grep '^alias intel_auxiliary:' "$ALIASES")"
t_check_fails "intel: modules.alias: nothing for its device under $AUXBUS_PREFIX" \
	grep -q "^alias ${AUXBUS_PREFIX}intel_aux_parent" "$ALIASES"
t_check "intel: rmmod in order" \
	sh -c 'rmmod porter_plain porter_parent intel_aux_client intel_aux_parent auxbus intel_auxiliary'
t_done
