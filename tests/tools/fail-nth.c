// SPDX-License-Identifier: GPL-2.0-only
/*
 * fail-nth: run one operation with the Nth fault point of this task failing
 * (Documentation/fault-injection/fault-injection.rst, "/proc/<pid>/fail-nth").
 *
 *   fail-nth N insmod FILE [PARAMS]   finit_module(FILE, PARAMS)
 *   fail-nth N write FILE STRING      one write(2) of STRING to FILE
 *
 * Everything the operation needs is opened first, so the Nth fault point the kernel passes
 * after the write to fail-nth is in the operation itself. Prints one line:
 *
 *   injected=1 rc=ENOMEM left=0      the Nth point was reached (and failed); the result
 *   injected=0 rc=0 left=20          the operation passed fewer than N points (N - 20)
 *
 * rc is 0 or the errno's name; left is what remained of N. Exit status 0, or 2 on a usage or setup error.
 * With failslab, set /sys/kernel/debug/failslab/ignore-gfp-wait to N, or only atomic
 * allocations count.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "0";
	case ENOMEM: return "ENOMEM";
	case EINVAL: return "EINVAL";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case EBUSY: return "EBUSY";
	case EFAULT: return "EFAULT";
	case EIO: return "EIO";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EPERM: return "EPERM";
	case ENXIO: return "ENXIO";
	case ENOEXEC: return "ENOEXEC";
	case EPROTO: return "EPROTO";
	case ETIMEDOUT: return "ETIMEDOUT";
	case EINTR: return "EINTR";
	}
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

int main(int argc, char **argv)
{
	char nbuf[24], rbuf[24];
	int nth_fd, fd, rc, err;
	ssize_t len;
	long n;

	if (argc < 4 || (strcmp(argv[2], "insmod") && strcmp(argv[2], "write")) ||
	    (!strcmp(argv[2], "write") && argc != 5)) {
		fprintf(stderr, "usage: fail-nth N insmod FILE [PARAMS] | fail-nth N write FILE STRING\n");
		return 2;
	}
	n = strtol(argv[1], NULL, 10);
	if (n < 1) {
		fprintf(stderr, "fail-nth: N must be 1 or more\n");
		return 2;
	}
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0)
		nth_fd = open("/proc/self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		perror("fail-nth: /proc/self/fail-nth");
		return 2;
	}
	fd = open(argv[3], !strcmp(argv[2], "insmod") ? O_RDONLY | O_CLOEXEC : O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "fail-nth: %s: %s\n", argv[3], strerror(errno));
		return 2;
	}
	len = snprintf(nbuf, sizeof(nbuf), "%ld", n);
	if (write(nth_fd, nbuf, len) != len) {
		perror("fail-nth: write fail-nth");
		return 2;
	}
	if (!strcmp(argv[2], "insmod"))
		rc = syscall(SYS_finit_module, fd, argc > 4 ? argv[4] : "", 0);
	else
		rc = write(fd, argv[4], strlen(argv[4])) < 0 ? -1 : 0;
	err = rc < 0 ? errno : 0;
	/* 0 left: the Nth point was reached. Then switch it off for what follows. */
	len = pread(nth_fd, rbuf, sizeof(rbuf) - 1, 0);
	if (write(nth_fd, "0", 1) != 1 || len <= 0) {
		perror("fail-nth: read back fail-nth");
		return 2;
	}
	rbuf[len] = '\0';
	printf("injected=%d rc=%s left=%d\n", atoi(rbuf) == 0, errname(err), atoi(rbuf));
	return 0;
}
