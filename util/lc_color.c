/*
 * lc_color.c — colour in terminal output (see lc_color.h).
 */
#include "lc_color.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int lc_color_when = LC_COLOR_AUTO;

/* The 16 standard colours as xterm shows them, and their SGR codes. */
static const struct { unsigned char rgb[3]; unsigned char sgr; } basic[] = {
	{ { 0xcd, 0x00, 0x00 }, 31 }, { { 0x00, 0xcd, 0x00 }, 32 }, { { 0xcd, 0xcd, 0x00 }, 33 },
	{ { 0x00, 0x00, 0xee }, 34 }, { { 0xcd, 0x00, 0xcd }, 35 }, { { 0x00, 0xcd, 0xcd }, 36 },
	{ { 0xff, 0x00, 0x00 }, 91 }, { { 0x00, 0xff, 0x00 }, 92 }, { { 0xff, 0xff, 0x00 }, 93 },
	{ { 0x5c, 0x5c, 0xff }, 94 }, { { 0xff, 0x00, 0xff }, 95 }, { { 0x00, 0xff, 0xff }, 96 },
};

/* The chart colours (the category table's) whose nearest standard colour
 * another one already takes, and the standard colour each gets instead, so
 * that on a 16-colour terminal no two categories share one: li red, ip
 * yellow, sl magenta, cl blue, rc bright magenta, ml grey, bl bright
 * green, wc cyan, rt green (test_color proves them distinct). */
static const struct { const char *hex; unsigned char sgr; } pinned[] = {
	{ "#9467bd", 35 }, { "#8c564b", 34 }, { "#e377c2", 95 }, { "#bcbd22", 92 },
};

/* The standard colour pinned for hex, 0 when none. */
static int pinned_basic(const char *hex)
{
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++)
		if (!strcasecmp(hex, pinned[i].hex))
			return pinned[i].sgr;
	return 0;
}

/* Whether out gets colour. */
static int wanted(FILE *out)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (lc_color_when != LC_COLOR_AUTO)
		return lc_color_when == LC_COLOR_ALWAYS;
	if ((no && *no) || (term && !strcmp(term, "dumb")))
		return 0;
	return isatty(fileno(out));
}

/* Whether the terminal shows the 256-colour palette. */
static int has_256(void)
{
	const char *term = getenv("TERM"), *ct = getenv("COLORTERM");

	return (term && strstr(term, "256")) || (ct && *ct);
}

/* The nearest of the 6 levels of the 256-colour cube (0, 95, 135, ...). */
static int cube_level(int v)
{
	return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40;
}

/* The SGR of the nearest standard colour: grey for an unsaturated one. */
static int nearest_basic(const int rgb[3])
{
	int hi = rgb[0], lo = rgb[0], best = 0;
	long dbest = -1;

	for (int k = 1; k < 3; k++) {
		hi = rgb[k] > hi ? rgb[k] : hi;
		lo = rgb[k] < lo ? rgb[k] : lo;
	}
	if (hi - lo < 0x30)
		return 90;
	for (size_t i = 0; i < sizeof(basic) / sizeof(basic[0]); i++) {
		long d = 0;

		for (int k = 0; k < 3; k++)
			d += (long)(rgb[k] - basic[i].rgb[k]) * (rgb[k] - basic[i].rgb[k]);
		if (dbest < 0 || d < dbest) {
			dbest = d;
			best = basic[i].sgr;
		}
	}
	return best;
}

const char *lc_color(FILE *out, const char *hex)
{
	static char buf[2][24];
	static int turn;
	unsigned v;
	int rgb[3];
	char *b;

	if (!wanted(out))
		return "";
	if (!hex)
		return "\033[m";
	if (hex[0] != '#' || strlen(hex) != 7 || strspn(hex + 1, "0123456789abcdefABCDEF") != 6)
		return "";
	v = (unsigned)strtoul(hex + 1, NULL, 16);
	rgb[0] = (int)(v >> 16), rgb[1] = (int)(v >> 8 & 0xff), rgb[2] = (int)(v & 0xff);
	b = buf[turn ^= 1];
	if (has_256())
		snprintf(b, sizeof(buf[0]), "\033[38;5;%dm",
			 16 + 36 * cube_level(rgb[0]) + 6 * cube_level(rgb[1]) + cube_level(rgb[2]));
	else
		snprintf(b, sizeof(buf[0]), "\033[%dm",
			 pinned_basic(hex) ? pinned_basic(hex) : nearest_basic(rgb));
	return b;
}
