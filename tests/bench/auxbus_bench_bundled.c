// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark against the bundled (coexisting) bus. */
#include "auxbus_bench.c"
