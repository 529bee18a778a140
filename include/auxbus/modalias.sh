#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# modalias.sh PREFIX MODULES.ORDER NAME_SIZE [hide]: for each module object of MODULES.ORDER that
# has an auxiliary device table (MODULE_DEVICE_TABLE(auxiliary, ...): the symbol
# __mod_auxiliary__<table>_device_table, or on newer kernels such as 7.x
# __mod_device_table__kmod_<mod>__auxiliary__<table>), add "alias=PREFIX<name>" for every
# entry to the object's .modinfo, unless it is there already. Run by include/auxbus/client.mk
# before modpost, for the kernels and buses whose modpost does not write these aliases itself.
# "hide" (the coexisting bus) then renames the table's symbol out of modpost's "__mod_" names
# (under KASAN a global descriptor refers to it: it cannot be removed), so that modpost writes
# no "auxiliary:" aliases, which would let the kernel bus's devices load the module.
# MODULES.ORDER's paths are relative to make's working directory (the kernel's, or the module's
# since v6.13).
#
# struct auxiliary_device_id is { char name[NAME_SIZE]; kernel_ulong_t driver_data; }, NAME_SIZE
# the kernel's AUXILIARY_NAME_SIZE (32, or 40 on newer kernels): 40 or 48 bytes on 64-bit
# kernels. The name has no relocation, so the compiled bytes are the names.

set -eu
prefix=$1
order=$2
OBJCOPY=${OBJCOPY:-objcopy}
OBJDUMP=${OBJDUMP:-objdump}
name_size=${3:-32}
hide=${4:-}
entry_size=$(((name_size + 8 + 7) / 8 * 8))

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sed 's/\.ko$/.o/' "$order" | while IFS= read -r o; do
	[ -f "$o" ] || { echo "auxbus: modalias: no $o" >&2; exit 1; }
	# an object objdump cannot read (LLVM bitcode under CONFIG_LTO_CLANG) fails the build
	if ! "$OBJDUMP" -t "$o" >"$tmp/symtab" 2>"$tmp/err"; then
		echo "auxbus: modalias: $OBJDUMP cannot read $o: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	awk '$NF ~ /^__mod_auxiliary__.*_device_table$/ ||
		$NF ~ /^__mod_device_table__.*__auxiliary__/ { print $(NF - 2), $1, $(NF - 1), $NF }' \
		"$tmp/symtab" >"$tmp/tables"
	[ -s "$tmp/tables" ] || continue
	: >"$tmp/names"
	: >"$tmp/syms"
	while read -r sec off size sym; do
		echo "$sym" >>"$tmp/syms"
		"$OBJCOPY" --dump-section "$sec=$tmp/sec" "$o" "$tmp/scratch.o"
		off=$((0x$off))
		if [ $((0x$size % entry_size)) -ne 0 ]; then
			echo "auxbus: modalias: $o: a table of $((0x$size)) bytes is no array of" \
				"$entry_size-byte struct auxiliary_device_id" >&2
			exit 1
		fi
		n=$((0x$size / entry_size))
		i=0
		while [ $i -lt $n ]; do
			name=$(dd if="$tmp/sec" bs=1 skip=$((off + i * entry_size)) count=$name_size \
				2>/dev/null | tr '\000' '\n' | head -n 1)
			[ -n "$name" ] && echo "$name" >>"$tmp/names"
			i=$((i + 1))
		done
	done <"$tmp/tables"
	"$OBJCOPY" --dump-section .modinfo="$tmp/modinfo" "$o" "$tmp/scratch.o"
	added=0
	while IFS= read -r name; do
		if ! tr '\000' '\n' <"$tmp/modinfo" | grep -qxF "alias=$prefix$name"; then
			printf 'alias=%s%s\000' "$prefix" "$name" >>"$tmp/modinfo"
			added=$((added + 1))
		fi
	done <"$tmp/names"
	if [ $added -gt 0 ]; then
		"$OBJCOPY" --update-section .modinfo="$tmp/modinfo" "$o"
		echo "  MODALIAS $o: $added alias(es) $prefix*"
	fi
	if [ "$hide" = hide ]; then
		# shellcheck disable=SC2046 # one --redefine-sym per table
		"$OBJCOPY" $(sed 's/.*/--redefine-sym=&=__auxbus_coexist&/' "$tmp/syms") "$o"
		echo "  MODALIAS $o: no table for modpost (its aliases are the kernel bus's)"
	fi
done
