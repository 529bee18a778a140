// SPDX-License-Identifier: GPL-2.0-only
/* Stand-in for Intel's out-of-tree intel_auxiliary.ko, test-only. */
#include "other_provider.h"
MODULE_DESCRIPTION("auxbus tests: stand-in for another provider of the auxiliary bus");
