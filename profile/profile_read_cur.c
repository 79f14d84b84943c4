/*
 * profile_read_cur.c — the cursor over one verified payload: fixed-width
 * and varint integers, strings, masked accounting, fields by layout
 * (profile_format.h).  A read past the end or an invalid value sets the
 * cursor's reason once; every later read returns 0 (lc_rd_bad).
 */
#include "profile_read.h"
#include "profile_format.h"
#include "lc_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Note the first reason the payload is invalid; returns 0 so that readers
 * can "return lc_rd_bad(...)" from a step that failed. */
int lc_rd_bad(struct cur *c, const char *why)
{
	if (!c->why)
		c->why = why;
	return 0;
}

/* Take n bytes; NULL (and c->why set) when fewer remain. */
static const uint8_t *take(struct cur *c, size_t n)
{
	const uint8_t *p;

	if (c->why || c->n - c->off < n) {
		lc_rd_bad(c, "block too short");
		return NULL;
	}
	p = c->p + c->off;
	c->off += n;
	return p;
}

uint8_t lc_rd_get8(struct cur *c)
{
	const uint8_t *p = take(c, 1);

	return p ? *p : 0;
}

static uint16_t get16(struct cur *c)
{
	const uint8_t *p = take(c, 2);

	return p ? lc_pf_get16(p) : 0;
}

uint32_t lc_rd_get32(struct cur *c)
{
	const uint8_t *p = take(c, 4);

	return p ? lc_pf_get32(p) : 0;
}

uint64_t lc_rd_get64(struct cur *c)
{
	const uint8_t *p = take(c, 8);

	return p ? lc_pf_get64(p) : 0;
}

/* A length-prefixed string as a new NUL-terminated copy; NULL for length 0
 * or on error (c->why tells which; ENOMEM sets *oom). */
static char *getstr(struct cur *c, int *oom)
{
	uint32_t n = lc_rd_get32(c);
	const uint8_t *p;
	char *s;

	if (n > LC_PROF_TEXT_MAX) {
		lc_rd_bad(c, "string too long");
		return NULL;
	}
	p = take(c, n);
	if (!p || !n)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s) {
		if (oom)
			*oom = 1;
		lc_rd_bad(c, "out of memory");
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* Up to nbits masked values into v[] (zero where the mask bit is clear,
 * and every one when the mask is refused). */
void lc_rd_getmasked(struct cur *c, uint64_t *v, int nbits, unsigned allowed)
{
	uint16_t mask = get16(c);

	if (mask & ~allowed) {
		lc_rd_bad(c, "unknown field in mask");
		memset(v, 0, (size_t)nbits * sizeof(*v));
		return;
	}
	for (int i = 0; i < nbits; i++)
		v[i] = (mask & (1u << i)) ? lc_rd_get64(c) : 0;
}

/* An acct from its 14 fields in mask-bit order (either encoding's). */
static void acct_of(const uint64_t v[14], struct lc_acct *a)
{
	memcpy(a->cat, v, sizeof(a->cat));
	a->li_qempty = v[LC_PF_M_QEMPTY];
	a->t_we = v[LC_PF_M_TWE];
	a->n_we = v[LC_PF_M_NWE];
	a->t_nwe = v[LC_PF_M_TNWE];
	a->n_nwe = v[LC_PF_M_NNWE];
}

void lc_rd_getacct(struct cur *c, struct lc_acct *a)
{
	uint64_t v[14];

	lc_rd_getmasked(c, v, 14, LC_PF_M_ACCT);
	acct_of(v, a);
}

/* A count of items of at least min bytes each, capped by what remains. */
uint32_t lc_rd_getcount(struct cur *c, size_t min)
{
	uint32_t n = lc_rd_get32(c);

	if (!c->why && (c->n - c->off) / min < n) {
		lc_rd_bad(c, "count larger than the block");
		return 0;
	}
	return n;
}

/* An unsigned LEB128 varint of at most LC_PF_VARINT_MAX bytes.  The
 * encoding of a value is unique: a varint that ends in a zero byte (other
 * than 0 itself), runs past 10 bytes or past 64 bits is corrupt. */
uint64_t lc_rd_getuv(struct cur *c)
{
	uint64_t v = 0;

	for (int i = 0; !c->why; i++) {
		uint8_t b;

		if (c->off == c->n)
			return lc_rd_bad(c, "block too short");
		b = c->p[c->off++];
		if (i == LC_PF_VARINT_MAX - 1 && b > 1)
			return lc_rd_bad(c, b & 0x80 ? "varint longer than 10 bytes" :
					 "varint past 64 bits");
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			if (!b && i)
				return lc_rd_bad(c, "overlong varint");
			return v;
		}
	}
	return 0;
}

/* A varint that must fit a u32. */
uint32_t lc_rd_getuv32(struct cur *c)
{
	uint64_t v = lc_rd_getuv(c);

	if (v > UINT32_MAX)
		return lc_rd_bad(c, "varint too large");
	return (uint32_t)v;
}

/* A varint count of items of at least min bytes each, capped by what
 * remains (checked before anything is allocated for them). */
uint32_t lc_rd_getvcount(struct cur *c, size_t min)
{
	uint32_t n = lc_rd_getuv32(c);

	if (!c->why && (c->n - c->off) / min < n)
		return lc_rd_bad(c, "count larger than the block");
	return n;
}

/* Up to nbits values after a varint mask, as varints, into v[] in the
 * fixed-width field order (the mask's bits follow lc_pf_vorder); all zero
 * when the mask is refused. */
void lc_rd_getvmasked(struct cur *c, uint64_t *v, int nbits, unsigned allowed)
{
	uint64_t mask = lc_rd_getuv(c);

	if (mask & ~(uint64_t)allowed) {
		lc_rd_bad(c, "unknown field in mask");
		memset(v, 0, (size_t)nbits * sizeof(*v));
		return;
	}
	for (int i = 0; i < nbits; i++)
		v[i < 10 ? lc_pf_vorder[i] : i] = (mask & (1u << i)) ? lc_rd_getuv(c) : 0;
}

void lc_rd_getvacct(struct cur *c, struct lc_acct *a)
{
	uint64_t v[14];

	lc_rd_getvmasked(c, v, 14, LC_PF_M_ACCT);
	acct_of(v, a);
}

/* A u8 count and that many strings into v[0..LC_NCAT) (replacing what v
 * held); strings past LC_NCAT are read and dropped. */
static void getstrs(struct cur *c, char **v, int *oom)
{
	int n = lc_rd_get8(c);

	for (int i = 0; i < n && !c->why; i++) {
		char *r = getstr(c, oom);

		if (i < LC_NCAT) {
			free(v[i]);
			v[i] = r;
		} else {
			free(r);
		}
	}
}

/* Store v into the unsigned field of size bytes (1, 4 or 8) at dst. */
static void store_uint(void *dst, uint8_t size, uint64_t v)
{
	if (size == 1)
		*(uint8_t *)dst = (uint8_t)v;
	else if (size == 4)
		*(uint32_t *)dst = (uint32_t)v;
	else
		*(uint64_t *)dst = v;
}

/* An unsigned field of width (profile_format.h: 1, 4 or 8 bytes, or a
 * varint into 4 or 8) into dst; 0 when the block ends before it. */
static void getuint(struct cur *c, void *dst, uint8_t width)
{
	uint8_t size = width & LC_PF_SIZE;
	uint64_t v = width & LC_PF_VAR ? (size == 4 ? lc_rd_getuv32(c) : lc_rd_getuv(c)) :
		     size == 1 ? lc_rd_get8(c) : size == 4 ? lc_rd_get32(c) : lc_rd_get64(c);

	store_uint(dst, size, v);
}

/* The fields of layout l into record rec (profile_format.h); a string
 * field's old value is not freed.  oom as getstr's (NULL: ENOMEM is only
 * c->why). */
void lc_rd_get_fields(struct cur *c, void *rec, const struct lc_pf_layout *l, int *oom)
{
	for (uint32_t i = 0; i < l->n; i++) {
		char *dst = (char *)rec + l->f[i].off;

		if (l->f[i].width == LC_PF_STRS)
			getstrs(c, (char **)(void *)dst, oom);
		else if (l->f[i].width == LC_PF_STR)
			*(char **)(void *)dst = getstr(c, oom);
		else
			getuint(c, dst, l->f[i].width);
	}
}

/* n rows of layout l into the array rows (size bytes a row) from row
 * *count on, counting each row read whole.  0 or -ENOMEM. */
int lc_rd_get_rows(struct cur *c, void *rows, size_t size, uint32_t n, uint32_t *count,
		   const struct lc_pf_layout *l)
{
	int oom = 0;

	for (uint32_t i = 0; i < n && !c->why; i++) {
		lc_rd_get_fields(c, (char *)rows + (size_t)*count * size, l, &oom);
		if (!c->why)
			++*count;
	}
	return oom ? -ENOMEM : 0;
}

/* A list of n tags into a new array *out (NULL for none). */
int lc_rd_get_tags(struct cur *c, uint32_t n, int64_t **out)
{
	*out = NULL;
	if (!n || c->why)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		(*out)[i] = (int64_t)lc_rd_get64(c);
	return 0;
}
