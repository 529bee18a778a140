// SPDX-License-Identifier: GPL-2.0-only
/*
 * sof-write: write a string to a file in one write() (or pwrite() at an offset) and report
 * the errno by name, which busybox's echo/printf do not. For the guest's bad-input tests.
 *
 *   sof-write [-o OFFSET] FILE STRING
 *
 * Exit 0 when the whole string was written; otherwise prints "sof-write: <strerror>" to
 * stderr and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long long off = -1;
	ssize_t n;
	size_t len;
	int fd, opt;

	while ((opt = getopt(argc, argv, "+o:")) != -1) {
		if (opt != 'o')
			goto usage;
		off = strtoll(optarg, NULL, 0);
	}
	if (argc - optind != 2)
		goto usage;

	fd = open(argv[optind], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "sof-write: open: %s\n", strerror(errno));
		return 1;
	}
	len = strlen(argv[optind + 1]);
	if (off >= 0)
		n = pwrite(fd, argv[optind + 1], len, off);
	else
		n = write(fd, argv[optind + 1], len);
	if (n < 0) {
		fprintf(stderr, "sof-write: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	if ((size_t)n != len) {
		fprintf(stderr, "sof-write: short write %zd of %zu\n", n, len);
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: sof-write [-o OFFSET] FILE STRING\n");
	return 2;
}
