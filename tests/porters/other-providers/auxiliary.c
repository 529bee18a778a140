// SPDX-License-Identifier: GPL-2.0-only
/* Stand-in for MLNX_OFED's auxiliary.ko (mlnx-ofa_kernel), test-only. */
#define OTHER_PROVIDER_EXPORTS
#include "other_provider.h"
MODULE_DESCRIPTION("auxbus tests: stand-in for another provider of the auxiliary bus");
