/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Probe extraction stream of the simulated SOF DSP: packet layout and the deterministic
 * payload pattern. Shared by the DSP (sof-clients/sof-shim-hda-probes.c) and the capture
 * checker (tests/tools/compr-capture.c), so it builds in the kernel and in user space.
 *
 * The stream is a sequence of packets, as SOF's probe extraction packets:
 *
 *	u32 sync_word		SOF_SHIM_PROBE_SYNC_WORD
 *	u32 buffer_id		probe point the data comes from
 *	u32 format		purpose of the probe point
 *	u32 seq_low, seq_high	packet number of this probe point, from 0
 *	u32 data_size_bytes	SOF_SHIM_PROBE_DATA_BYTES
 *	u32 data[SOF_SHIM_PROBE_DATA_BYTES / 4]	sof_shim_probe_word(buffer_id, seq, i)
 *	u32 checksum		sum of every u32 before it in the packet
 *
 * all little endian. Packets of the active probe points follow each other round-robin in
 * ascending buffer_id order.
 */
#ifndef __AUXBUS_SOF_SHIM_PROBES_H
#define __AUXBUS_SOF_SHIM_PROBES_H

#include <linux/types.h>

#define SOF_SHIM_PROBE_SYNC_WORD	0xbabebebaU
#define SOF_SHIM_PROBE_DATA_BYTES	256U
#define SOF_SHIM_PROBE_HDR_WORDS	6U
#define SOF_SHIM_PROBE_DATA_WORDS	(SOF_SHIM_PROBE_DATA_BYTES / 4U)
#define SOF_SHIM_PROBE_PACKET_WORDS	(SOF_SHIM_PROBE_HDR_WORDS + SOF_SHIM_PROBE_DATA_WORDS + 1U)
#define SOF_SHIM_PROBE_PACKET_BYTES	(SOF_SHIM_PROBE_PACKET_WORDS * 4U)
#define SOF_SHIM_PROBE_PURPOSE_EXTRACTION	1U
#define SOF_SHIM_PROBE_MAX_POINTS	16U

/* data word @i of packet @seq of probe point @buffer_id */
static inline __u32 sof_shim_probe_word(__u32 buffer_id, __u64 seq, __u32 i)
{
	__u32 x = buffer_id * 0x01000193U ^ (__u32)seq * 0x9e3779b1U ^
		  (__u32)(seq >> 32) * 0x7feb352dU ^ i * 0x85ebca77U;

	x ^= x >> 15;
	x *= 0x2c1b3c6dU;
	x ^= x >> 12;
	return x;
}

/* word @w of the packet number @seq of probe point @buffer_id with purpose @format */
static inline __u32 sof_shim_probe_packet_word(__u32 buffer_id, __u32 format, __u64 seq, __u32 w)
{
	__u32 sum, i;

	switch (w) {
	case 0:
		return SOF_SHIM_PROBE_SYNC_WORD;
	case 1:
		return buffer_id;
	case 2:
		return format;
	case 3:
		return (__u32)seq;
	case 4:
		return (__u32)(seq >> 32);
	case 5:
		return SOF_SHIM_PROBE_DATA_BYTES;
	}
	if (w < SOF_SHIM_PROBE_PACKET_WORDS - 1)
		return sof_shim_probe_word(buffer_id, seq, w - SOF_SHIM_PROBE_HDR_WORDS);

	sum = 0;
	for (i = 0; i < SOF_SHIM_PROBE_PACKET_WORDS - 1; i++)
		sum += sof_shim_probe_packet_word(buffer_id, format, seq, i);
	return sum;
}

#endif /* __AUXBUS_SOF_SHIM_PROBES_H */
