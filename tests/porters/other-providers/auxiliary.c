// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-in for MLNX_OFED's auxiliary.ko (mlnx-ofa_kernel's drivers/base/auxiliary.c): the bus
 * "auxiliary", the upstream export names, "auxiliary:" aliases. Intel's out-of-tree drivers
 * shipped the same module before they renamed theirs (intel_auxiliary.c). Test-only.
 */
#include "other_provider.h"

#define OTHER_BUS_NAME "auxiliary"
#include "other_provider_bus.h"

MODULE_DESCRIPTION("auxbus tests: stand-in for MLNX_OFED's auxiliary bus");
