/* pc_report_sarif.c - `--format sarif`: the report as one SARIF 2.1.0 run
 * for code scanning (GitHub's upload-sarif, any SARIF viewer), documented
 * in docs/sarif.md:
 *
 *   - tool.driver: plugcheck, its version, and one reportingDescriptor
 *     per rule that has a result (id; name; shortDescription = the
 *     title; fullDescription = what the host does; help in text and
 *     Markdown = the `plugcheck explain` page; helpUri = docs/rules/ID.md;
 *     defaultConfiguration.level = the severity);
 *   - one result per finding, suppressed ones too (with a SARIF
 *     suppression of kind "external": --ignore or .plugcheck.yaml), in
 *     the order found: ruleId, ruleIndex, level, message, the location
 *     (the file as the report names it, its line and column when known)
 *     and partialFingerprints "plugcheck/v1", a hash of the rule, the
 *     plugin's name, the file relative to the plugin, the entry point and
 *     the finding's ordinal among those with the same four - no paths of
 *     temporary directories, no times, no line numbers (which move when a
 *     line is added above), so a finding keeps its identity across runs;
 *   - invocations[0].executionSuccessful: false when the report is
 *     incomplete, with a notification saying why.
 *
 * A finding that names no file is placed at the plugin path as given,
 * one without a line at line 1 (code scanning shows only results with a
 * file and a region); the JSON form keeps such lines null. Columns count bytes, as
 * every other form's do; for ASCII lines that is SARIF's default
 * (utf16CodeUnits).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_err.h"
#include "pc_report.h"
#include "pc_report_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

#define SARIF_SCHEMA	"https://json.schemastore.org/sarif-2.1.0.json"
#define MAX_DESCRIPTION 1024 /* GitHub's limit on the descriptions */

static cJSON *text(const char *s)
{
	return pc__report_text(s);
}

/* {"text": s} */
static cJSON *message(const char *s)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "text", text(s));
	return o;
}

static const char *level(enum pc_severity s)
{
	return s == PC_SEV_ERROR     ? "error"
	       : s == PC_SEV_WARNING ? "warning"
				     : "note";
}

/* "PascalCase" of the rule's title, for reportingDescriptor.name. */
static char *pascal(const char *title)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	bool up = true;

	for (const char *p = title; *p; p++) {
		char c = *p;
		bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     (c >= '0' && c <= '9');

		if (!alnum) {
			up = true;
			continue;
		}
		if (up && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		pc_buf_add(&b, &c, 1);
		up = false;
	}
	return pc_buf_detach(&b, NULL);
}

/* At most MAX_DESCRIPTION bytes of `s`, cut at a space and marked with
 * "...". */
static cJSON *description(const char *s)
{
	size_t n = strlen(s);
	char *cut;
	cJSON *v;

	if (n <= MAX_DESCRIPTION)
		return message(s);
	n = MAX_DESCRIPTION - 3;
	while (n && s[n] != ' ')
		n--;
	cut = pc_xasprintf("%.*s...", (int)n, s);
	v = message(cut);
	free(cut);
	return v;
}

static cJSON *descriptor(const struct pc_rule *rule)
{
	const struct pc_rule_doc *d = pc_rule_doc_find(rule->id);
	cJSON *o = cJSON_CreateObject(), *cfg = cJSON_CreateObject();
	cJSON *help = cJSON_CreateObject(), *props = cJSON_CreateObject();
	cJSON *tags = cJSON_CreateArray();
	char *name = pascal(rule->title), *s, *kind;
	const char *dash = strrchr(rule->id, '-');

	cJSON_AddStringToObject(o, "id", rule->id);
	cJSON_AddItemToObject(o, "name", text(name));
	free(name);
	cJSON_AddItemToObject(o, "shortDescription", message(rule->title));
	cJSON_AddItemToObject(o, "fullDescription",
			      description(d ? d->host : rule->title));
	cJSON_AddStringToObject(cfg, "level", level(rule->severity));
	cJSON_AddItemToObject(o, "defaultConfiguration", cfg);
	s = pc_rule_explained(rule, PC_EXPLAIN_TEXT);
	cJSON_AddItemToObject(help, "text", text(s));
	free(s);
	s = pc_rule_explained(rule, PC_EXPLAIN_MARKDOWN);
	cJSON_AddItemToObject(help, "markdown", text(s));
	free(s);
	cJSON_AddItemToObject(o, "help", help);
	s = pc_rule_doc_url(rule->id);
	cJSON_AddItemToObject(o, "helpUri", text(s));
	free(s);
	cJSON_AddItemToArray(tags, cJSON_CreateString("plugcheck"));
	kind = pc_xasprintf("%.*s", (int)(dash ? dash - rule->id : 0),
			    rule->id);
	cJSON_AddItemToArray(tags, cJSON_CreateString(kind));
	free(kind);
	cJSON_AddItemToObject(props, "tags", tags);
	cJSON_AddStringToObject(props, "precision", "very-high");
	cJSON_AddStringToObject(props, "problem.severity",
				rule->severity == PC_SEV_NOTE
					? "recommendation"
					: level(rule->severity));
	if (*rule->spec)
		cJSON_AddStringToObject(props, "contract-rule", rule->spec);
	cJSON_AddItemToObject(o, "properties", props);
	return o;
}

/* `path` as a URI reference (RFC 3986): a relative path stays relative,
 * an absolute one becomes file:///...; every byte outside the unreserved
 * set and '/' is percent-encoded. */
static char *uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	if (path[0] == '/')
		pc_buf_adds(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		unsigned char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c)) {
			pc_buf_add(&b, (const char *)p, 1);
		} else {
			char e[3] = { '%', hex[c >> 4], hex[c & 15] };

			pc_buf_add(&b, e, 3);
		}
	}
	return pc_buf_detach(&b, NULL);
}

static cJSON *location(const struct pc_report *r, const struct pc_finding *f)
{
	char *path = pc_report_finding_path(r, f), *u;
	cJSON *loc = cJSON_CreateObject(), *phys = cJSON_CreateObject();
	cJSON *art = cJSON_CreateObject(), *reg = cJSON_CreateObject();

	if (!path)
		path = pc_xstrdup(r->path && *r->path ? r->path : ".");
	u = uri(path);
	cJSON_AddStringToObject(art, "uri", u);
	free(u);
	free(path);
	cJSON_AddItemToObject(phys, "artifactLocation", art);
	/* code scanning needs a region: a finding about a whole file (no
	 * line) is placed at its first line */
	cJSON_AddNumberToObject(reg, "startLine", f->line ? f->line : 1);
	if (f->line && f->column)
		cJSON_AddNumberToObject(reg, "startColumn", f->column);
	cJSON_AddNumberToObject(reg, "endLine", f->line ? f->line : 1);
	cJSON_AddItemToObject(phys, "region", reg);
	cJSON_AddItemToObject(loc, "physicalLocation", phys);
	return loc;
}

/* FNV-1a, 64 bits, over `s` and its terminating NUL. */
static uint64_t fnv(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 1099511628211u;
	} while (*s++);
	return h;
}

/* The identity of a finding, without its ordinal. */
static uint64_t identity(const struct pc_report *r, const struct pc_finding *f)
{
	uint64_t h = 14695981039346656037u;

	h = fnv(h, f->rule->id);
	h = fnv(h, r->name ? r->name : "");
	h = fnv(h, f->file ? f->file : "");
	return fnv(h, f->where ? f->where : "");
}

struct keyed {
	uint64_t id;
	size_t index;
	unsigned ordinal;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_index(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	return a->index < b->index ? -1 : a->index > b->index;
}

/* Each finding's fingerprint text, in `v`'s order (caller frees each and
 * the array): 16 hex digits of its identity and ordinal. */
static char **fingerprints(const struct pc_report *r,
			   const struct pc_finding **v, size_t n)
{
	struct keyed *k = pc_xcalloc(n + 1, sizeof(*k));
	char **out = pc_xcalloc(n + 1, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		k[i] = (struct keyed){ identity(r, v[i]), i, 0 };
	qsort(k, n, sizeof(*k), cmp_keyed);
	for (size_t i = 1; i < n; i++)
		if (k[i].id == k[i - 1].id)
			k[i].ordinal = k[i - 1].ordinal + 1;
	qsort(k, n, sizeof(*k), cmp_index);
	for (size_t i = 0; i < n; i++) {
		char ord[16];
		uint64_t h;

		snprintf(ord, sizeof(ord), "%u", k[i].ordinal);
		h = fnv(k[i].id, ord);
		out[i] = pc_xasprintf("%016llx", (unsigned long long)h);
	}
	free(k);
	return out;
}

static cJSON *result(const struct pc_report *r, const struct pc_finding *f,
		     size_t rule_index, const char *fingerprint)
{
	cJSON *o = cJSON_CreateObject(), *locs = cJSON_CreateArray();
	cJSON *fp = cJSON_CreateObject();
	struct pc_buf m = PC_BUF_INIT(PC_BUF_NOCAP);

	cJSON_AddStringToObject(o, "ruleId", f->rule->id);
	cJSON_AddItemToObject(o, "ruleIndex", pc_serde_number_u64(rule_index));
	cJSON_AddStringToObject(o, "level", level(f->rule->severity));
	if (f->where && *f->where)
		pc_buf_addf(&m, "%s: ", f->where);
	pc_buf_adds(&m, f->message ? f->message : "");
	if (f->fix) /* a fix of its own (a load error's) */
		pc_buf_addf(&m, "\nfix: %s", f->fix);
	cJSON_AddItemToObject(o, "message", message(pc_buf_cstr(&m)));
	pc_buf_release(&m);
	cJSON_AddItemToArray(locs, location(r, f));
	cJSON_AddItemToObject(o, "locations", locs);
	cJSON_AddStringToObject(fp, "plugcheck/v1", fingerprint);
	cJSON_AddItemToObject(o, "partialFingerprints", fp);
	if (f->suppressed) {
		cJSON *sups = cJSON_CreateArray(), *s = cJSON_CreateObject();

		cJSON_AddStringToObject(s, "kind", "external");
		cJSON_AddStringToObject(s, "status", "accepted");
		cJSON_AddStringToObject(
			s, "justification",
			"suppressed by --ignore or .plugcheck.yaml");
		cJSON_AddItemToArray(sups, s);
		cJSON_AddItemToObject(o, "suppressions", sups);
	}
	return o;
}

/* The rules that have a result, in id order: index i of pc_rules is
 * slot[i] + 1 in the descriptor list (0: not listed). */
static cJSON *rules(const struct pc_finding **v, size_t n, size_t *slot)
{
	cJSON *a = cJSON_CreateArray();
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		slot[v[i]->rule - pc_rules] = 1;
	for (size_t i = 0; i < pc_nrules; i++) {
		if (!slot[i])
			continue;
		slot[i] = ++k;
		cJSON_AddItemToArray(a, descriptor(&pc_rules[i]));
	}
	return a;
}

static cJSON *invocation(const struct pc_report *r)
{
	cJSON *inv = cJSON_CreateArray(), *o = cJSON_CreateObject();

	cJSON_AddBoolToObject(o, "executionSuccessful", !r->incomplete);
	if (r->incomplete) {
		cJSON *ns = cJSON_CreateArray(), *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "level", "error");
		cJSON_AddItemToObject(
			x, "message",
			message(r->counts.internal
					? "plugcheck lost part of the run (see the plugcheck.internal cases); the results are incomplete"
					: "the run was interrupted; the results are incomplete"));
		cJSON_AddItemToArray(ns, x);
		cJSON_AddItemToObject(o, "toolExecutionNotifications", ns);
	}
	cJSON_AddItemToArray(inv, o);
	return inv;
}

static cJSON *build(const struct pc_report *r)
{
	cJSON *log = cJSON_CreateObject(), *runs = cJSON_CreateArray();
	cJSON *run = cJSON_CreateObject(), *tool = cJSON_CreateObject();
	cJSON *driver = cJSON_CreateObject(), *results = cJSON_CreateArray();
	size_t n, *slot = pc_xcalloc(pc_nrules + 1, sizeof(*slot));
	const struct pc_finding **v = pc_report_findings(r, &n);
	char **fps = fingerprints(r, v, n);

	cJSON_AddStringToObject(log, "$schema", SARIF_SCHEMA);
	cJSON_AddStringToObject(log, "version", "2.1.0");
	cJSON_AddStringToObject(driver, "name", "plugcheck");
	cJSON_AddStringToObject(driver, "version", PC_VERSION);
	cJSON_AddStringToObject(driver, "semanticVersion", PC_VERSION);
	cJSON_AddStringToObject(driver, "informationUri", PC_REPO_URL);
	cJSON_AddItemToObject(driver, "rules", rules(v, n, slot));
	cJSON_AddItemToObject(tool, "driver", driver);
	cJSON_AddItemToObject(run, "tool", tool);
	cJSON_AddItemToObject(run, "invocations", invocation(r));
	for (size_t i = 0; i < n; i++) {
		cJSON_AddItemToArray(results,
				     result(r, v[i],
					    slot[v[i]->rule - pc_rules] - 1,
					    fps[i]));
		free(fps[i]);
	}
	cJSON_AddItemToObject(run, "results", results);
	cJSON_AddItemToArray(runs, run);
	cJSON_AddItemToObject(log, "runs", runs);
	free(fps);
	free(v);
	free(slot);
	return log;
}

int pc__report_sarif(const struct pc_report *r, FILE *out)
{
	return pc__report_print_json(build(r), out);
}
