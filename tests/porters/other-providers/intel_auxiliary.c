// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-in for Intel's intel_auxiliary.ko (the out-of-tree ice, i40e and iavf drivers'
 * src/auxiliary.c): the bus "intel_auxiliary", intel_-prefixed exports, "intel_auxiliary:"
 * aliases. Test-only.
 */
#include "intel_auxiliary_bus.h"

#define OTHER_BUS_NAME "intel_auxiliary"
#include "other_provider_bus.h"

MODULE_DESCRIPTION("auxbus tests: stand-in for Intel's out-of-tree auxiliary bus");
