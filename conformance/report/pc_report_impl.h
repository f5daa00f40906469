/* pc_report_impl.h - private to conformance/report/: the helpers the
 * renderers share. No other folder may include it.
 *
 * Every renderer reads the verdict pc_report_finish() computed (case
 * status, message and rule; r->counts) and computes none of its own.
 */
#ifndef PC_REPORT_IMPL_H
#define PC_REPORT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pc_report.h"

/* Writes one Unicode scalar `cp`, whose UTF-8 bytes are raw[0..n), to
 * `out`, escaped for some format. */
typedef void (*pc__report_esc_fn)(FILE *out, unsigned cp, const char *raw,
				  size_t n);

/* pc__report_escape - write the C string `s` (NULL writes nothing) to
 * `out`, lossily decoded as UTF-8, each scalar through `esc`. */
void pc__report_escape(FILE *out, const char *s, pc__report_esc_fn esc);

/* pc__report_esc_visible - the tail every line-oriented form shares:
 * a C0 control or DEL as "\xNN", a C1 control or U+FFFE/U+FFFF as
 * "\u{NN}", anything else as its UTF-8 bytes (a pc__report_esc_fn). */
void pc__report_esc_visible(FILE *out, unsigned cp, const char *raw, size_t n);
/* pc__report_text - a JSON string node holding `s` as valid UTF-8
 * (U+FFFD for invalid bytes), or null for NULL. */
cJSON *pc__report_text(const char *s);
/* pc__report_print_json - print `o` as serde_json's pretty printer would,
 * with a final newline, to `out`, and delete it. 0, or PC_EFBIG (nothing
 * written) when the text would pass 1 GiB. */
int pc__report_print_json(cJSON *o, FILE *out);

/* pc__report_ms - `t` seconds as whole milliseconds; negative, NaN and
 * absurd (> 10^12 s) values give 0. */
long long pc__report_ms(double t);
/* pc__report_put_seconds - write `t` as "S.mmm", whatever the locale. */
void pc__report_put_seconds(FILE *out, double t);

/* pc__report_step_name - the step part of a scenario case's name: `name`
 * without its leading "<scenario name> / ", or all of `name` when it does
 * not start so. */
const char *pc__report_step_name(const struct pc_group *g, const char *name);
/* pc__report_group_message - group `g`'s (1-based) own message: its skip
 * reason, or the message of its scenario-level case (the case named as
 * the scenario), or "". Borrowed from `r`. */
const char *pc__report_group_message(const struct pc_report *r, size_t g);

/* An unsuppressed finding in display order (the human form's): by the
 * highest severity of its kind, the kind, its severity, its id, the order
 * found. */
struct pc__report_item {
	const struct pc_finding *f;
	enum pc_severity group_sev; /* the highest severity of its kind */
	size_t index;		    /* its place in pc_report_findings() */
};

/* pc__report_sorted - the unsuppressed findings of `r` in display order;
 * a new array (caller frees; the findings are borrowed), *n its length. */
struct pc__report_item *pc__report_sorted(const struct pc_report *r,
					  size_t *n);
/* pc__report_kind_len - the length of the kind prefix of rule id `id`:
 * 7 for "PC-HOOK-002" ("PC-HOOK"). */
size_t pc__report_kind_len(const char *id);
/* pc__report_same_kind - `a` and `b` have the same kind prefix. */
bool pc__report_same_kind(const char *a, const char *b);

/* ---- the HTML page's writer (pc_report_html_esc.c) ---- */

/* Where the page goes, and how many bytes went there (the page's size
 * bound, PC_REPORT_HTML_BUDGET, is kept with it). */
struct pc__html {
	FILE *out;
	size_t n;
};

/* PC_HTML_STORED - the text is host text or a report string: the bytes
 * C0 80 stand for a NUL (pc_serde.h) and are shown as one. */
#define PC_HTML_STORED 1u

/* pc__html_write, _puts, _printf - markup as is, counted. */
void pc__html_write(struct pc__html *h, const char *s, size_t n);
void pc__html_puts(struct pc__html *h, const char *s);
void pc__html_printf(struct pc__html *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* pc__html_text - the `n` bytes of `s` as HTML text: '<' '>' '&' and
 * quotes as entities; newline and tab kept; every other byte that has no
 * glyph or changes how the text reads made visible as a
 * <span class="vis" title="what it is">: C0 controls and DEL as their
 * ASCII names ("NUL", "CR", "ESC" - so a terminal escape is shown, never
 * interpreted), C1 controls, U+FEFF ("[BOM]"),
 * bidirectional and other format characters, separators and
 * noncharacters as "[U+XXXX]", each byte that is not valid UTF-8 as
 * "\xNN". `flags` PC_HTML_STORED: C0 80 is a NUL. */
void pc__html_text(struct pc__html *h, const char *s, size_t n,
		   unsigned flags);
/* pc__html_str - pc__html_text of the C string `s` (NULL: nothing) with
 * PC_HTML_STORED. */
void pc__html_str(struct pc__html *h, const char *s);
/* pc__html_attr - `s` for a quoted attribute value: & " ' < > as
 * entities, control bytes as '?'. */
void pc__html_attr(struct pc__html *h, const char *s);
/* pc__html_excerpt - stream `label` (a fixed ASCII word) of an exchange:
 * "(empty)", or its size and its bytes (pc__html_text) in a <pre>, the
 * bytes an excerpt dropped (pc_excerpt) marked between its start and its
 * end with how many they were. */
void pc__html_excerpt(struct pc__html *h, const char *label,
		      const struct pc_excerpt *e);

/* The renderers: write `r` to `out`; write errors are left in ferror().
 * pc__report_json returns PC_EFBIG, writing nothing, when the text would
 * pass 1 GiB, else 0. pc__report_run_human is the human form of a
 * scenario run (r->kind "run"): one line per scenario. */
int pc__report_json(const struct pc_report *r, FILE *out);
void pc__report_junit(const struct pc_report *r, FILE *out);
void pc__report_tap(const struct pc_report *r, FILE *out);
/* pc__report_html - the self-contained page (pc_report_html.c,
 * docs/report.md). */
void pc__report_html(const struct pc_report *r, FILE *out);
void pc__report_human(const struct pc_report *r, FILE *out, bool color);
void pc__report_run_human(const struct pc_report *r, FILE *out);
/* pc__report_sarif (pc_report_sarif.c) returns PC_EFBIG as
 * pc__report_json does; pc__report_github (pc_report_github.c) writes the
 * annotations, then the human form without colours. */
int pc__report_sarif(const struct pc_report *r, FILE *out);
void pc__report_github(const struct pc_report *r, FILE *out);


#endif
