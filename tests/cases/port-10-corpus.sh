#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: bus detectors
# Issue 17: the porters' corpus (tests/porters), built by the harness against the INSTALLED
# bundle, written the ways real drivers are (no pr_fmt, networking headers, old-syntax
# namespace imports, their own compat shims, plain MODULE_DEVICE_TABLE(auxiliary, ...)).
# With nothing loaded but the parent, every client is autoloaded through modules.alias by a
# uevent helper that runs `modprobe $MODALIAS` (as udev's kmod builtin does) and binds.
. /tests/lib/ktap.sh

BUS=/sys/bus/$AUXBUS_BUS
# function of porter_parent: client module: its driver's name on the bus
CLIENTS="plain:porter_plain:porter_plain
eth:porter_net:porter_net.eth
ns:porter_ns:porter_ns.ns
compat:porter_compat:porter_compat
legacy:porter_legacy:porter_legacy.legacy
multi_a:porter_multi:porter_multi.multi
multi_b:porter_multi:porter_multi.multi"
MODS="porter_plain porter_net porter_ns porter_compat porter_legacy porter_multi"
old_helper=""

cleanup() {
	[ -n "$old_helper" ] && echo "$old_helper" >/proc/sys/kernel/hotplug
	for m in $MODS porter_parent auxbus; do
		rmmod "$m" 2>/dev/null
	done
}
trap cleanup EXIT

if ! modinfo porter_parent >/dev/null 2>&1; then
	t_fail "the corpus is in the guest" "the harness did not build tests/porters"
	t_done
fi
for e in $CLIENTS; do
	fn=${e%%:*}
	m=${e#*:}
	m=${m%%:*}
	t_check "modules.alias: ${AUXBUS_PREFIX}porter_parent.$fn -> $m" \
		grep -qx "alias ${AUXBUS_PREFIX}porter_parent.$fn $m" "/lib/modules/$KVER/modules.alias"
done
# on the coexisting bus, only its own aliases: the kernel bus's devices never load the corpus
if [ "$AUXBUS_PREFIX" = auxbus: ]; then
	t_check "modules.alias: no auxiliary:porter_parent.* (the kernel bus's prefix)" sh -c \
		"! grep -q '^alias auxiliary:porter_parent\.' /lib/modules/$KVER/modules.alias"
fi
t_eq "porter_net imports AUXBUS (the header) and PORTER_PARENT (old syntax before 6.13)" \
	"AUXBUS,PORTER_PARENT" "$(modinfo -F import_ns porter_net | sort -u | tr '\n' ',' | sed 's/,$//')"
t_eq "porter_ns too" \
	"AUXBUS,PORTER_PARENT" "$(modinfo -F import_ns porter_ns | sort -u | tr '\n' ',' | sed 's/,$//')"
t_check "no client is loaded yet" sh -c "! grep -qE '^porter_' /proc/modules"

if [ -w /proc/sys/kernel/hotplug ]; then
	old_helper=$(cat /proc/sys/kernel/hotplug)
	[ -n "$old_helper" ] || old_helper=" "
	cat >/tmp/porters-hotplug <<'EOS'
#!/bin/sh
[ "$ACTION" = add ] && [ -n "$MODALIAS" ] && exec /sbin/modprobe -q "$MODALIAS"
exit 0
EOS
	chmod +x /tmp/porters-hotplug
	echo /tmp/porters-hotplug >/proc/sys/kernel/hotplug
	t_check "modprobe porter_parent (and nothing else)" modprobe porter_parent
else
	t_skip "uevent helper loads the clients" "no /proc/sys/kernel/hotplug (CONFIG_UEVENT_HELPER)"
	t_check "modprobe porter_parent (and nothing else)" modprobe porter_parent
	for e in $CLIENTS; do
		fn=${e%%:*}
		m=$(sed -n 's/^MODALIAS=//p' "$BUS/devices/porter_parent.$fn.0/uevent")
		t_check "coldplug: modprobe $m" modprobe "$m"
	done
fi
for e in $CLIENTS; do
	fn=${e%%:*}
	rest=${e#*:}
	m=${rest%%:*}
	drv=${rest#*:}
	d=$BUS/devices/porter_parent.$fn.0
	t_check "$m was autoloaded for porter_parent.$fn" t_wait_for "/sys/module/$m" 100
	t_check "porter_parent.$fn.0 is bound" t_wait_for "$d/driver" 50
	t_eq "porter_parent.$fn.0 is bound to $drv" "$drv" "$(basename "$(readlink "$d/driver")")"
done
t_check "porter_net registered its netdev under the auxiliary device" \
	sh -c "ls $BUS/devices/porter_parent.eth.0/net/ | grep -q '^porter'"
t_check "the kernel log has no pr_fmt surprises: 'porter_plain: bound'" \
	sh -c "dmesg | grep -q 'porter_plain: bound porter_parent.plain.0'"
for m in $MODS; do
	t_check "rmmod $m" rmmod "$m"
done
t_check "rmmod porter_parent" rmmod porter_parent
t_check_fails "its devices are gone" test -e "$BUS/devices/porter_parent.plain.0"
t_done
