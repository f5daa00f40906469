/* pc_config.c - .plugcheck.yaml through libyaml's event parser. */
#include "pc_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "pc_finding.h"
#include "pc_xalloc.h"

struct reader {
	yaml_parser_t p;
	yaml_event_t ev;
	const char *path;
	struct pc_err *err;
};

static int fail(struct reader *r, const char *what)
{
	return pc_err_set(r->err, PC_EPARSE, "%s:%zu:%zu: %s", r->path,
			  r->ev.start_mark.line + 1, r->ev.start_mark.column + 1,
			  what);
}

static int next(struct reader *r)
{
	yaml_event_delete(&r->ev);
	if (!yaml_parser_parse(&r->p, &r->ev))
		return pc_err_set(r->err, PC_EPARSE, "%s:%zu:%zu: %s", r->path,
				  r->p.problem_mark.line + 1,
				  r->p.problem_mark.column + 1,
				  r->p.problem ? r->p.problem : "invalid YAML");
	if (r->ev.type == YAML_ALIAS_EVENT)
		return fail(r, "aliases are not allowed here");
	return 0;
}

static const char *scalar(struct reader *r)
{
	return (const char *)r->ev.data.scalar.value;
}

static int read_ignore(struct reader *r, struct pc_config *c)
{
	int rc;

	if ((rc = next(r)))
		return rc;
	if (r->ev.type != YAML_SEQUENCE_START_EVENT)
		return fail(r, "'ignore' must be a list of rule ids");
	for (;;) {
		if ((rc = next(r)))
			return rc;
		if (r->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (r->ev.type != YAML_SCALAR_EVENT)
			return fail(r, "'ignore' entries must be rule ids such as PC-MAN-002");
		if (!pc_rule_find(scalar(r)))
			return fail(r, "unknown rule id (see `plugcheck rules`)");
		pc_strvec_push(&c->ignore, scalar(r));
	}
}

/* A list of non-empty strings into `out`. */
static int read_strings(struct reader *r, const char *what,
			struct pc_strvec *out)
{
	char *msg;
	int rc;

	if ((rc = next(r)))
		return rc;
	if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
		msg = pc_xasprintf("'%s' must be a list of strings", what);
		rc = fail(r, msg);
		free(msg);
		return rc;
	}
	for (;;) {
		if ((rc = next(r)))
			return rc;
		if (r->ev.type == YAML_SEQUENCE_END_EVENT)
			return 0;
		if (r->ev.type != YAML_SCALAR_EVENT || !*scalar(r)) {
			msg = pc_xasprintf("'%s' entries must be non-empty strings", what);
			rc = fail(r, msg);
			free(msg);
			return rc;
		}
		pc_strvec_push(out, scalar(r));
	}
}

/* guard_seeds: { commands: [...], paths: [...] } */
static int read_seeds(struct reader *r, struct pc_config *c)
{
	bool seen[2] = { false, false };
	int rc;

	if ((rc = next(r)))
		return rc;
	if (r->ev.type != YAML_MAPPING_START_EVENT)
		return fail(r, "'guard_seeds' must be a mapping with 'commands' and/or 'paths'");
	for (;;) {
		int k;

		if ((rc = next(r)))
			return rc;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		k = r->ev.type != YAML_SCALAR_EVENT		? -1
		    : !strcmp(scalar(r), "commands")		? 0
		    : !strcmp(scalar(r), "paths")		? 1
								: -1;
		if (k < 0)
			return fail(r, "unknown key in 'guard_seeds' (expected 'commands' or 'paths')");
		if (seen[k])
			return fail(r, "given twice in 'guard_seeds' (merge the lists into one)");
		seen[k] = true;
		if ((rc = read_strings(r, k ? "guard_seeds.paths" : "guard_seeds.commands",
				       k ? &c->guard_paths : &c->guard_commands)))
			return rc;
	}
}

static int read_map(struct reader *r, struct pc_config *c)
{
	bool seen_ignore = false, seen_strict = false, seen_seeds = false;
	int rc;

	for (;;) {
		if ((rc = next(r)))
			return rc;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			return 0;
		if (r->ev.type != YAML_SCALAR_EVENT)
			return fail(r, "expected a key ('ignore', 'strict' or 'guard_seeds')");
		if (!strcmp(scalar(r), "ignore")) {
			if (seen_ignore)
				return fail(r, "'ignore' given twice (merge the lists into one)");
			seen_ignore = true;
			rc = read_ignore(r, c);
		} else if (!strcmp(scalar(r), "strict")) {
			if (seen_strict)
				return fail(r, "'strict' given twice (keep one)");
			seen_strict = true;
			if ((rc = next(r)))
				return rc;
			/* a quoted "true" is a string in YAML, not a boolean */
			if (r->ev.type != YAML_SCALAR_EVENT ||
			    r->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
			    (strcmp(scalar(r), "true") && strcmp(scalar(r), "false")))
				return fail(r, "'strict' must be true or false (unquoted)");
			c->strict = !strcmp(scalar(r), "true");
		} else if (!strcmp(scalar(r), "guard_seeds")) {
			if (seen_seeds)
				return fail(r, "'guard_seeds' given twice (merge them into one)");
			seen_seeds = true;
			rc = read_seeds(r, c);
		} else {
			return fail(r, "unknown key (expected 'ignore', 'strict' or 'guard_seeds')");
		}
		if (rc)
			return rc;
	}
}

static int parse(struct reader *r, struct pc_config *c)
{
	int rc;

	do {
		if ((rc = next(r)))
			return rc;
	} while (r->ev.type == YAML_STREAM_START_EVENT ||
		 r->ev.type == YAML_DOCUMENT_START_EVENT);
	if (r->ev.type == YAML_STREAM_END_EVENT ||
	    r->ev.type == YAML_DOCUMENT_END_EVENT)
		return 0;
	if (r->ev.type == YAML_SCALAR_EVENT && !*scalar(r))
		return 0;
	if (r->ev.type != YAML_MAPPING_START_EVENT)
		return fail(r, "expected a mapping with 'ignore', 'strict' and/or 'guard_seeds'");
	return read_map(r, c);
}

int pc_config_load(const char *path, struct pc_config *c, struct pc_err *err)
{
	struct reader r = { .path = path, .err = err };
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return pc_err_set_errno(err, PC_EIO, errno, "cannot open '%s'",
					path);
	}
	c->present = true;
	yaml_parser_initialize(&r.p);
	yaml_parser_set_input_file(&r.p, f);
	memset(&r.ev, 0, sizeof(r.ev));
	rc = parse(&r, c);
	yaml_event_delete(&r.ev);
	yaml_parser_delete(&r.p);
	fclose(f);
	return rc;
}

void pc_config_release(struct pc_config *c)
{
	pc_strvec_release(&c->ignore);
	pc_strvec_release(&c->guard_commands);
	pc_strvec_release(&c->guard_paths);
}
