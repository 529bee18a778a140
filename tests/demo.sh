# SPDX-License-Identifier: GPL-2.0-only
# What `make demo` shows, run in the guest (busybox sh). Output goes to the host's terminal.
# kmods: snd-compress
# (the SOF part: snd_sof_shim needs it where the kernel has SND_SOC_COMPRESS)
say() { printf '\n== %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; sh -c "$*" 2>&1 | sed 's/^/  /'; }

say "Kernel $(uname -r) ($KERNEL): has it an auxiliary bus of its own?"
run "ls /sys/bus | tr '\n' ' '; echo"
if [ -d /sys/bus/auxiliary ]; then
	echo "  /sys/bus/auxiliary exists before auxbus.ko is loaded: this kernel has a built-in bus."
else
	echo "  No /sys/bus/auxiliary: this kernel has no auxiliary bus."
fi

say "Load the bundled bus"
run "modprobe auxbus"
run "ls -d /sys/bus/$AUXBUS_BUS"
run "cat /sys/module/auxbus/parameters/* 2>/dev/null; modinfo auxbus | grep -E '^(description|version|vermagic|parm):'"

# Each area adds its part as tests/demo-<area>.sh (first line: "# title: ...").
for part in /tests/demo-*.sh; do
	[ -f "$part" ] || continue
	say "$(sed -n 's/^# title: //p' "$part")"
	sh "$part" 2>&1 | sed 's/^/  /'
done

say "Unload the bus: with nothing left on it, /sys/bus/$AUXBUS_BUS goes with it"
run "rmmod auxbus; ls -d /sys/bus/$AUXBUS_BUS"
