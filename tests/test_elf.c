/*
 * test_elf.c — the one build id reader (util/lc_elf.h) on ELF files made
 * here byte by byte, one edge case each: no note, a cut note, a cut file,
 * notes of another type or name, several notes, the 32-bit class, big
 * endian, 8-byte note alignment, notes at an odd offset, a file without
 * section headers (its PT_NOTE segment), not ELF, empty; and on this test's
 * own program, against readelf.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lc_elf.h"
#include "lc_test.h"

/* One note of a made file: name (NULL: "GNU"), type, descsz; byte k of its
 * descriptor is seed + k. */
struct mk_note {
	const char *name;
	uint32_t type, descsz;
	uint8_t seed;
};

/* A made file: class (32, 64), byte order, where its notes go (at, with
 * their section's and segment's alignment), whether it has the note
 * section and the PT_NOTE segment, the size they say (0: the notes'),
 * a size to cut the file to (0: whole), its
 * notes (up to 4, the rest descsz 0 and type 0), and what is expected:
 * the return value and the index of the note whose id it reads. */
struct mk_case {
	const char *what;
	int cls, be;
	size_t at;
	unsigned align;
	int section, segment;
	size_t size, cut;
	struct mk_note notes[4];
	int rc, want;
};

#define GNU_ID 3u	/* NT_GNU_BUILD_ID */
#define GNU_ABI 1u	/* NT_GNU_ABI_TAG */

static const struct mk_case cases[] = {
	{ "one build id", 64, 0, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ID, 20, 0xa0 } }, 0, 0 },
	{ "no note", 64, 0, 0x200, 4, 1, 1, 0, 0, { { 0 } }, -ENOENT, -1 },
	{ "no note section nor segment", 64, 0, 0x200, 4, 0, 0, 0, 0,
	  { { NULL, GNU_ID, 20, 1 } }, -ENOENT, -1 },
	{ "an ABI tag only", 64, 0, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ABI, 16, 1 } }, -ENOENT, -1 },
	{ "type 3 of another name", 64, 0, 0x200, 4, 1, 1, 0, 0, { { "GNV", GNU_ID, 20, 1 } },
	  -ENOENT, -1 },
	{ "an empty id", 64, 0, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ID, 0, 1 } }, -ENOENT, -1 },
	{ "an id over 64 bytes", 64, 0, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ID, 65, 1 } },
	  -ENOENT, -1 },
	{ "an id of 64 bytes", 64, 0, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ID, 64, 7 } }, 0, 0 },
	{ "several notes, the id third", 64, 0, 0x200, 4, 1, 1, 0, 0,
	  { { NULL, GNU_ABI, 16, 1 }, { "Go", 4, 8, 2 }, { NULL, GNU_ID, 20, 0x30 } }, 0, 2 },
	{ "two ids: the first", 64, 0, 0x200, 4, 1, 1, 0, 0,
	  { { NULL, GNU_ID, 8, 0x10 }, { NULL, GNU_ID, 20, 0x50 } }, 0, 0 },
	{ "a note cut by its section", 64, 0, 0x200, 4, 1, 0, 68, 0,
	  { { NULL, GNU_ABI, 16, 1 }, { NULL, GNU_ID, 200, 1 } }, -ENOENT, -1 },
	{ "a file cut inside its notes", 64, 0, 0x200, 4, 1, 1, 0, 0x210,
	  { { NULL, GNU_ID, 20, 1 } }, -ENOENT, -1 },
	{ "32-bit", 32, 0, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ID, 20, 0x11 } }, 0, 0 },
	{ "32-bit big endian", 32, 1, 0x200, 4, 1, 1, 0, 0,
	  { { NULL, GNU_ABI, 16, 1 }, { NULL, GNU_ID, 20, 0x22 } }, 0, 1 },
	{ "64-bit big endian", 64, 1, 0x200, 4, 1, 1, 0, 0, { { NULL, GNU_ID, 16, 0x33 } }, 0, 0 },
	{ "notes aligned to 8", 64, 0, 0x200, 8, 1, 1, 0, 0,
	  { { NULL, GNU_ABI, 12, 1 }, { NULL, GNU_ID, 20, 0x44 } }, 0, 1 },
	{ "notes at an odd offset", 64, 0, 0x201, 4, 1, 1, 0, 0,
	  { { NULL, GNU_ID, 20, 0x55 } }, 0, 0 },
	{ "32-bit notes at an odd offset", 32, 1, 0x1ff, 4, 1, 1, 0, 0,
	  { { NULL, GNU_ID, 20, 0x66 } }, 0, 0 },
	{ "no section headers: the segment", 64, 0, 0x200, 4, 0, 1, 0, 0,
	  { { NULL, GNU_ABI, 16, 1 }, { NULL, GNU_ID, 20, 0x77 } }, 0, 1 },
	{ "32-bit, no section headers", 32, 0, 0x200, 4, 0, 1, 0, 0,
	  { { NULL, GNU_ID, 20, 0x88 } }, 0, 0 },
};

/* Store v in n bytes at b + off in the case's byte order. */
static void put(uint8_t *b, size_t off, size_t n, uint64_t v, int be)
{
	for (size_t k = 0; k < n; k++)
		b[off + (be ? n - 1 - k : k)] = (uint8_t)(v >> (8 * k));
}

static size_t up(size_t v, unsigned a)
{
	return (v + a - 1) / a * a;
}

/* The notes of c at b + c->at; their length. */
static size_t put_notes(uint8_t *b, const struct mk_case *c)
{
	size_t o = c->at;

	for (int i = 0; i < 4 && c->notes[i].type; i++) {
		const struct mk_note *n = &c->notes[i];
		const char *name = n->name ? n->name : "GNU";
		size_t nsz = strlen(name) + 1;

		put(b, o, 4, nsz, c->be);
		put(b, o + 4, 4, n->descsz, c->be);
		put(b, o + 8, 4, n->type, c->be);
		memcpy(b + o + 12, name, nsz);
		o = c->at + up(o - c->at + 12 + nsz, c->align);
		for (uint32_t k = 0; k < n->descsz; k++)
			b[o + k] = (uint8_t)(n->seed + k);
		o = c->at + up(o - c->at + n->descsz, c->align);
	}
	return o - c->at;
}

/* The ELF header, the PT_NOTE program header (at 64) and the section
 * headers (null, SHT_NOTE; at 128) of c, whose notes take len bytes. */
static void put_headers(uint8_t *b, const struct mk_case *c, size_t len)
{
	int w = c->cls == 64, be = c->be, a = w ? 8 : 4;	/* address size */
	size_t sh = 128 + (w ? 64 : 40), ph = 64;

	memcpy(b, "\177ELF", 4);
	b[4] = w ? 2 : 1;
	b[5] = be ? 2 : 1;
	b[6] = 1;
	put(b, 16, 2, 3, be);			/* ET_DYN */
	put(b, 18, 2, w ? 62 : 3, be);
	put(b, 20, 4, 1, be);
	put(b, w ? 32 : 28, a, c->segment ? ph : 0, be);	/* e_phoff */
	put(b, w ? 40 : 32, a, c->section ? 128 : 0, be);	/* e_shoff */
	put(b, w ? 52 : 40, 2, w ? 64 : 52, be);
	put(b, w ? 54 : 42, 2, w ? 56 : 32, be);
	put(b, w ? 56 : 44, 2, c->segment ? 1 : 0, be);
	put(b, w ? 58 : 46, 2, w ? 64 : 40, be);
	put(b, w ? 60 : 48, 2, c->section ? 2 : 0, be);
	put(b, ph, 4, 4, be);			/* PT_NOTE */
	put(b, ph + (w ? 8 : 4), a, c->at, be);
	put(b, ph + (w ? 32 : 16), a, len, be);
	put(b, ph + (w ? 40 : 20), a, len, be);
	put(b, ph + (w ? 48 : 28), a, c->align, be);
	put(b, sh + 4, 4, 7, be);		/* SHT_NOTE */
	put(b, sh + (w ? 24 : 16), a, c->at, be);
	put(b, sh + (w ? 32 : 20), a, len, be);
	put(b, sh + (w ? 48 : 32), a, c->align, be);
}

/* A memory file holding the n bytes b. */
static int memfile(const void *b, size_t n)
{
	int fd = memfd_create("elf", MFD_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	return fd;
}

/* The hex the case expects: its note want's descriptor. */
static void want_hex(const struct mk_case *c, char *hex)
{
	const struct mk_note *n = c->want >= 0 ? &c->notes[c->want] : NULL;

	*hex = 0;
	for (uint32_t k = 0; n && k < n->descsz; k++)
		sprintf(hex + 2 * k, "%02x", (uint8_t)(n->seed + k));
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mk_case *c = &cases[i];
		static uint8_t b[4096];
		char hex[LC_BUILD_ID_HEX], want[LC_BUILD_ID_HEX];
		size_t len, n;
		int fd, r;

		memset(b, 0, sizeof(b));
		len = put_notes(b, c);
		put_headers(b, c, c->size ? c->size : len);
		n = c->cut ? c->cut : c->at + len;
		fd = memfile(b, n);
		r = lc_elf_build_id(fd, hex, sizeof(hex));
		close(fd);
		want_hex(c, want);
		if (r != c->rc || strcmp(hex, want))
			fail_msg("%s: %d \"%s\", expected %d \"%s\"", c->what, r, hex, c->rc, want);
	}
}

/* Not ELF: empty, text, a header cut after its identification. */
static void test_not_elf(void **state)
{
	static const struct { const char *b; size_t n; } files[] = {
		{ "", 0 }, { "#!/bin/sh\necho hello\n", 21 }, { "\177ELF\2\1\1", 7 },
		{ "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0", 20 },
	};
	char hex[LC_BUILD_ID_HEX] = "x";

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		int fd = memfile(files[i].b, files[i].n);

		assert_int_equal(lc_elf_build_id(fd, hex, sizeof(hex)), -ENOEXEC);
		assert_string_equal(hex, "");
		close(fd);
	}
	assert_int_equal(lc_elf_build_id(-1, hex, sizeof(hex)), -ENOEXEC);
}

/* A buffer too short for the id: -ERANGE and ""; no buffer: -EINVAL. */
static void test_short_buffer(void **state)
{
	static uint8_t b[4096];
	char hex[41];	/* a 20-byte id: 40 digits and the NUL */
	int fd;

	(void)state;
	put_headers(b, &cases[0], put_notes(b, &cases[0]));
	fd = memfile(b, sizeof(b));
	assert_int_equal(lc_elf_build_id(fd, hex, sizeof(hex) - 1), -ERANGE);
	assert_string_equal(hex, "");
	assert_int_equal(lc_elf_build_id(fd, hex, sizeof(hex)), 0);
	assert_int_equal(strlen(hex), 40);
	assert_int_equal(lc_elf_build_id(fd, hex, 0), -EINVAL);
	close(fd);
}

/* This test's own program: the id readelf shows, or none when it shows
 * none. */
static void test_own_program(void **state)
{
	char out[4096], hex[LC_BUILD_ID_HEX], self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *f;
	int r;

	(void)state;
	assert_true(n > 0);
	self[n] = 0;
	if (lc_test_shell(out, sizeof(out), "readelf -n '%s' 2>/dev/null | "
			  "sed -n 's/.*Build ID: *//p'", self))
		skip();	/* no readelf */
	out[strcspn(out, "\n")] = 0;
	f = fopen(self, "re");
	assert_non_null(f);
	r = lc_elf_build_id(fileno(f), hex, sizeof(hex));
	fclose(f);
	assert_int_equal(r, *out ? 0 : -ENOENT);
	assert_string_equal(hex, out);
}

LC_TEST_MAIN(NULL, NULL, LC_T(test_cases), LC_T(test_not_elf), LC_T(test_short_buffer),
	     LC_T(test_own_program))
