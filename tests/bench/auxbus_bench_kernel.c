// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark against the kernel's built-in bus (CFLAGS in Kbuild). */
#include "auxbus_bench.c"
