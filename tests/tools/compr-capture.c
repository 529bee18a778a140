// SPDX-License-Identifier: GPL-2.0-only
/*
 * compr-capture: capture from an ALSA compress device and check the simulated SOF DSP's
 * probe extraction pattern (include/auxbus/sof-shim-probes.h), byte by byte.
 *
 * No alsa-lib: the kernel's uapi <sound/compress_offload.h> ioctls directly, so a static
 * binary runs in the busybox guest.
 *
 *   compr-capture -d /dev/snd/comprC0D0 -b BYTES [-f FRAGMENT] [-n FRAGMENTS]
 *		   [-p PROBE_POINTS_FILE -w "id,1,tag,..."] [-i ID[,ID...]]
 *		   [-t TIMEOUT_MS] [-H RELEASE_FILE [-G]] [-S BYTES -z MS [-O]]
 *
 * Opens the device, sets parameters (which starts the extractor on the DSP), writes -w to
 * -p (connecting probe points, possible only while the extractor runs), starts, reads BYTES
 * and stops. With -i, the bytes must be the round-robin packets of those probe points from
 * the first packet on. -H FILE holds the stream open after the capture until FILE exists
 * (at most 60 s), for tests that look at the open stream meanwhile. With -G its device was
 * removed meanwhile: then SNDRV_COMPRESS_AVAIL, a read and SNDRV_COMPRESS_STOP must each fail
 * (one line says how), and the file is closed. Prints one summary
 * line; exit 0 when everything matched. A capture that fails once started also says how
 * many bytes it took (and checked, with -i) before that. The ring is FRAGMENT * FRAGMENTS
 * bytes, 4096 * 16 by default.
 *
 * -S BYTES -z MS: once BYTES are read, stop reading for MS milliseconds (a reader that falls
 * behind). With -O the DSP must have overrun the ring meanwhile (SNDRV_COMPRESS_AVAIL above
 * the buffer size, the only sign the compress core gives); the reader then reads and drops
 * data until it is less than half a buffer behind, and checks the stream again from there,
 * byte-exact at its read position (-i): the bytes in between were lost. BYTES counts every
 * byte read, dropped ones too.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <sound/compress_params.h>
#include <sound/compress_offload.h>
#include <auxbus/sof-shim-probes.h>

#define MAX_IDS	SOF_SHIM_PROBE_MAX_POINTS

struct gen {
	unsigned int n;
	uint32_t ids[MAX_IDS];		/* ascending */
	uint64_t seq[MAX_IDS];
	unsigned int cur;		/* index into ids of the current packet */
	uint64_t cur_seq;
	uint32_t checksum;
	uint32_t pos;			/* byte within the packet */
	uint64_t packets;
};

static void print_usage(void)
{
	fputs("usage: compr-capture -d DEV -b BYTES [-f FRAG] [-n FRAGS] [-p FILE -w POINTS]\n",
	      stderr);
	fputs("       [-i IDS] [-t TIMEOUT_MS] [-H RELEASE_FILE [-G]]\n", stderr);
	exit(2);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void gen_start_packet(struct gen *g)
{
	g->cur_seq = g->seq[g->cur]++;
	g->checksum = sof_shim_probe_packet_word(g->ids[g->cur],
						 SOF_SHIM_PROBE_PURPOSE_EXTRACTION, g->cur_seq,
						 SOF_SHIM_PROBE_PACKET_WORDS - 1);
	g->pos = 0;
}

static uint8_t gen_next(struct gen *g)
{
	uint32_t w = g->pos / 4, word;
	uint8_t b;

	if (w == SOF_SHIM_PROBE_PACKET_WORDS - 1)
		word = g->checksum;
	else
		word = sof_shim_probe_packet_word(g->ids[g->cur],
						  SOF_SHIM_PROBE_PURPOSE_EXTRACTION, g->cur_seq, w);
	b = word >> (8 * (g->pos % 4));
	if (++g->pos == SOF_SHIM_PROBE_PACKET_BYTES) {
		g->packets++;
		g->cur = (g->cur + 1) % g->n;
		gen_start_packet(g);
	}
	return b;
}

/* the generator at byte @pos of the stream: packet k is point k % n's packet k / n */
static void gen_seek(struct gen *g, uint64_t pos)
{
	uint64_t k = pos / SOF_SHIM_PROBE_PACKET_BYTES;
	unsigned int i;

	for (i = 0; i < g->n; i++)
		g->seq[i] = k / g->n + (i < k % g->n);
	g->cur = k % g->n;
	gen_start_packet(g);
	g->pos = pos % SOF_SHIM_PROBE_PACKET_BYTES;
}

static int get_avail(int fd, unsigned long long *avail)
{
	struct snd_compr_avail a;

	if (ioctl(fd, SNDRV_COMPRESS_AVAIL, &a) < 0) {
		fprintf(stderr, "compr-capture: AVAIL: %s\n", strerror(errno));
		return -1;
	}
	*avail = a.avail;
	return 0;
}

/* the stream's device is gone: every use fails; says how, returns 0 when all of them did */
static int check_gone(int fd)
{
	struct snd_compr_avail a;
	char b[64];
	int e_avail = 0, e_read = 0, e_stop = 0;

	if (ioctl(fd, SNDRV_COMPRESS_AVAIL, &a) < 0)
		e_avail = errno;
	if (read(fd, b, sizeof(b)) < 0)
		e_read = errno;
	if (ioctl(fd, SNDRV_COMPRESS_STOP) < 0)
		e_stop = errno;
	printf("compr-capture: gone: AVAIL %s, read %s, STOP %s\n",
	       e_avail ? strerror(e_avail) : "succeeded", e_read ? strerror(e_read) : "succeeded",
	       e_stop ? strerror(e_stop) : "succeeded");
	return !e_avail || !e_read || !e_stop;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *points_file = NULL, *points = NULL, *ids = NULL;
	const char *release = NULL;
	unsigned long long want = 0, got = 0;
	unsigned int frag = 4096, frags = 16;
	unsigned long long stall_at = 0, dropped = 0, avail, ring;
	long stall_ms = 0;
	int expect_overrun = 0, stalled = 0, gone = 0;
	long timeout_ms = 5000;
	struct snd_compr_params params;
	struct gen g = { 0 };
	static uint8_t buf[65536];
	long long deadline;
	int fd, opt, ret = 1;

	while ((opt = getopt(argc, argv, "d:b:f:n:p:w:i:t:H:S:z:OG")) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'b':
			want = strtoull(optarg, NULL, 0);
			break;
		case 'f':
			frag = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			frags = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			points_file = optarg;
			break;
		case 'w':
			points = optarg;
			break;
		case 'i':
			ids = optarg;
			break;
		case 't':
			timeout_ms = strtol(optarg, NULL, 0);
			break;
		case 'H':
			release = optarg;
			break;
		case 'S':
			stall_at = strtoull(optarg, NULL, 0);
			break;
		case 'z':
			stall_ms = strtol(optarg, NULL, 0);
			break;
		case 'O':
			expect_overrun = 1;
			break;
		case 'G':
			gone = 1;
			break;
		default:
			print_usage();
		}
	}
	if (!dev || !want || !frag || !frags || (!points_file != !points) ||
	    (expect_overrun && (!stall_at || stall_ms <= 0)) || (gone && !release))
		print_usage();
	ring = (unsigned long long)frag * frags;

	if (ids) {
		char *s = strdup(ids), *tok, *save = NULL;

		for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (g.n == MAX_IDS)
				print_usage();
			g.ids[g.n++] = strtoul(tok, NULL, 0);
		}
		free(s);
		if (!g.n)
			print_usage();
		qsort(g.ids, g.n, sizeof(g.ids[0]), cmp_u32);
		gen_start_packet(&g);
	}

	fd = open(dev, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "compr-capture: open %s: %s\n", dev, strerror(errno));
		return 1;
	}

	memset(&params, 0, sizeof(params));
	params.buffer.fragment_size = frag;
	params.buffer.fragments = frags;
	params.codec.id = SND_AUDIOCODEC_PCM;
	params.codec.ch_in = 1;
	params.codec.ch_out = 1;
	params.codec.sample_rate = 48000;
	if (ioctl(fd, SNDRV_COMPRESS_SET_PARAMS, &params) < 0) {
		fprintf(stderr, "compr-capture: SET_PARAMS: %s\n", strerror(errno));
		goto out_close;
	}

	if (points_file) {
		int pf = open(points_file, O_WRONLY);
		ssize_t n = -1;

		if (pf >= 0) {
			n = write(pf, points, strlen(points));
			if (n < 0)
				fprintf(stderr, "compr-capture: write %s: %s\n", points_file,
					strerror(errno));
			close(pf);
		} else {
			fprintf(stderr, "compr-capture: open %s: %s\n", points_file,
				strerror(errno));
		}
		if (n != (ssize_t)strlen(points))
			goto out_close;
	}

	if (ioctl(fd, SNDRV_COMPRESS_START) < 0) {
		fprintf(stderr, "compr-capture: START: %s\n", strerror(errno));
		goto out_close;
	}

	deadline = now_ms() + timeout_ms;
	while (got < want) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = deadline - now_ms();
		size_t chunk = sizeof(buf);
		ssize_t n, i;

		if (stall_at && !stalled && got >= stall_at) {
			stalled = 1;
			usleep(stall_ms * 1000);
			deadline += stall_ms;
			if (expect_overrun) {
				if (get_avail(fd, &avail))
					goto out_stop;
				if (avail <= ring) {
					fprintf(stderr,
						"compr-capture: no overrun: avail %llu of a %llu-byte buffer after %ld ms\n",
						avail, ring, stall_ms);
					goto out_stop;
				}
				printf("compr-capture: overrun after %llu bytes: avail %llu of a %llu-byte buffer\n",
				       got, avail, ring);
				/*
				 * catch up: what is more than a buffer behind is gone; down to
				 * half a buffer, or the DSP overwrites the next bytes before
				 * they are read
				 */
				while (avail > ring / 2) {
					n = read(fd, buf, chunk < ring ? chunk : ring);
					if (n < 0) {
						fprintf(stderr, "compr-capture: read: %s\n",
							strerror(errno));
						goto out_stop;
					}
					got += n;
					dropped += n;
					if (get_avail(fd, &avail))
						goto out_stop;
				}
				printf("compr-capture: dropped %llu bytes, checking again from byte %llu\n",
				       dropped, got);
				if (g.n)
					gen_seek(&g, got);
			}
			continue;
		}
		if (left <= 0) {
			fprintf(stderr, "compr-capture: timeout after %llu of %llu bytes\n",
				got, want);
			goto out_stop;
		}
		n = poll(&pfd, 1, left);
		if (n < 0) {
			fprintf(stderr, "compr-capture: poll: %s\n", strerror(errno));
			goto out_stop;
		}
		if (!n)
			continue;
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) {
			fprintf(stderr, "compr-capture: poll revents %#x\n", pfd.revents);
			goto out_stop;
		}
		if (chunk > want - got)
			chunk = want - got;
		n = read(fd, buf, chunk);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			fprintf(stderr, "compr-capture: read: %s\n", strerror(errno));
			goto out_stop;
		}
		for (i = 0; g.n && i < n; i++) {
			uint8_t e = gen_next(&g);

			if (buf[i] != e) {
				fprintf(stderr,
					"compr-capture: mismatch at byte %llu: got %#04x, expected %#04x\n",
					got + i, buf[i], e);
				goto out_stop;
			}
		}
		got += n;
	}
	if (expect_overrun && !stalled) {
		fprintf(stderr, "compr-capture: never stalled: %llu bytes read\n", got);
		goto out_stop;
	}
	ret = 0;
	printf("compr-capture: ok %llu bytes%s, %llu complete packets\n", got - dropped,
	       g.n ? " verified" : " (not checked)", (unsigned long long)g.packets);

out_stop:
	if (ret)
		fprintf(stderr, "compr-capture: stopped after %llu bytes%s\n", got,
			g.n ? " verified" : " (not checked)");
	if (release) {
		int i;

		fflush(stdout);
		for (i = 0; i < 1200 && access(release, F_OK); i++)
			usleep(50000);
		if (gone) {
			fflush(stdout);
			if (check_gone(fd))
				ret = 1;
			goto out_close;
		}
	}
	if (ioctl(fd, SNDRV_COMPRESS_STOP) < 0 && !ret) {
		fprintf(stderr, "compr-capture: STOP: %s\n", strerror(errno));
		ret = 1;
	}
out_close:
	close(fd);
	return ret;
}
