/* cli_args.c - the one option parser of the CLI, and --help generated
 * from the command table (pc_cmd.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_cli_scaffold.h"
#include "pc_cmd.h"
#include "pc_contract.h"
#include "pc_exit.h"
#include "pc_xalloc.h"

int pc_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "plugcheck %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nRun `plugcheck %s --help` for usage.\n", cmd);
	return PC_EXIT_USAGE;
}

int pc_cli_scaffold_usage(const char *cmd, char *msg)
{
	int rc = pc_cli_usage_error(cmd, "%s", msg);

	free(msg);
	return rc;
}

static const struct pc_opt *find_long(const struct pc_cmd *c, const char *name,
				      size_t n)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (strlen(c->opts[i].name) == n &&
		    !strncmp(c->opts[i].name, name, n))
			return &c->opts[i];
	return NULL;
}

static const struct pc_opt *find_short(const struct pc_cmd *c, char ch)
{
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].short_name == ch)
			return &c->opts[i];
	return NULL;
}

/* "human, json, junit or tap" out of "human|json|junit|tap" (a new
 * string). */
static char *spelled(const char *values)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t n = 1;

	for (const char *p = values; *p; p++)
		n += *p == '|';
	for (size_t i = 0; *values; i++) {
		size_t k = strcspn(values, "|");

		if (i)
			pc_buf_adds(&b, i + 1 == n ? " or " : ", ");
		pc_buf_add(&b, values, k);
		values += k + (values[k] == '|');
	}
	return pc_buf_detach(&b, NULL);
}

static bool in_values(const char *values, const char *v)
{
	size_t n = strlen(v);

	while (*values) {
		size_t k = strcspn(values, "|");

		if (k == n && !strncmp(values, v, n))
			return true;
		values += k + (values[k] == '|');
	}
	return false;
}

static bool whole_number(const char *v, long min, long max)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	return *v && *v != '+' && *v != ' ' && !*end && !errno && n >= min &&
	       n <= max;
}

static int bad_value(const struct pc_cmd *c, const struct pc_opt *o,
		     const char *v)
{
	char *expect, *msg;
	int rc;

	if (o->expect)
		expect = pc_xstrdup(o->expect);
	else if (o->values)
		expect = spelled(o->values);
	else
		expect = pc_xasprintf("a whole number %ld..%ld", o->min, o->max);
	msg = pc_xasprintf("--%s: invalid value '%s' (expected %s)", o->name, v,
			   expect);
	rc = pc_cli_usage_error(c->name, "%s", msg);
	free(msg);
	free(expect);
	return rc;
}

static int check_value(const struct pc_cmd *c, const struct pc_opt *o,
		       const char *v)
{
	if (o->values && !in_values(o->values, v))
		return bad_value(c, o, v);
	if (o->min < o->max && !whole_number(v, o->min, o->max))
		return bad_value(c, o, v);
	if (o->valid && !o->valid(v))
		return bad_value(c, o, v);
	return 0;
}

static size_t count(const struct pc_args *a, const struct pc_opt *o)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nuses; i++)
		n += a->uses[i].opt == o;
	return n;
}

/* Options that take no value: flags, and ORDER options without a
 * metavar (turn's --reload, new's --readonly). */
static bool is_flag(const struct pc_opt *o)
{
	return o->kind == PC_OPT_FLAG || (o->kind == PC_OPT_ORDER && !o->metavar);
}

static int use(const struct pc_cmd *c, struct pc_args *a,
	       const struct pc_opt *o, const char *v)
{
	int rc;

	if (v && (rc = check_value(c, o, v)))
		return rc;
	if ((o->kind == PC_OPT_VALUE || o->kind == PC_OPT_FLAG) && count(a, o))
		return pc_cli_usage_error(c->name, "--%s given twice (keep one)",
					  o->name);
	a->uses = pc_xreallocarray(a->uses, a->nuses + 1, sizeof(*a->uses));
	a->uses[a->nuses++] = (struct pc_opt_use){ o, v };
	return 0;
}

/* One word starting with '-': a long option (with =VALUE or the next
 * word), or short options ("-h", "-j4", "-j 4"). *i steps past what it
 * used. */
static int option(const struct pc_cmd *c, struct pc_args *a, int argc,
		  char **argv, int *i)
{
	const char *w = argv[*i], *eq;
	const struct pc_opt *o;

	if (w[1] == '-') {
		eq = strchr(w + 2, '=');
		if (!strcmp(w, "--help")) {
			a->help = true;
			return 0;
		}
		o = find_long(c, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2));
		if (!o)
			return pc_cli_usage_error(c->name, "unknown option '%.*s'",
						  eq ? (int)(eq - w) : (int)strlen(w),
						  w);
		if (is_flag(o))
			return eq ? pc_cli_usage_error(c->name,
						       "--%s takes no value",
						       o->name)
				  : use(c, a, o, NULL);
		if (eq)
			return use(c, a, o, eq + 1);
		if (*i + 1 >= argc)
			return pc_cli_usage_error(c->name, "--%s needs a value (%s)",
						  o->name, o->metavar);
		return use(c, a, o, argv[++*i]);
	}
	for (const char *p = w + 1; *p; p++) {
		if (*p == 'h') {
			a->help = true;
			continue;
		}
		if (!(o = find_short(c, *p)))
			return pc_cli_usage_error(c->name, "unknown option '-%c'",
						  *p);
		if (is_flag(o)) {
			int rc = use(c, a, o, NULL);

			if (rc)
				return rc;
			continue;
		}
		if (p[1])
			return use(c, a, o, p + 1);
		if (*i + 1 >= argc)
			return pc_cli_usage_error(c->name, "-%c needs a value (%s)",
						  *p, o->metavar);
		return use(c, a, o, argv[++*i]);
	}
	return 0;
}

static int conflicts(const struct pc_cmd *c, const struct pc_args *a)
{
	for (size_t i = 0; i < a->nuses; i++) {
		const struct pc_opt *o = a->uses[i].opt, *x;

		if (o->conflicts && (x = find_long(c, o->conflicts,
						   strlen(o->conflicts))) &&
		    count(a, x))
			return pc_cli_usage_error(c->name,
						  "--%s and --%s cannot go together (give one)",
						  o->name, x->name);
	}
	return 0;
}

static char *pos_names(const struct pc_cmd *c)
{
	const char *s = c->synopsis[0] ? c->synopsis[0] : "";
	size_t n = strcspn(s, "[");

	while (n && s[n - 1] == ' ')
		n--;
	return pc_xmemdup(s, n);
}

int pc_args_parse(const struct pc_cmd *c, int argc, char **argv,
		  struct pc_args *a)
{
	bool dashdash = false;
	int rc;

	a->cmd = c;
	a->pos = pc_xcalloc((size_t)argc + 1, sizeof(*a->pos));
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (!dashdash && !strcmp(w, "--")) {
			dashdash = true;
		} else if (!dashdash && w[0] == '-' && w[1]) {
			if ((rc = option(c, a, argc, argv, &i)))
				return rc;
		} else {
			a->pos[a->npos++] = argv[i];
		}
	}
	if (a->help)
		return 0;
	if (a->npos < c->min_pos || a->npos > c->max_pos) {
		char *names = pos_names(c);

		rc = a->npos < c->min_pos
			     ? pc_cli_usage_error(c->name, "missing arguments (usage: plugcheck %s%s%s)",
						  c->name, *names ? " " : "", names)
			     : pc_cli_usage_error(c->name, "unexpected argument '%s' (usage: plugcheck %s%s%s)",
						  a->pos[c->max_pos], c->name,
						  *names ? " " : "", names);
		free(names);
		return rc;
	}
	for (size_t i = 0; i < c->nopts; i++)
		if (c->opts[i].required && !count(a, &c->opts[i]))
			return pc_cli_usage_error(c->name, "missing --%s %s",
						  c->opts[i].name,
						  c->opts[i].metavar);
	return conflicts(c, a);
}

void pc_args_release(struct pc_args *a)
{
	free(a->pos);
	free(a->uses);
	*a = (struct pc_args)PC_ARGS_INIT;
}

static const struct pc_opt_use *last(const struct pc_args *a, const char *name)
{
	for (size_t i = a->nuses; i > 0; i--)
		if (!strcmp(a->uses[i - 1].opt->name, name))
			return &a->uses[i - 1];
	return NULL;
}

const char *pc_args_value(const struct pc_args *a, const char *name)
{
	const struct pc_opt_use *u = last(a, name);

	return u ? u->value : NULL;
}

bool pc_args_flag(const struct pc_args *a, const char *name)
{
	return last(a, name) != NULL;
}

void pc_args_list(const struct pc_args *a, const char *name,
		  struct pc_strvec *out)
{
	for (size_t i = 0; i < a->nuses; i++)
		if (!strcmp(a->uses[i].opt->name, name))
			pc_strvec_push(out, a->uses[i].value);
}

unsigned pc_args_uint(const struct pc_args *a, const char *name, unsigned def)
{
	const char *v = pc_args_value(a, name);

	return v ? (unsigned)strtoul(v, NULL, 10) : def;
}

/* ---- help ---- */

static void option_help(const struct pc_opt *o, const struct pc_contract *k,
			FILE *out)
{
	char left[64];
	const char *h = o->help ? o->help : "";

	if (o->short_name)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", o->short_name,
			 o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
	else
		snprintf(left, sizeof(left), "--%s%s%s", o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
	fprintf(out, "  %-20s", left);
	if (strlen(left) >= 20)
		fputs("\n                      ", out);
	for (const char *p = h; *p; p++) {
		fputc(*p, out);
		if (*p == '\n')
			fputs("                      ", out);
	}
	if (!k && o->contracts == PC_C_CATALYST)
		fputs(" (Catalyst Code)", out);
	else if (!k && o->contracts == PC_C_CHATCLI)
		fputs(" (ChatCLI)", out);
	fputc('\n', out);
}

void pc_cmd_help(const struct pc_cmd *c, const struct pc_contract *k,
		 FILE *out)
{
	int x = k && k->bit == PC_C_CHATCLI && c->synopsis[1] ? 1 : 0;

	fprintf(out, "usage: plugcheck %s %s\n", c->name, c->synopsis[x]);
	if (!k && c->synopsis[1])
		fprintf(out, "       plugcheck %s %s\n", c->name, c->synopsis[1]);
	if (c->description[x])
		fprintf(out, "\n%s", c->description[x]);
	if (!k && c->description[1] && x == 0)
		fprintf(out, "\n%s", c->description[1]);
	fputs("\nOptions:\n", out);
	for (size_t i = 0; i < c->nopts; i++)
		if (!k || !c->opts[i].contracts ||
		    (c->opts[i].contracts & k->bit))
			option_help(&c->opts[i], k, out);
	fputs("  -h, --help          show this help\n", out);
	if (c->exits)
		fprintf(out, "\n%s", c->exits);
}
