// SPDX-License-Identifier: GPL-2.0-only
/*
 * sof-parwrite: write strings to several files at the same time, one thread of one process
 * per file, each in one write(). For the IPC benchmark's tandem flood: two shells flooding
 * two clients put an address-space switch between every pair of IPCs, which under QEMU TCG
 * flushes the emulated TLB and costs more than the IPC being measured; threads of one
 * process share their address space, as two kernel users of the IPC would.
 *
 *   sof-parwrite FILE STRING [FILE STRING ...]
 *
 * The threads open their files first and write only once all are open. Exit 0 when every
 * string was written whole; otherwise prints "sof-parwrite: FILE: <strerror>" to stderr for
 * each failure and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct job {
	const char *file;
	const char *str;
	int fd;
	int err;
	ssize_t n;
	pthread_t thread;
};

static pthread_barrier_t start;

static void *run(void *arg)
{
	struct job *j = arg;

	pthread_barrier_wait(&start);
	j->n = write(j->fd, j->str, strlen(j->str));
	if (j->n < 0)
		j->err = errno;
	return NULL;
}

int main(int argc, char **argv)
{
	int i, n = (argc - 1) / 2, ret = 0;
	struct job *jobs;

	if (argc < 3 || (argc - 1) % 2) {
		fprintf(stderr, "usage: sof-parwrite FILE STRING [FILE STRING ...]\n");
		return 2;
	}
	jobs = calloc(n, sizeof(*jobs));
	if (!jobs)
		return 1;
	for (i = 0; i < n; i++) {
		jobs[i].file = argv[1 + 2 * i];
		jobs[i].str = argv[2 + 2 * i];
		jobs[i].fd = open(jobs[i].file, O_WRONLY);
		if (jobs[i].fd < 0) {
			fprintf(stderr, "sof-parwrite: %s: open: %s\n", jobs[i].file, strerror(errno));
			return 1;
		}
	}
	pthread_barrier_init(&start, NULL, n);
	for (i = 0; i < n; i++) {
		errno = pthread_create(&jobs[i].thread, NULL, run, &jobs[i]);
		if (errno) {
			/* the barrier would never open: give up before any write */
			fprintf(stderr, "sof-parwrite: pthread_create: %s\n", strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(jobs[i].thread, NULL);
		close(jobs[i].fd);
		if (jobs[i].n < 0) {
			fprintf(stderr, "sof-parwrite: %s: %s\n", jobs[i].file, strerror(jobs[i].err));
			ret = 1;
		} else if ((size_t)jobs[i].n != strlen(jobs[i].str)) {
			fprintf(stderr, "sof-parwrite: %s: short write %zd of %zu\n", jobs[i].file,
				jobs[i].n, strlen(jobs[i].str));
			ret = 1;
		}
	}
	free(jobs);
	return ret;
}
