// SPDX-License-Identifier: GPL-2.0-only
/*
 * modinfo for the busybox guest: kmod's fields, read from the module's .modinfo section.
 * BusyBox's modinfo scans the whole file for "field=" after a 0x00 or 0x80 byte, so it misses
 * the section's first string (clang puts the header's import_ns there), and it exits 0 for a
 * module that does not exist.
 *
 *   modinfo [-F FIELD] NAME|FILE
 *
 * NAME is looked up in modules.dep (then modules.builtin.modinfo) of the running kernel; '-'
 * and '_' match. A compressed module is handed to busybox. Exit 1 when there is no such module.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *field;

/* print one "key=value" string of .modinfo as kmod does */
static void show(const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len);

	if (!eq)
		return;
	if (!field)
		printf("%-16.*s%.*s\n", (int)(eq - s + 1), s, (int)(len - (eq - s) - 1), eq + 1);
	else if (strlen(field) == (size_t)(eq - s) && !strncmp(s, field, eq - s))
		printf("%.*s\n", (int)(len - (eq - s) - 1), eq + 1);
}

/* each NUL-terminated string of buf[0..len) */
static void show_all(const char *buf, size_t len, const char *prefix)
{
	size_t plen = prefix ? strlen(prefix) : 0;
	size_t i = 0;

	while (i < len) {
		const char *s = buf + i;
		size_t n = strnlen(s, len - i);

		if (n && (!prefix || (n > plen && !strncmp(s, prefix, plen))))
			show(s + plen, n - plen);
		i += n + 1;
	}
}

/* the .modinfo section of an ELF64 or ELF32 little-endian module */
static int modinfo_section(const unsigned char *m, size_t size, const char **sec, size_t *len)
{
	size_t shoff, shentsize, shnum, shstrndx, i, off, sz, name, stroff, strsz;

	if (size < EI_NIDENT || memcmp(m, ELFMAG, SELFMAG) || m[EI_DATA] != ELFDATA2LSB)
		return -1;
	if (m[EI_CLASS] == ELFCLASS64 && size >= sizeof(Elf64_Ehdr)) {
		const Elf64_Ehdr *eh = (const void *)m;

		shoff = eh->e_shoff;
		shentsize = eh->e_shentsize;
		shnum = eh->e_shnum;
		shstrndx = eh->e_shstrndx;
		if (shentsize < sizeof(Elf64_Shdr))
			return -1;
	} else if (m[EI_CLASS] == ELFCLASS32 && size >= sizeof(Elf32_Ehdr)) {
		const Elf32_Ehdr *eh = (const void *)m;

		shoff = eh->e_shoff;
		shentsize = eh->e_shentsize;
		shnum = eh->e_shnum;
		shstrndx = eh->e_shstrndx;
		if (shentsize < sizeof(Elf32_Shdr))
			return -1;
	} else {
		return -1;
	}
	if (shstrndx >= shnum || shoff > size || shnum > (size - shoff) / shentsize)
		return -1;

#define SH(i, f) (m[EI_CLASS] == ELFCLASS64 ? \
		  (size_t)((const Elf64_Shdr *)(m + shoff + (i) * shentsize))->f : \
		  (size_t)((const Elf32_Shdr *)(m + shoff + (i) * shentsize))->f)
	stroff = SH(shstrndx, sh_offset);
	strsz = SH(shstrndx, sh_size);
	if (stroff > size || strsz > size - stroff)
		return -1;
	for (i = 0; i < shnum; i++) {
		name = SH(i, sh_name);
		off = SH(i, sh_offset);
		sz = SH(i, sh_size);
		if (name >= strsz || strnlen((const char *)m + stroff + name, strsz - name) == strsz - name)
			continue;
		if (strcmp((const char *)m + stroff + name, ".modinfo"))
			continue;
		if (off > size || sz > size - off)
			return -1;
		*sec = (const char *)m + off;
		*len = sz;
		return 0;
	}
#undef SH
	return -1;
}

static void *map(const char *path, size_t *size)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !st.st_size) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	return m;
}

/* module names match with '-' and '_' alike */
static int same_name(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; i < blen; i++, a++) {
		char x = *a == '-' ? '_' : *a, y = b[i] == '-' ? '_' : b[i];

		if (!*a || x != y)
			return 0;
	}
	return !*a;
}

/* the path of module NAME in modules.dep of DIR, or NULL */
static char *find_module(const char *dir, const char *name)
{
	char path[4096], line[8192], *found = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base, *dot;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (dot && same_name(name, base, dot - base)) {
			found = malloc(strlen(dir) + strlen(line) + 2);
			if (found)
				sprintf(found, "%s/%s", dir, line);
		}
	}
	fclose(f);
	return found;
}

/* NAME is built in: its fields from modules.builtin.modinfo ("name.key=value" strings) */
static int builtin(const char *dir, const char *name)
{
	char path[4096], prefix[512];
	const char *buf;
	size_t size, i, n;
	int found = 0;

	snprintf(path, sizeof(path), "%s/modules.builtin.modinfo", dir);
	buf = map(path, &size);
	if (!buf)
		return 0;
	snprintf(prefix, sizeof(prefix), "%s.", name);
	for (i = 0; prefix[i]; i++)
		if (prefix[i] == '-')
			prefix[i] = '_';
	for (i = 0; i < size; i += n + 1) {
		n = strnlen(buf + i, size - i);
		if (n > strlen(prefix) && !strncmp(buf + i, prefix, strlen(prefix)))
			found = 1;
	}
	if (!found)
		return 0;
	if (!field)
		printf("%-16s%s\n%-16s%s\n", "name:", name, "filename:", "(builtin)");
	else if (!strcmp(field, "filename"))
		printf("(builtin)\n");
	else if (!strcmp(field, "name"))
		printf("%s\n", name);
	show_all(buf, size, prefix);
	return 1;
}

int main(int argc, char **argv)
{
	const char *arg, *sec;
	char dir[512], *path;
	struct utsname u;
	size_t size, len;
	void *m;
	int opt;

	while ((opt = getopt(argc, argv, "F:")) != -1) {
		if (opt != 'F') {
			fprintf(stderr, "usage: modinfo [-F FIELD] NAME|FILE\n");
			return 2;
		}
		field = optarg;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: modinfo [-F FIELD] NAME|FILE\n");
		return 2;
	}
	arg = argv[optind];
	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%s", u.release);
	if (strchr(arg, '/') || strstr(arg, ".ko")) {
		path = strdup(arg);
	} else {
		path = find_module(dir, arg);
		if (!path) {
			if (builtin(dir, arg))
				return 0;
			fprintf(stderr, "modinfo: ERROR: Module %s not found.\n", arg);
			return 1;
		}
	}
	if (!path)
		return 1;
	m = map(path, &size);
	if (!m) {
		fprintf(stderr, "modinfo: ERROR: could not read %s\n", path);
		return 1;
	}
	if (memcmp(m, ELFMAG, SELFMAG)) {
		/* compressed: busybox decompresses, and its scan is all there is */
		if (field)
			execl("/bin/busybox", "modinfo", "-F", field, path, (char *)NULL);
		else
			execl("/bin/busybox", "modinfo", path, (char *)NULL);
		return 1;
	}
	if (modinfo_section(m, size, &sec, &len)) {
		fprintf(stderr, "modinfo: ERROR: %s has no .modinfo section\n", path);
		return 1;
	}
	if (!field)
		printf("%-16s%s\n", "filename:", path);
	else if (!strcmp(field, "filename"))
		printf("%s\n", path);
	show_all(sec, len, NULL);
	return 0;
}
