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

/* The renderers: write `r` to `out`; write errors are left in ferror().
 * pc__report_json returns PC_EFBIG, writing nothing, when the text would
 * pass 1 GiB, else 0. pc__report_run_human is the human form of a
 * scenario run (r->kind "run"): one line per scenario. */
int pc__report_json(const struct pc_report *r, FILE *out);
void pc__report_junit(const struct pc_report *r, FILE *out);
void pc__report_tap(const struct pc_report *r, FILE *out);
void pc__report_human(const struct pc_report *r, FILE *out, bool color);
void pc__report_run_human(const struct pc_report *r, FILE *out);
/* pc__report_sarif (pc_report_sarif.c) returns PC_EFBIG as
 * pc__report_json does; pc__report_github (pc_report_github.c) writes the
 * annotations, then the human form without colours. */
int pc__report_sarif(const struct pc_report *r, FILE *out);
void pc__report_github(const struct pc_report *r, FILE *out);


#endif
