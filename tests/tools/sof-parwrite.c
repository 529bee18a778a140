// SPDX-License-Identifier: GPL-2.0-only
/*
 * sof-parwrite: write strings to several files at the same time, one thread of one process
 * per file, each in one write(). For the IPC benchmark's tandem flood: two shells flooding
 * two clients put an address-space switch between every pair of IPCs, which under QEMU TCG
 * flushes the emulated TLB and costs more than the IPC being measured; threads of one
 * process share their address space, as two kernel users of the IPC would.
 *
 *   sof-parwrite FILE STRING [FILE STRING ...]
 *   sof-parwrite -r ROUNDS FILE[,FILE...] STRING [FILE[,FILE...] STRING ...]
 *
 * The threads open their files first and write only once all are open. Exit 0 when every
 * string was written whole; otherwise prints "sof-parwrite: FILE: <strerror>" to stderr for
 * each failure and exits 1.
 *
 * With -r, the benchmark's interleaving: each thread has a list of files and writes its
 * string to them in turn, ROUNDS times through its list, in steps: every thread's write of a
 * step starts together (a barrier), and after its write each thread reads the file back.
 * The threads need lists of the same length. Printed on stdout, step by step and thread by
 * thread: "STEP THREAD FILE CONTENT start_ns S end_ns T", the file's content on one line
 * (newlines as spaces), S and T the CLOCK_MONOTONIC ns (the kernel's ktime_get()) just before
 * the write and when it returned.
 * After a failed write a thread writes no more, but keeps to the steps.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES	8
#define RESULT_LEN	512

struct job {
	const char *file;
	const char *str;
	int fd;
	int err;
	ssize_t n;
	pthread_t thread;
	/* -r */
	char *files[MAX_FILES];
	int nfiles;
	char (*results)[RESULT_LEN];
	long long *start_ns;
	long long *end_ns;
	const char *failed_file;
};

static pthread_barrier_t start;
static int rounds;

static void *run(void *arg)
{
	struct job *j = arg;

	pthread_barrier_wait(&start);
	j->n = write(j->fd, j->str, strlen(j->str));
	if (j->n < 0)
		j->err = errno;
	return NULL;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * one step of -r: write the string to FILE, read FILE back into RES; *START, *END: the
 * monotonic clock just before the write and when it returned. 0 or an errno
 */
static int step(const char *file, const char *str, char *res, long long *start, long long *end)
{
	ssize_t n;
	int fd, i;

	fd = open(file, O_WRONLY);
	if (fd < 0)
		return errno;
	*start = now_ns();
	n = write(fd, str, strlen(str));
	if (n < 0) {
		i = errno;
		close(fd);
		return i;
	}
	*end = now_ns();
	close(fd);
	if ((size_t)n != strlen(str))
		return EIO;

	fd = open(file, O_RDONLY);
	if (fd < 0)
		return errno;
	n = read(fd, res, RESULT_LEN - 1);
	i = errno;
	close(fd);
	if (n < 0)
		return i;
	res[n] = '\0';
	for (i = 0; i < n; i++)
		if (res[i] == '\n')
			res[i] = ' ';
	return 0;
}

static void *run_rounds(void *arg)
{
	struct job *j = arg;
	int s;

	for (s = 0; s < rounds * j->nfiles; s++) {
		const char *file = j->files[s % j->nfiles];

		pthread_barrier_wait(&start);
		if (j->err)
			continue;
		j->err = step(file, j->str, j->results[s], &j->start_ns[s], &j->end_ns[s]);
		if (j->err)
			j->failed_file = file;
	}
	return NULL;
}

static int main_rounds(struct job *jobs, int n)
{
	int i, s, ret = 0;
	char *f;

	for (i = 0; i < n; i++) {
		for (f = strtok((char *)jobs[i].file, ","); f; f = strtok(NULL, ",")) {
			if (jobs[i].nfiles == MAX_FILES) {
				fprintf(stderr, "sof-parwrite: more than %d files in a list\n",
					MAX_FILES);
				return 2;
			}
			jobs[i].files[jobs[i].nfiles++] = f;
		}
		if (!jobs[i].nfiles || jobs[i].nfiles != jobs[0].nfiles) {
			fprintf(stderr, "sof-parwrite: the threads need file lists of one length\n");
			return 2;
		}
		jobs[i].results = calloc((size_t)rounds * jobs[i].nfiles, RESULT_LEN);
		jobs[i].start_ns = calloc((size_t)rounds * jobs[i].nfiles, sizeof(long long));
		jobs[i].end_ns = calloc((size_t)rounds * jobs[i].nfiles, sizeof(long long));
		if (!jobs[i].results || !jobs[i].start_ns || !jobs[i].end_ns)
			return 1;
	}
	pthread_barrier_init(&start, NULL, n);
	for (i = 0; i < n; i++) {
		errno = pthread_create(&jobs[i].thread, NULL, run_rounds, &jobs[i]);
		if (errno) {
			/* the barrier would never open: give up before any write */
			fprintf(stderr, "sof-parwrite: pthread_create: %s\n", strerror(errno));
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		pthread_join(jobs[i].thread, NULL);
		if (jobs[i].err) {
			fprintf(stderr, "sof-parwrite: %s: %s\n", jobs[i].failed_file,
				strerror(jobs[i].err));
			ret = 1;
		}
	}
	for (s = 0; s < rounds * jobs[0].nfiles; s++)
		for (i = 0; i < n; i++)
			if (jobs[i].results[s][0])
				printf("%d %d %s %s start_ns %lld end_ns %lld\n", s, i,
				       jobs[i].files[s % jobs[i].nfiles], jobs[i].results[s],
				       jobs[i].start_ns[s], jobs[i].end_ns[s]);
	for (i = 0; i < n; i++) {
		free(jobs[i].results);
		free(jobs[i].start_ns);
		free(jobs[i].end_ns);
	}
	return ret;
}

int main(int argc, char **argv)
{
	int i, n, ret = 0;
	struct job *jobs;

	if (argc > 2 && !strcmp(argv[1], "-r")) {
		rounds = atoi(argv[2]);
		if (rounds < 1) {
			fprintf(stderr, "sof-parwrite: bad -r %s\n", argv[2]);
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	n = (argc - 1) / 2;
	if (argc < 3 || (argc - 1) % 2) {
		fprintf(stderr, "usage: sof-parwrite [-r ROUNDS] FILE STRING [FILE STRING ...]\n");
		return 2;
	}
	jobs = calloc(n, sizeof(*jobs));
	if (!jobs)
		return 1;
	for (i = 0; i < n; i++) {
		jobs[i].file = argv[1 + 2 * i];
		jobs[i].str = argv[2 + 2 * i];
	}
	if (rounds) {
		ret = main_rounds(jobs, n);
		free(jobs);
		return ret;
	}
	for (i = 0; i < n; i++) {
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
