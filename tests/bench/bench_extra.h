/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A known extra cost for validating the instruction counts of make bench. On x86 the whole
 * branch is in the asm, so the code around it is the same for every value: loops == 0 runs
 * test, jz (2 instructions); loops == L runs test, jz and L x (dec, jnz): exactly 2 * L more.
 */
#ifndef AUXBUS_BENCH_EXTRA_H
#define AUXBUS_BENCH_EXTRA_H

static __always_inline void bench_extra(unsigned long loops)
{
#ifdef CONFIG_X86
	asm volatile("test %0, %0\n\tjz 2f\n1:\n\tdec %0\n\tjnz 1b\n2:" : "+r" (loops) : : "cc");
#else
	while (loops--)
		barrier();
#endif
}
#endif
