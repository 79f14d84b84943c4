/*
 * fuzz_profile_blocks — the profile reader on profiles whose blocks pass
 * their CRCs.  Random mutations of a whole file break a block's CRC-32, so
 * fuzz_profile mostly meets the reader's first check; here the mutator
 * walks the blocks of docs/format.md (a header of hsize bytes, then type
 * u16, flags u16, length u32, payload, CRC-32 over header and payload),
 * mutates the payload of one block, sets its length and recomputes its
 * CRC, so that what it finds is a real profile file: `lostcycles report`
 * reads the crash input as the target did.  The target repairs the CRCs
 * of what it is given too (inputs from crossing over, or the kept corpus
 * edited by hand), then runs the checks of fuzz_profile.h.
 */
#include "fuzz_profile.h"
#include "profile_format.h"

#include <stdlib.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

/* The header's size when b[0..n) begins with a whole header of a size the
 * reader accepts, else 0. */
static size_t header_size(const uint8_t *b, size_t n)
{
	uint32_t h;

	if (n < 16)
		return 0;
	h = lc_pf_get32(b + 12);
	return h >= LC_PF_HDR_SIZE && h <= 4096 && h <= n ? h : 0;
}

/* The offset of the block after the one at off, or 0 when the block at
 * off is not whole in b[0..n). */
static size_t block_end(const uint8_t *b, size_t n, size_t off)
{
	uint32_t len;

	if (n - off < LC_PF_BLK_HDR + LC_PF_BLK_CRC)
		return 0;
	len = lc_pf_get32(b + off + 4);
	if (len > n - off - LC_PF_BLK_HDR - LC_PF_BLK_CRC)
		return 0;
	return off + LC_PF_BLK_HDR + (size_t)len + LC_PF_BLK_CRC;
}

/* Set the CRC of the block at off (its length field is right). */
static void block_crc(uint8_t *b, size_t off)
{
	uint32_t len = lc_pf_get32(b + off + 4);

	lc_pf_put32(b + off + LC_PF_BLK_HDR + len, lc_crc32(0, b + off, LC_PF_BLK_HDR + len));
}

/* Set the header's CRC and that of every whole block of b[0..n). */
static void repair(uint8_t *b, size_t n)
{
	size_t h = header_size(b, n), off, next;

	if (!h)
		return;
	lc_pf_put32(b + h - 4, lc_crc32(0, b, h - 4));
	for (off = h; (next = block_end(b, n, off)); off = next)
		block_crc(b, off);
}

/* The offset of whole block number k of b[0..n) (counting on from the
 * first when there are fewer), or 0 when there is none. */
static size_t pick_block(const uint8_t *b, size_t n, unsigned k)
{
	size_t h = header_size(b, n), off, next, count = 0;

	if (!h || !block_end(b, n, h))
		return 0;
	for (off = h; (next = block_end(b, n, off)); off = next)
		count++;
	k %= count;
	for (off = h; k--; off = block_end(b, n, off))
		;
	return off;
}

/* Mutate the payload of one block of data (its length set anew and the
 * blocks after it moved), or, one time in eight or when there is no
 * whole block, the whole file; then repair every CRC. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned seed)
{
	size_t off = seed % 8 ? pick_block(data, size, seed / 8) : 0, p, len, tail, room;
	uint8_t *rest;

	if (!off) {
		size = LLVMFuzzerMutate(data, size, max);
		repair(data, size);
		return size;
	}
	p = off + LC_PF_BLK_HDR;
	len = lc_pf_get32(data + off + 4);
	tail = size - p - len - LC_PF_BLK_CRC;	/* the blocks after it */
	room = max - size + len;		/* what the payload may grow to */
	rest = malloc(tail ? tail : 1);
	if (!rest)
		return size;
	memcpy(rest, data + p + len + LC_PF_BLK_CRC, tail);
	len = LLVMFuzzerMutate(data + p, len, room);
	lc_pf_put32(data + off + 4, (uint32_t)len);
	memcpy(data + p + len + LC_PF_BLK_CRC, rest, tail);
	free(rest);
	size = p + len + LC_PF_BLK_CRC + tail;
	repair(data, size);
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (!b)
		return 0;
	memcpy(b, data, n);
	repair(b, n);
	fuzz_profile_check(b, n);
	free(b);
	return 0;
}
