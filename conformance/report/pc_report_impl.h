/* pc_report_impl.h - private to conformance/report/: the helpers the four
 * renderers share. No other folder may include it.
 */
#ifndef PC_REPORT_IMPL_H
#define PC_REPORT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pc_report.h"

/* What every format summarises, counted once with one suppression rule. */
struct pc__report_counts {
	size_t errors, warnings, notes; /* unsuppressed findings */
	size_t suppressed;		/* suppressed findings */
	size_t failed, skipped;		/* cases */
	size_t internal;		/* failed PC_CASE_INTERNAL cases */
};

/* Writes one Unicode scalar `cp`, whose UTF-8 bytes are raw[0..n), to
 * `out`, escaped for some format. */
typedef void (*pc__report_esc_fn)(FILE *out, unsigned cp, const char *raw,
				  size_t n);

/* pc__report_is_suppressed - f->suppressed, or its id in r->suppressed_ids. */
bool pc__report_is_suppressed(const struct pc_report *r,
			      const struct pc_finding *f);
/* pc__report_count - fill *c from r's findings and cases. */
void pc__report_count(const struct pc_report *r, struct pc__report_counts *c);

/* pc__report_case_rule - the rule id a case stands for: c->rule, else the
 * id that starts c->message as "PC-XXX-NNN: ..." (the suite's failure
 * form) when it is in the rule table, else NULL. *rule (may be NULL) gets
 * the table entry, or NULL for an id the table lacks. */
const char *pc__report_case_rule(const struct pc_case *c,
				 const struct pc_rule **rule);

/* pc__report_escape - write the C string `s` (NULL writes nothing) to
 * `out`, lossily decoded as UTF-8, each scalar through `esc`. */
void pc__report_escape(FILE *out, const char *s, pc__report_esc_fn esc);

/* pc__report_ms - `t` seconds as whole milliseconds; negative, NaN and
 * absurd (> 10^12 s) values give 0. */
long long pc__report_ms(double t);
/* pc__report_put_seconds - write `t` as "S.mmm", whatever the locale. */
void pc__report_put_seconds(FILE *out, double t);

/* The renderers: write `r` to `out`; write errors are left in ferror().
 * pc__report_json returns PC_EFBIG, writing nothing, when the text would
 * pass 1 GiB, else 0. */
int pc__report_json(const struct pc_report *r, FILE *out);
void pc__report_junit(const struct pc_report *r, FILE *out);
void pc__report_tap(const struct pc_report *r, FILE *out);
void pc__report_human(const struct pc_report *r, FILE *out, bool color);

#endif
