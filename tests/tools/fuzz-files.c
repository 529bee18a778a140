// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz-files: a generic fuzzer of sysfs/debugfs files, not a list of inputs per file.
 *
 *   fuzz-files [-s SEED] [-n INPUTS] [-t SECONDS] FILE...
 *
 * Every file that opens for reading is read whole (4 KiB reads, up to 1 MiB), in 1-byte reads
 * (up to 8 KiB) and past its end (pread at its length + 1, at 1 MiB and at 2^62). Every file
 * that opens for writing gets INPUTS writes (default 64), each on a fresh open, drawn from the
 * seeded generator: an empty write, random printable text, random bytes with embedded NULs,
 * numeric edge values (0, -1, INT_MAX + 1, U64_MAX, "0x", ...), lengths around and far
 * beyond a page (4095, 4096, 4097, 8192, 65536), words taken from what the files read back
 * (the dictionary: "ports=2", "switchdev", "crashed", ...) alone and combined, the file's own
 * content written back as read, with a byte changed, cut short or extended, and pwrite at
 * offsets (1, 4096, 2^40). The files are fuzzed in the order given (control files that delete
 * devices belong last); a file that vanished is skipped.
 *
 * Each file runs in a child process that reports its progress through a pipe. An operation
 * that does not return within SECONDS (default 5) is killed (SIGKILL): if the child then dies
 * within 10 s the operation was merely long (a flood test) and is counted as interrupted;
 * if it does not, the operation hangs in the kernel: "HANG" is printed and the exit status is
 * 1. Output, one line per file and a summary:
 *
 *   file /sys/.../new_device: 64 writes (61 refused, 0 interrupted), reads 3
 *   fuzz: seed 1, 37 files (21 writable, 30 readable), 1344 writes, 90 reads, 0 hangs
 *
 * Exit status 0, 1 on a hang, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXBUF 65536
#define MAXWORDS 512

static uint64_t rng;
static char *words[MAXWORDS];
static int nwords;
static int timeout_s = 5;

static uint64_t next(void)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int below(unsigned int n)
{
	return n ? next() % n : 0;
}

static const char *const edges[] = {
	"0", "1", "-1", "2", "7", "255", "256", "65535", "65536", "2147483647", "2147483648",
	"-2147483648", "-2147483649", "4294967295", "4294967296", "9223372036854775807",
	"9223372036854775808", "-9223372036854775808", "18446744073709551615",
	"18446744073709551616", "99999999999999999999999", "0x", "0x7fffffff", "0xffffffff",
	"0xffffffffffffffff", "0777", "08", "1e9", "+", "-", " ", "\n", "\t", "=", ":", ",",
	"1 ", " 1", "1\n", "0\n", "y", "n", "Y", "N", "on", "off", "true", "false",
};

/* The dictionary: words of what the files read back, split at blanks and punctuation. */
static void add_words(const char *buf, size_t len)
{
	size_t i = 0, j;

	while (i < len && nwords < MAXWORDS) {
		while (i < len && strchr(" \t\n,;()[]{}\"'", buf[i]))
			i++;
		j = i;
		while (j < len && !strchr(" \t\n,;()[]{}\"'", buf[j]) && buf[j])
			j++;
		if (j > i && j - i < 40) {
			char *w = strndup(buf + i, j - i);
			int k;

			for (k = 0; k < nwords && strcmp(words[k], w); k++)
				;
			if (k == nwords)
				words[nwords++] = w;
			else
				free(w);
		}
		i = j + 1;
	}
}

static void random_word(char *out, size_t *len, size_t max)
{
	const char *w = nwords && below(3) ? words[below(nwords)] : edges[below(sizeof(edges) /
									 sizeof(edges[0]))];
	size_t l = strlen(w);

	if (*len + l >= max)
		return;
	memcpy(out + *len, w, l);
	*len += l;
}

/* What the file being fuzzed read back before its first write (it may be empty). */
static char own[4096];
static size_t own_len;

/* One input in buf; returns its length, and in *off the offset to pwrite at (-1: write). */
static size_t make_input(char *buf, long long *off)
{
	static const size_t pages[] = { 4095, 4096, 4097, 8192, MAXBUF };
	size_t len = 0, i, n;

	*off = -1;
	switch (below(12)) {
	case 9: /* the file's own content, as read */
		memcpy(buf, own, own_len);
		return own_len;
	case 10: /* its own content with one byte changed, or cut short */
		memcpy(buf, own, own_len);
		if (!own_len)
			return 0;
		if (below(2)) {
			buf[below(own_len)] = (char)below(256);
			return own_len;
		}
		return below(own_len);
	case 11: /* its first line, a word or edge value after it */
		for (len = 0; len < own_len && own[len] != '\n'; len++)
			buf[len] = own[len];
		buf[len++] = " =,:"[below(4)];
		random_word(buf, &len, MAXBUF);
		return len;
	case 0: /* empty */
		return 0;
	case 1: /* printable text */
		n = 1 + below(64);
		for (i = 0; i < n; i++)
			buf[i] = 32 + below(95);
		return n;
	case 2: /* any bytes, NULs among them */
		n = 1 + below(64);
		for (i = 0; i < n; i++)
			buf[i] = below(4) ? (char)below(256) : 0;
		return n;
	case 3: /* a numeric edge value */
		random_word(buf, &len, MAXBUF);
		return len;
	case 4: /* around and far beyond a page */
		n = pages[below(5)];
		memset(buf, below(2) ? '1' : 'A', n);
		if (below(2))
			buf[below(n)] = 0;
		return n;
	case 5: /* a word, with a number or newline */
		random_word(buf, &len, MAXBUF);
		if (below(2))
			buf[len++] = below(2) ? ' ' : '=';
		random_word(buf, &len, MAXBUF);
		if (below(2))
			buf[len++] = '\n';
		return len;
	case 6: /* words and edge values joined as a command line */
		n = 1 + below(6);
		for (i = 0; i < n; i++) {
			random_word(buf, &len, MAXBUF - 2);
			buf[len++] = " =,:"[below(4)];
		}
		return len;
	case 7: /* a word at an offset */
		random_word(buf, &len, MAXBUF);
		*off = (long long[]){ 1, 2, 4096, 1LL << 40 }[below(4)];
		return len;
	default: /* a word with an embedded NUL */
		random_word(buf, &len, MAXBUF - 1);
		buf[len++] = 0;
		random_word(buf, &len, MAXBUF);
		return len;
	}
}

static char rbuf[1 << 20];

/* Reads of one file; returns how many reads ran, -1 if it does not open for reading. */
static int read_file(const char *path, int report)
{
	static const long long offs[] = { 1, 1 << 20, 1LL << 62 };
	ssize_t r, total = 0;
	int fd, n = 0, i;

	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	while (total < (ssize_t)sizeof(rbuf) && (r = read(fd, rbuf + total, 4096)) > 0)
		total += r;
	n++;
	if (report)
		add_words(rbuf, total);
	close(fd);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd >= 0) {
		for (i = 0; i < 8192 && read(fd, rbuf, 1) == 1; i++)
			;
		n++;
		for (i = 0; i < 3; i++) {
			(void)!pread(fd, rbuf, 4096, i ? offs[i] : total + offs[0]);
			n++;
		}
		close(fd);
	}
	return n;
}

static char wbuf[MAXBUF + 1];

/* The child: INPUTS writes of FILE from input FROM on; the index of each before it runs. */
static void child(const char *path, int from, int inputs, int pfd, uint64_t seed)
{
	int i, fd, refused = 0;
	long long off;
	size_t len;

	rng = seed;
	own_len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd >= 0) {
		ssize_t r = read(fd, own, sizeof(own));

		own_len = r > 0 ? r : 0;
		close(fd);
	}
	for (i = 0; i < inputs; i++) {
		len = make_input(wbuf, &off);
		if (i < from)
			continue;
		if (write(pfd, &i, sizeof(i)) != sizeof(i))
			_exit(3);
		fd = open(path, O_WRONLY | O_NONBLOCK);
		if (fd < 0)
			_exit(errno == ENOENT ? 4 : 5);
		if ((off < 0 ? write(fd, wbuf, len) : pwrite(fd, wbuf, len, off)) < 0)
			refused++;
		close(fd);
	}
	i = -1 - refused;
	(void)!write(pfd, &i, sizeof(i));
	_exit(0);
}

static uint64_t file_seed(uint64_t seed, const char *path)
{
	uint64_t h = seed ^ 0x9E3779B97F4A7C15ULL;

	while (*path)
		h = (h ^ (unsigned char)*path++) * 0x100000001B3ULL;
	return h ? h : 1;
}

/* Writes of one file; returns 1 on a hang. */
static int fuzz_file(const char *path, int inputs, uint64_t seed, int *writes, int *refused,
		     int *interrupted, int *gone)
{
	int from = 0, p[2], idx, last = -1, st, w;
	struct pollfd pfd;
	pid_t pid;

	*writes = *refused = *interrupted = *gone = 0;
	while (from < inputs) {
		if (pipe(p))
			return 0;
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			child(path, from, inputs, p[1], file_seed(seed, path));
		}
		close(p[1]);
		pfd.fd = p[0];
		pfd.events = POLLIN;
		for (;;) {
			int pr = poll(&pfd, 1, timeout_s * 1000);

			if (pr > 0 && read(p[0], &idx, sizeof(idx)) == sizeof(idx)) {
				if (idx < 0) {
					*refused += -1 - idx;
					*writes += inputs - from;
					from = inputs;
					break;
				}
				last = idx;
				continue;
			}
			if (pr > 0) { /* EOF: the child exited without its summary */
				waitpid(pid, &st, 0);
				if (WIFEXITED(st) && WEXITSTATUS(st) == 4) {
					*writes += last - from;
					*gone = 1;
					close(p[0]);
					return 0;
				}
				printf("  %s: input %d: the writer died (status 0x%x)\n", path, last, st);
				*writes += last + 1 - from;
				from = last + 1;
				break;
			}
			/* no progress for timeout_s: kill it, and it must go */
			kill(pid, SIGKILL);
			for (w = 0; w < 100 && waitpid(pid, &st, WNOHANG) == 0; w++)
				usleep(100000);
			if (w == 100) {
				printf("HANG %s: input %d did not return in %d s, nor die of SIGKILL in 10 s\n",
				       path, last, timeout_s);
				close(p[0]);
				return 1;
			}
			(*interrupted)++;
			*writes += last + 1 - from;
			from = last + 1;
			break;
		}
		close(p[0]);
		waitpid(pid, &st, 0);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int opt, i, inputs = 64, nw = 0, nr = 0, writes = 0, reads = 0, hangs = 0;
	uint64_t seed = 1;

	while ((opt = getopt(argc, argv, "s:n:t:")) != -1) {
		switch (opt) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': inputs = atoi(optarg); break;
		case 't': timeout_s = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: fuzz-files [-s SEED] [-n INPUTS] [-t SECONDS] FILE...\n");
			return 2;
		}
	}
	if (optind >= argc || inputs < 0 || timeout_s < 1) {
		fprintf(stderr, "usage: fuzz-files [-s SEED] [-n INPUTS] [-t SECONDS] FILE...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the dictionary first, from every file as it reads before the fuzzing */
	for (i = optind; i < argc; i++)
		read_file(argv[i], 1);
	for (i = optind; i < argc; i++) {
		int r, w = 0, ref = 0, intr = 0, gone = 0, fd, writable;

		fd = open(argv[i], O_WRONLY | O_NONBLOCK);
		writable = fd >= 0;
		if (fd >= 0)
			close(fd);
		if (writable) {
			nw++;
			hangs += fuzz_file(argv[i], inputs, seed, &w, &ref, &intr, &gone);
			writes += w;
		}
		r = read_file(argv[i], 0);
		if (r > 0) {
			nr++;
			reads += r;
		}
		if (hangs)
			break;
		printf("file %s: %d writes (%d refused, %d interrupted)%s, reads %d\n", argv[i], w, ref,
		       intr, gone ? ", gone" : "", r > 0 ? r : 0);
	}
	printf("fuzz: seed %llu, %d files (%d writable, %d readable), %d writes, %d reads, %d hangs, %d words\n",
	       (unsigned long long)seed, argc - optind, nw, nr, writes, reads, hangs, nwords);
	return hangs ? 1 : 0;
}
