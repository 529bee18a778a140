#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# axes: api detectors
# mlx5 shim: every control file (the bus's new_device and del_device in sysfs, the ports' knobs
# in debugfs) rejects malformed, duplicate, out-of-range and oversize input with a clear errno
# and nothing half-created; a debugfs knob rejects writes at an offset; a command without
# newline or NUL terminator works; a NUL inside a command is rejected.
. /tests/lib/ktap.sh
. /tests/cases/mlx5-common.inc

MODS="mlx5_shim_sf mlx5_shim_eth mlx5_shim_core"
cleanup() {
	exec 3>&- 2>/dev/null
	mlx5_cleanup 1 2 3 4
}
trap cleanup EXIT

EINVAL="Invalid argument"
ports() { ls $PB | tr '\n' ' ' | sed 's/ $//'; }
adevs() { ls $AB | grep -c '^mlx5_shim_core\.'; }

t_check "load modules" mlx5_load mlx5_shim_core mlx5_shim_eth mlx5_shim_sf

# new_device
for cmd in '\n' ' \n' 'abc\n' '1x\n' '-1\n' '65536\n' '99999999999\n' '1 ports=0\n' \
	'1 ports=5\n' '1 ports=x\n' '1 ports=\n' '1 ports\n' '1 caps=foo\n' '1 caps=eth,foo\n' \
	'1 caps=eth,eth\n' '1 caps=\n' '1 bogus=1\n' '1 ports=2 ports=2\n' '1 caps=eth caps=rdma\n' \
	'1\0 ports=2\n' '1 ports=2\0\n'; do
	t_eq "new_device '$cmd': EINVAL" "$EINVAL" "$(werr_fmt $MLXBUS/new_device "$cmd")"
done
long=$(printf '%0200d' 1)
t_eq "new_device oversize (200 bytes): EINVAL" "$EINVAL" "$(werr_fmt $MLXBUS/new_device "$long")"
t_eq "nothing created by bad input" "" "$(ports)"
t_eq "no auxiliary devices either" 0 "$(adevs)"

t_eq "new_device without newline or NUL" ok "$(werr_fmt $MLXBUS/new_device '1')"
t_eq "it created the default 2 ports" "mlx5_shim1p0 mlx5_shim1p1" "$(ports)"
t_eq "duplicate adapter id: EEXIST" "File exists" "$(werr_fmt $MLXBUS/new_device '1 ports=1\n')"
t_eq "duplicate left the adapter alone" "mlx5_shim1p0 mlx5_shim1p1" "$(ports)"
t_eq "tabs and extra spaces are fine" ok "$(werr_fmt $MLXBUS/new_device '2\t ports=1   caps=eth\n')"

# sysfs hands every write() to the store whole and ignores the file offset (netdevsim's
# new_device too): a second write on one open file is a second command
exec 3>$MLXBUS/new_device
printf '3 ports=1\n' >&3
t_check "first write on an open file works" test -e $PB/mlx5_shim3p0
printf '4 ports=1\n' >&3
t_check "second write on it: a second command" test -e $PB/mlx5_shim4p0
exec 3>&-
t_eq "del_device 4" ok "$(werr_fmt $MLXBUS/del_device '4')"

# del_device
t_eq "del_device missing: ENOENT" "No such file or directory" "$(werr_fmt $MLXBUS/del_device '9\n')"
for cmd in 'x\n' '\n' '1 2\n' '-1\n' '1\0\n'; do
	t_eq "del_device '$cmd': EINVAL" "$EINVAL" "$(werr_fmt $MLXBUS/del_device "$cmd")"
done
t_check "adapter 1 still there" test -e $PB/mlx5_shim1p0

# per-port controls
P=$D/mlx5_shim1p0
n=$(adevs)
for cmd in 'foo\n' 'eth,foo\n' 'eth,,rdma\n' '\n' 'eth,eth\n'; do
	t_eq "caps '$cmd': EINVAL" "$EINVAL" "$(werr_fmt $P/caps "$cmd")"
done
t_eq "caps unchanged" "eth,rdma,vnet" "$(cat $P/caps)"
t_eq "esw_mode same mode: EALREADY" "Operation already in progress" "$(werr_fmt $P/esw_mode 'legacy\n')"
t_eq "esw_mode 'bogus': EINVAL" "$EINVAL" "$(werr_fmt $P/esw_mode 'bogus\n')"
t_eq "esw_mode 'switchdevX': EINVAL" "$EINVAL" "$(werr_fmt $P/esw_mode 'switchdevX\n')"
t_eq "link 'sideways': EINVAL" "$EINVAL" "$(werr_fmt $P/link 'sideways\n')"
t_eq "pm 'x': EINVAL" "$EINVAL" "$(werr_fmt $P/pm 'x\n')"
t_eq "pm attach while attached: EALREADY" "Operation already in progress" "$(werr_fmt $P/pm 'attach\n')"
for cmd in 'x\n' '-1\n' '65536\n' '\n' '1 2\n' '0x10\n'; do
	t_eq "sf_add '$cmd': EINVAL" "$EINVAL" "$(werr_fmt $P/sf_add "$cmd")"
done
# the debugfs knobs take one command at offset 0: dd seeks before writing, and a second
# write on one open file is at an offset
t_check_errno "sf_add at offset 1 rejected: EINVAL" "$EINVAL" \
	sh -c "printf '7\n' | dd of=$P/sf_add bs=8 seek=1 conv=notrunc"
exec 3>$P/sf_add
printf '7\n' >&3
# dd, not ash's printf, which does not report a write's error
t_check_errno "second write on an open sf_add (offset) rejected: EINVAL" "$EINVAL" \
	sh -c "printf '8\n' | dd bs=8 conv=notrunc >&3"
exec 3>&-
t_eq "sf_del 7" ok "$(werr_fmt $P/sf_del '7\n')"
t_eq "no SF 8 made by it" "" "$(awk '$1 == 8' $P/sfs)"
t_eq "sf_add 5" ok "$(werr_fmt $P/sf_add '5\n')"
t_eq "SF number reuse: EEXIST" "File exists" "$(werr_fmt $P/sf_add '5\n')"
t_eq "sf_del of a missing SF: ENOENT" "No such file or directory" "$(werr_fmt $P/sf_del '6\n')"
t_eq "sf_del 'x': EINVAL" "$EINVAL" "$(werr_fmt $P/sf_del 'x\n')"
t_eq "sf_del oversize: EINVAL" "$EINVAL" "$(werr_fmt $P/sf_del "$long")"
t_eq "sf_del 5" ok "$(werr_fmt $P/sf_del '5\n')"
t_eq "device count back where it was" "$n" "$(adevs)"
t_done
