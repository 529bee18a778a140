/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A known extra cost for validating the instruction counts of make bench: a loop of
 * exactly 2 instructions per iteration (dec, jnz), so extra_loops=L costs 2 * L + O(1).
 */
#ifndef AUXBUS_BENCH_EXTRA_H
#define AUXBUS_BENCH_EXTRA_H

static __always_inline void bench_extra(unsigned long loops)
{
	if (!loops)
		return;
#ifdef CONFIG_X86
	asm volatile("1:\n\tdec %0\n\tjnz 1b" : "+r" (loops) : : "cc");
#else
	while (loops--)
		barrier();
#endif
}
#endif
