#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dkms.conf POST_REMOVE: `dkms remove` of the bundle for kernel $1 deletes what its MAKE step
# installed for third-party modules (Makefile, install-dev-kernel).
[ -n "$1" ] || exit 0
rm -rf "/usr/src/auxbus-dev/$1"
rmdir /usr/src/auxbus-dev 2>/dev/null
exit 0
