/* pc_manifest_oauth.c - the host's load_oauth_entry (spec §2.7, R8.9). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_manifest_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

int pc__load_oauth(struct pc_plugin *p, const struct pc_manifest_env *env,
		   struct pc_buf *e);

/* token_path must be exactly one Normal component. */
static bool one_filename(const char *s)
{
	struct pc_strvec c = PC_STRVEC_INIT;
	bool ok;

	pc__path_components(s, &c);
	ok = c.nr == 1 && strcmp(c.v[0], "/") && strcmp(c.v[0], ".") &&
	     strcmp(c.v[0], "..");
	pc_strvec_release(&c);
	return ok;
}

static bool env_name_ok(const char *name)
{
	static const char *const secret[] = { "KEY", "TOKEN", "SECRET",
					      "PASSWORD", "CREDENTIAL" };
	char *upper;
	bool ok = *name && !isdigit((unsigned char)name[0]);

	for (const char *s = name; *s && ok; s++)
		ok = isalnum((unsigned char)*s) || *s == '_';
	if (!ok)
		return false;
	upper = pc_xstrdup(name);
	for (char *s = upper; *s; s++)
		*s = (char)toupper((unsigned char)*s);
	for (size_t i = 0; i < 5 && ok; i++)
		ok = !strstr(upper, secret[i]);
	free(upper);
	return ok;
}

/* config::home_dir: HOME (the caller's env->home, which already fell back
 * to USERPROFILE) when set and not empty; NULL otherwise. */
static const char *home_dir(const struct pc_manifest_env *env)
{
	return env->home && *env->home ? env->home : NULL;
}

/* resolve_oauth_detect_path (R8.9). */
static int detect_path(const char *raw_in, const struct pc_manifest_env *env,
		       char **out, struct pc_buf *e)
{
	size_t start, n = pc_rust_trim(raw_in, strlen(raw_in), &start);
	char *raw = pc_xmemdup(raw_in + start, n);
	int rc = 0;

	if (!n) {
		rc = pc__mfail(e,
				"oauth detect_path must not be empty");
	} else if (!strcmp(raw, "$CODEX_HOME/auth.json") ||
		   !strcmp(raw, "~/.codex/auth.json")) {
		char *d = env->codex_home ? pc_xstrdup(env->codex_home)
			  : home_dir(env) ? pc__path_join(home_dir(env), ".codex")
					  : NULL;

		if (d)
			*out = pc__path_join(d, "auth.json");
		free(d);
		if (!d)
			rc = pc__mfail(e,
					"oauth detect_path needs HOME or CODEX_HOME to be set");
	} else if (raw[0] == '/') {
		rc = pc__mfail(e,
				"oauth detect_path '%s' must be relative, $CODEX_HOME/auth.json, or ~/.codex/auth.json",
				raw);
	} else if (pc__path_has_parent(raw)) {
		rc = pc__mfail(e,
				"oauth detect_path '%s' may not contain '..'",
				raw);
	} else if (!home_dir(env)) {
		rc = pc__mfail(e,
				"oauth detect_path needs HOME to be set");
	} else {
		*out = pc__path_join(home_dir(env), raw);
	}
	free(raw);
	return rc;
}

static int scripts(struct pc_plugin *p, const cJSON *o,
		   struct pc_oauth_cfg *c, struct pc_buf *e)
{
	static const char *const keys[] = { "script", "login_script",
					    "complete_script", "token_script" };
	char **dst[] = { &c->script, &c->login_script, &c->complete_script,
			 &c->token_script };

	for (size_t i = 0; i < 4; i++) {
		const char *rel = pc__jstr(o, keys[i]);
		int rc;

		if (!rel)
			continue;
		pc__manifest_at(p, "oauth", keys[i], NULL);
		rc = pc__validate_script(p->source_path, rel, "script", dst[i],
					 e);
		if (rc)
			return rc;
	}
	pc__manifest_at(p, "oauth", NULL);
	if (!c->token_script && !c->script)
		return pc__mfail(e,
				  "oauth provider '%s' has no token script: set 'script' (handles all actions) or 'token_script'",
				  c->provider_id);
	return 0;
}

static int fields(struct pc_plugin *p, const cJSON *o,
		  const struct pc_manifest_env *env, struct pc_oauth_cfg *c,
		  struct pc_buf *e)
{
	const char *id = c->provider_id, *kind = pc__jstr(o, "kind");
	const cJSON *ev;
	char *token_name, *dir;
	size_t i = 0;
	int rc;

	pc__manifest_at(p, "oauth", "provider_id", NULL);
	if (!*id)
		return pc__mfail(e, "oauth provider_id is empty");
	pc__manifest_at(p, "oauth", "base_url", NULL);
	if (!*pc__jstr(o, "base_url"))
		return pc__mfail(e,
				  "oauth provider '%s' has an empty base_url", id);
	pc__manifest_at(p, "oauth", "kind", NULL);
	if (kind && strcmp(kind, "openai") && strcmp(kind, "anthropic"))
		return pc__mfail(e,
				  "oauth provider '%s' has invalid kind '%s' (use 'openai' or 'anthropic')",
				  id, kind);
	c->kind = pc_xstrdup(kind ? kind : "openai");
	token_name = pc__jstr(o, "token_path") ? pc_xstrdup(pc__jstr(o, "token_path"))
					   : pc_xasprintf("%s.json", id);
	/* the default is made of provider_id */
	pc__manifest_at(p, "oauth",
			pc__jstr(o, "token_path") ? "token_path" : "provider_id",
			NULL);
	if (!one_filename(token_name)) {
		free(token_name);
		return pc__mfail(e,
				  "oauth provider '%s' token_path must be one relative filename",
				  id);
	}
	dir = pc__path_join(home_dir(env) ? home_dir(env) : "",
			    ".config/catalyst-code/oauth");
	c->token_path = pc__path_join(dir, token_name);
	free(dir);
	free(token_name);
	if ((rc = scripts(p, o, c, e)))
		return rc;
	cJSON_ArrayForEach(ev, pc_serde_get(o, "env_passthrough"))
	{
		char ix[24];

		pc__manifest_at(p, "oauth", "env_passthrough",
				pc__manifest_elem(ix, i++), NULL);
		if (!env_name_ok(ev->valuestring))
			return pc__mfail(e,
					  "oauth provider '%s' env_passthrough entry '%s' is invalid or secret-looking (KEY/TOKEN/SECRET/PASSWORD/CREDENTIAL names are not allowed)",
					  id, ev->valuestring);
		pc_strvec_push(&c->env_passthrough, ev->valuestring);
	}
	pc__manifest_at(p, "oauth", "detect_path", NULL);
	if (pc__jstr(o, "detect_path"))
		return detect_path(pc__jstr(o, "detect_path"), env, &c->detect_path,
				   e);
	return 0;
}

int pc__load_oauth(struct pc_plugin *p, const struct pc_manifest_env *env,
		   struct pc_buf *e)
{
	const cJSON *o = pc_serde_get(p->manifest, "oauth");
	const cJSON *h = pc_serde_get(o, "headers");
	struct pc_oauth_cfg *c;

	if (!o)
		return 0;
	c = pc_xcalloc(1, sizeof(*c));
	pc_strvec_init(&c->env_passthrough);
	p->oauth = c;
	c->provider_id = pc_xstrdup(pc__jstr(o, "provider_id"));
	c->base_url = pc_xstrdup(pc__jstr(o, "base_url"));
	c->label = pc_xstrdup(pc__jstr(o, "label") ? pc__jstr(o, "label")
					       : c->provider_id);
	c->description = pc_xstrdup(pc__jstr(o, "description") ? pc__jstr(o, "description")
							   : "");
	c->headers = h ? cJSON_Duplicate(h, 1) : cJSON_CreateArray();
	c->login_timeout_ms = pc__ju64(o, "login_timeout_ms", 120000);
	c->token_timeout_ms = pc__ju64(o, "token_timeout_ms", 30000);
	return fields(p, o, env, c, e);
}
