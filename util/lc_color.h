/*
 * lc_color.h — colour in terminal output: the category names in their
 * colour of the category table (lc_cat_info's colour, the one palette of
 * every chart) and the word "warning", when the stream is a terminal;
 * never into a pipe or a file, never with NO_COLOR set to anything but the
 * empty string (no-color.org) or on a dumb terminal, unless --color=always
 * asks for it (the convention of git and perf).
 *
 * The terminal colour of "#rrggbb" is the nearest of the 256-colour cube
 * when TERM or COLORTERM says the terminal has it, else the nearest of the
 * 16 standard colours (grey for an unsaturated colour), except that the
 * category colours that would share one get distinct ones.
 */
#ifndef LC_COLOR_H
#define LC_COLOR_H

#include <stdio.h>

/* When to colour: --color=auto (the default), always or never. */
enum lc_color_when { LC_COLOR_AUTO, LC_COLOR_ALWAYS, LC_COLOR_NEVER };

/* The command's choice (an enum lc_color_when), set by its --color option
 * before it writes; read by lc_color.  The main thread's only. */
extern int lc_color_when;

/* The colour of warnings. */
#define LC_COLOR_WARNING "#d7af00"

/* The escape sequence that starts colour hex ("#rrggbb") on out, or the
 * one that ends colour when hex is NULL; "" when out gets no colour (see
 * above) or hex is not "#rrggbb".  The string stays valid until the next
 * call but one (two may be used in one printf). */
const char *lc_color(FILE *out, const char *hex);

#endif
