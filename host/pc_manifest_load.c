/* pc_manifest_load.c - load_plugin_from_dir in the host's order (R2.9). */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_fs.h"
#include "pc_manifest.h"
#include "pc_manifest_impl.h"
#include "pc_rust.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

static bool jbool(const cJSON *o, const char *k)
{
	return cJSON_IsTrue(pc_serde_get(o, k));
}

static char *dupor(const char *s, const char *def)
{
	return pc_xstrdup(s ? s : def);
}

/* Rust str::trim, as a new string. */
static char *trimmed(const char *s)
{
	size_t start, n = pc_rust_trim(s, strlen(s), &start);

	return pc_xmemdup(s + start, n);
}

static bool trims_nonempty(const char *s)
{
	size_t start;

	return s && pc_rust_trim(s, strlen(s), &start) > 0;
}

void pc__manifest_at(struct pc_plugin *p, const char *step, ...)
{
	va_list ap;

	pc_strvec_release(&p->at);
	va_start(ap, step);
	for (const char *s = step; s; s = va_arg(ap, const char *))
		pc_strvec_push(&p->at, s);
	va_end(ap);
}

const char *pc__manifest_elem(char buf[24], size_t n)
{
	snprintf(buf, 24, "#%zu", n);
	return buf;
}

static int check_name(const char *name, struct pc_buf *e)
{
	struct pc_buf q = PC_BUF_INIT(PC_BUF_NOCAP);

	if (!*name)
		return pc__mfail(e, "plugin name is empty");
	if (strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/') &&
	    !strchr(name, '\\'))
		return 0;
	pc_rust_debug_text(&q, name);
	pc__mfail(e,
		   "plugin name contains a path separator: %s", pc_buf_cstr(&q));
	pc_buf_release(&q);
	return PC_EMANIFEST;
}

static void add_unique(struct pc_strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return;
	pc_strvec_push(v, s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_vec(struct pc_strvec *v)
{
	if (v->nr > 1)
		qsort(v->v, v->nr, sizeof(*v->v), cmp_str);
}

/* R3.2: the required set, from the raw manifest. */
static void infer_required(const cJSON *m, struct pc_strvec *req)
{
	const cJSON *hooks = pc_serde_get(m, "hooks");
	const cJSON *tools = pc_serde_get(m, "tools");
	const cJSON *cmds = pc_serde_get(m, "commands");
	const cJSON *h, *t, *c;
	bool sub = cJSON_GetArraySize(hooks) > 0 ||
		   cJSON_GetArraySize(tools) > 0 ||
		   pc_serde_get(m, "oauth") ||
		   pc_serde_get(m, "memory_provider");

	cJSON_ArrayForEach(c, cmds) if (trims_nonempty(pc__jstr(c, "script")))
		sub = true;
	if (sub)
		add_unique(req, "execute_subprocess");
	cJSON_ArrayForEach(h, hooks)
	{
		const char *k = h->string;

		if (jbool(h, "pass_args"))
			add_unique(req, "receive_tool_arguments");
		if (!strcmp(k, "pre_input") || !strcmp(k, "pre_context") ||
		    !strcmp(k, "pre_turn") || !strcmp(k, "turn_start"))
			add_unique(req, "receive_prompts");
		if (!strcmp(k, "post_tool") || !strcmp(k, "turn_end") ||
		    !strcmp(k, "session_stop"))
			add_unique(req, "receive_model_responses");
	}
	if (cJSON_GetArraySize(tools) > 0) {
		add_unique(req, "register_tools");
		cJSON_ArrayForEach(t, tools)
		{
			const char *kind = pc__jstr(t, "kind");

			add_unique(req, kind && !strcmp(kind, "readonly")
						? "read_workspace"
						: "write_workspace");
		}
	}
	if (cJSON_GetArraySize(cmds) > 0)
		add_unique(req, "register_commands");
	if (pc_serde_get(m, "oauth")) {
		add_unique(req, "register_providers");
		add_unique(req, "access_network");
		add_unique(req, "access_secrets");
	}
	if (pc_serde_get(m, "memory_provider"))
		add_unique(req, "register_memory_backend");
	sort_vec(req);
}

static int join_error(struct pc_buf *e, const char *head,
		      const struct pc_strvec *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	for (size_t i = 0; i < v->nr; i++)
		pc_buf_addf(&b, "%s%s", i ? ", " : "", v->v[i]);
	pc__mfail(e, "%s%s", head, pc_buf_cstr(&b));
	pc_buf_release(&b);
	return PC_EMANIFEST;
}

/* validate_manifest_capabilities (R2.6, R3.3, R3.4). */
static int check_capabilities(struct pc_plugin *p, struct pc_buf *e)
{
	const cJSON *m = p->manifest, *decl = pc_serde_get(m, "capabilities");
	struct pc_strvec unknown = PC_STRVEC_INIT, missing = PC_STRVEC_INIT;
	const cJSON *c;
	int rc = 0;

	pc__manifest_at(p, "protocol_version", NULL);
	p->protocol_version = (uint32_t)pc__ju64(m, "protocol_version", 1);
	if (p->protocol_version > 1)
		return pc__mfail(e,
				  "plugin protocol version %u is newer than supported (1)",
				  p->protocol_version);
	infer_required(m, &p->required);
	if (!decl) {
		for (size_t i = 0; i < p->required.nr; i++)
			pc_strvec_push(&p->capabilities, p->required.v[i]);
		return 0;
	}
	p->capabilities_declared = true;
	/* The host collects unknowns from a HashSet: unspecified order. We
	 * sort them, so a single unknown is byte-identical. */
	cJSON_ArrayForEach(c, decl) if (!pc_is_capability(c->valuestring))
		add_unique(&unknown, c->valuestring);
	sort_vec(&unknown);
	if (unknown.nr) {
		char ix[24];
		size_t i = 0;

		/* the first unknown one, in the array's order */
		cJSON_ArrayForEach(c, decl)
		{
			if (!pc_is_capability(c->valuestring))
				break;
			i++;
		}
		pc__manifest_at(p, "capabilities", pc__manifest_elem(ix, i), NULL);
		rc = join_error(e, "plugin declares unknown capabilities: ",
				&unknown);
		goto out;
	}
	for (size_t i = 0; i < p->required.nr; i++) {
		bool have = false;

		cJSON_ArrayForEach(c, decl) if (!strcmp(c->valuestring,
							p->required.v[i]))
			have = true;
		if (!have)
			pc_strvec_push(&missing, p->required.v[i]);
	}
	if (missing.nr) {
		pc__manifest_at(p, "capabilities", NULL);
		rc = join_error(e,
				"plugin is denied because its manifest is missing required capabilities: ",
				&missing);
		goto out;
	}
	cJSON_ArrayForEach(c, decl) add_unique(&p->capabilities, c->valuestring);
	sort_vec(&p->capabilities);
out:
	pc_strvec_release(&unknown);
	pc_strvec_release(&missing);
	return rc;
}

/* Hooks, in the decoded map's order (the host's HashMap order is
 * unspecified, which only matters when several hooks are bad). */
static int load_hooks(struct pc_plugin *p, struct pc_buf *e)
{
	const cJSON *h;

	cJSON_ArrayForEach(h, pc_serde_get(p->manifest, "hooks"))
	{
		int point = pc_hook_point_parse(h->string);
		struct pc_hook_cfg *cfg;
		char *script;
		int rc;

		if (point < 0) {
			pc_strvec_pushf(&p->log,
					"[plugins] unknown hook point '%s' in plugin '%s'; skipping",
					h->string, p->name);
			continue;
		}
		pc__manifest_at(p, "hooks", h->string, "script", NULL);
		rc = pc__validate_script(p->source_path, pc__jstr(h, "script"),
					 "hook script", &script, e);
		if (rc)
			return rc;
		cfg = &p->hooks[point];
		free(cfg->script);
		free(cfg->script_rel);
		cfg->present = true;
		cfg->script = script;
		cfg->script_rel = pc_xstrdup(pc__jstr(h, "script"));
		cfg->timeout_declared = pc_serde_get(h, "timeout_ms") != NULL;
		cfg->timeout_ms = pc__ju64(h, "timeout_ms",
				       pc_hook_default_timeout_ms(point));
		cfg->pass_args = jbool(h, "pass_args");
	}
	return 0;
}

static int load_tools(struct pc_plugin *p, struct pc_buf *e)
{
	const cJSON *tools = pc_serde_get(p->manifest, "tools"), *t;
	size_t i = 0;

	p->tools = pc_xcalloc((size_t)cJSON_GetArraySize(tools) + 1,
			      sizeof(*p->tools));
	cJSON_ArrayForEach(t, tools)
	{
		struct pc_tool_cfg *tc = &p->tools[p->ntools];
		const char *name = pc__jstr(t, "name"), *kind = pc__jstr(t, "kind");
		const cJSON *params = pc_serde_get(t, "parameters");
		char ix[24];
		int rc;

		pc__manifest_elem(ix, i++);
		pc__manifest_at(p, "tools", ix, "name", NULL);
		if (!*name)
			return pc__mfail(e,
					  "plugin declares a tool with an empty name");
		pc__manifest_at(p, "tools", ix, "script", NULL);
		rc = pc__validate_script(p->source_path, pc__jstr(t, "script"),
					 "script", &tc->script, e);
		if (rc)
			return rc;
		p->ntools++;
		tc->name = pc_xstrdup(name);
		tc->script_rel = pc_xstrdup(pc__jstr(t, "script"));
		tc->description = dupor(pc__jstr(t, "description"), "");
		tc->timeout_ms = pc__ju64(t, "timeout_ms", PC_DEFAULT_POST_TIMEOUT_MS);
		pc__manifest_at(p, "tools", ix, "kind", NULL);
		if (!kind)
			kind = "destructive";
		if (strcmp(kind, "readonly") && strcmp(kind, "destructive"))
			return pc__mfail(e,
					  "tool '%s' has invalid kind '%s' (use 'readonly' or 'destructive')",
					  name, kind);
		tc->readonly = !strcmp(kind, "readonly");
		tc->override_builtin = jbool(t, "override");
		if (cJSON_IsObject(params)) {
			tc->parameters = cJSON_Duplicate(params, 1);
		} else {
			tc->parameters = cJSON_CreateObject();
			cJSON_AddStringToObject(tc->parameters, "type",
						"object");
			cJSON_AddItemToObject(tc->parameters, "properties",
					      cJSON_CreateObject());
			tc->parameters_replaced = params != NULL;
		}
	}
	return 0;
}

/* R2.7 steps 3-4: the mode matrix. Returns 1 Script, 2 AgentTurn, or an
 * error. */
static int command_mode(struct pc_plugin *p, const cJSON *c, const char *ix,
			const char *name, struct pc_buf *e)
{
	bool hs = trims_nonempty(pc__jstr(c, "script"));
	bool hp = trims_nonempty(pc__jstr(c, "prompt_file"));
	const char *mode = pc__jstr(c, "mode");

	pc__manifest_at(p, "commands", ix, NULL);
	if (hs && hp)
		return pc__mfail(e,
				  "command '%s' declares both `script` and `prompt_file`; use exactly one",
				  name);
	if (!hs && !hp)
		return pc__mfail(e,
				  "command '%s' declares neither `script` nor `prompt_file`; set one",
				  name);
	pc__manifest_at(p, "commands", ix, "mode", NULL);
	if (hs && mode && strcmp(mode, "script"))
		return pc__mfail(e,
				  "command '%s' has `script` but mode=\"%s\" (expected \"script\")",
				  name, mode);
	if (hp && mode && strcmp(mode, "agent_turn"))
		return pc__mfail(e,
				  "command '%s' has `prompt_file` but mode=\"%s\" (expected \"agent_turn\")",
				  name, mode);
	return hs ? 1 : 2;
}

static int load_command(struct pc_plugin *p, const cJSON *c, const char *ix,
			struct pc_buf *e)
{
	char *name = trimmed(pc__jstr(c, "name"));
	const char *n = name[0] == '/' ? name + 1 : name;
	struct pc_command_cfg *cc;
	int mode, rc;

	if (!*n) {
		free(name);
		return 0;
	}
	pc__manifest_at(p, "commands", ix, "name", NULL);
	if (pc_is_reserved_command(n)) {
		rc = pc__mfail(e,
				"command '%s' collides with a reserved builtin slash command",
				n);
		goto out;
	}
	mode = rc = command_mode(p, c, ix, n, e);
	if (rc < 0)
		goto out;
	cc = &p->commands[p->ncommands];
	pc__manifest_at(p, "commands", ix, mode == 1 ? "script" : "prompt_file", NULL);
	if (mode == 1)
		rc = pc__validate_script(p->source_path, pc__jstr(c, "script"),
					 "script", &cc->script, e);
	else
		rc = pc__validate_prompt_file(p->source_path,
					      pc__jstr(c, "prompt_file"),
					      &cc->prompt_file, e);
	if (rc)
		goto out;
	p->ncommands++;
	cc->name = pc_xstrdup(n);
	cc->description = dupor(pc__jstr(c, "description"), "");
	cc->agent_turn = mode == 2;
	cc->timeout_ms = pc__ju64(c, "timeout_ms", PC_DEFAULT_POST_TIMEOUT_MS);
out:
	free(name);
	return rc;
}

static int load_commands(struct pc_plugin *p, struct pc_buf *e)
{
	const cJSON *cmds = pc_serde_get(p->manifest, "commands"), *c;
	size_t i = 0;

	p->commands = pc_xcalloc((size_t)cJSON_GetArraySize(cmds) + 1,
				 sizeof(*p->commands));
	cJSON_ArrayForEach(c, cmds)
	{
		char ix[24];
		int rc = load_command(p, c, pc__manifest_elem(ix, i++), e);

		if (rc)
			return rc;
	}
	return 0;
}

static int load_memory(struct pc_plugin *p, struct pc_buf *e)
{
	const cJSON *m = pc_serde_get(p->manifest, "memory_provider");
	char *script;
	int rc;

	if (!m)
		return 0;
	pc__manifest_at(p, "memory_provider", "script", NULL);
	if (!trims_nonempty(pc__jstr(m, "script")))
		return pc__mfail(e,
				  "memory_provider.script is empty");
	rc = pc__validate_script(p->source_path, pc__jstr(m, "script"), "script",
				 &script, e);
	if (rc)
		return rc;
	p->memory = pc_xcalloc(1, sizeof(*p->memory));
	p->memory->script = script;
	p->memory->timeout_ms = pc__ju64(m, "timeout_ms", PC_DEFAULT_POST_TIMEOUT_MS);
	return 0;
}

int pc__load_oauth(struct pc_plugin *p, const struct pc_manifest_env *env,
		   struct pc_buf *e);

/* The host's checks after serde, in its order (R2.9 load order). With
 * !files, source_path stays NULL, which makes every script and prompt
 * file check lexical only (pc__validate_script). */
static int load_parsed(struct pc_plugin *p, const struct pc_manifest_env *env,
		       bool files, struct pc_buf *e)
{
	const cJSON *m = p->manifest, *d;
	int rc;

	p->name = pc_xstrdup(pc__jstr(m, "name"));
	p->version = pc_xstrdup(pc__jstr(m, "version"));
	p->description = dupor(pc__jstr(m, "description"), "");
	p->system_prompt = dupor(pc__jstr(m, "system_prompt"), "");
	cJSON_ArrayForEach(d, pc_serde_get(m, "disable_tools"))
		pc_strvec_push(&p->disable_tools, d->valuestring);
	pc__manifest_at(p, "name", NULL);
	if ((rc = check_name(p->name, e)) ||
	    (rc = check_capabilities(p, e)))
		return rc;
	if (files) {
		p->source_path = pc_fs_realpath(p->dir);
		if (!p->source_path)
			p->source_path = pc_xstrdup(p->dir);
	}
	if ((rc = load_hooks(p, e)) || (rc = load_tools(p, e)) ||
	    (rc = load_commands(p, e)) || (rc = pc__load_oauth(p, env, e)))
		return rc;
	return load_memory(p, e);
}

/* R2.1: read_to_string (pc_rust_read_to_string: the host's io::Error
 * texts, "Is a directory (os error 21)" for a directory, "stream did not
 * contain valid UTF-8"), then serde. */
static int read_manifest(const char *path, struct pc_buf *raw,
			 struct pc_buf *e)
{
	struct pc_buf msg = PC_BUF_INIT(PC_BUF_NOCAP);

	if (pc_rust_read_to_string(path, raw, &msg) < 0) {
		pc__mfail(e, "cannot read plugin.json: %s", pc_buf_cstr(&msg));
		pc_buf_release(&msg);
		return PC_EMANIFEST;
	}
	return 0;
}

static int load(const char *dir, const struct pc_manifest_env *env,
		bool files, struct pc_plugin **out, struct pc_buf *e,
		const struct pc_manifest_report *want)
{
	struct pc_plugin *p = pc_xcalloc(1, sizeof(*p));
	struct pc_buf raw = PC_BUF_INIT((size_t)64 << 20);
	struct pc_buf perr = PC_BUF_INIT(PC_BUF_NOCAP);
	char *path = pc_fs_join(dir, "plugin.json");
	bool have_text;
	int rc;

	*out = p;
	pc_strvec_init(&p->capabilities);
	pc_strvec_init(&p->required);
	pc_strvec_init(&p->disable_tools);
	pc_strvec_init(&p->log);
	pc_strvec_init(&p->at);
	p->dir = pc_xstrdup(dir);
	p->enabled = true;
	rc = read_manifest(path, &raw, e);
	have_text = !rc;
	if (!rc && pc_serde_decode_buf(pc_buf_cstr(&raw), raw.len,
				       &pc_serde_plugin_manifest, &p->manifest,
				       NULL, &perr) < 0)
		rc = pc__mfail(e, "plugin.json parse error: %s",
			       pc_buf_cstr(&perr));
	if (!rc)
		rc = load_parsed(p, env, files, e);
	free(path);
	if (want && want->text && have_text) /* the text the host judged */
		*want->text = pc_buf_detach(&raw, want->text_len);
	pc_buf_release(&raw);
	pc_buf_release(&perr);
	return rc;
}

/* The shared tail of the public loaders: hand over or free the plugin,
 * the log lines (R1.12, then R1.11 on a rejection) and the message. */
static int finish(int rc, struct pc_plugin *p, struct pc_buf *e,
		  const struct pc_manifest_report *want, struct pc_plugin **out,
		  struct pc_err *err)
{
	if (want && want->log)
		for (size_t i = 0; i < p->log.nr; i++)
			pc_strvec_push(want->log, p->log.v[i]);
	if (!rc) {
		*out = p;
		pc_buf_release(e);
		return 0;
	}
	if (want && want->log) {
		char *line = pc_manifest_load_error_line(p->dir, pc_buf_cstr(e));

		pc_strvec_pushf(want->log, "[plugins] %s", line);
		free(line);
	}
	pc_err_set(err, PC_EMANIFEST, "%s", pc_buf_cstr(e));
	for (size_t i = 0; want && want->error_at && i < p->at.nr; i++)
		pc_strvec_push(want->error_at, p->at.v[i]);
	if (want && want->error)
		*want->error = pc_buf_detach(e, NULL);
	pc_buf_release(e);
	pc_plugin_free(p);
	*out = NULL;
	return rc;
}

int pc_manifest_load_report(const char *dir, const struct pc_manifest_env *env,
			    struct pc_plugin **out,
			    const struct pc_manifest_report *rep,
			    struct pc_err *err)
{
	struct pc_buf e = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_plugin *p;
	int rc;

	if (rep && rep->text)
		*rep->text = NULL;
	rc = load(dir, env, true, &p, &e, rep);
	if (rep && rep->error)
		*rep->error = NULL;
	return finish(rc, p, &e, rep, out, err);
}

int pc_manifest_load(const char *dir, const struct pc_manifest_env *env,
		     struct pc_plugin **out, struct pc_err *err)
{
	return pc_manifest_load_report(dir, env, out, NULL, err);
}

int pc_manifest_check_text(const char *dir, const struct pc_manifest_env *env,
			   struct pc_err *err)
{
	struct pc_buf e = PC_BUF_INIT(PC_BUF_NOCAP);
	struct pc_plugin *p = NULL;
	int rc = load(dir, env, false, &p, &e, NULL);

	rc = finish(rc, p, &e, NULL, &p, err);
	pc_plugin_free(p);
	return rc;
}

char *pc_manifest_load_error_line(const char *dir, const char *msg)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	const char *base;
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	base = dir + n;
	while (base > dir && base[-1] != '/')
		base--;
	pc_buf_adds(&b, "failed to load plugin in ");
	pc_rust_debug_path(&b, base, (size_t)(dir + n - base));
	pc_buf_addf(&b, ": %s", msg);
	return pc_buf_detach(&b, NULL);
}

static void free_oauth(struct pc_oauth_cfg *o)
{
	if (!o)
		return;
	free(o->provider_id);
	free(o->label);
	free(o->kind);
	free(o->base_url);
	free(o->description);
	cJSON_Delete(o->headers);
	free(o->token_path);
	free(o->detect_path);
	free(o->script);
	free(o->login_script);
	free(o->complete_script);
	free(o->token_script);
	pc_strvec_release(&o->env_passthrough);
	free(o);
}

void pc_plugin_free(struct pc_plugin *p)
{
	if (!p)
		return;
	for (int i = 0; i < PC_HOOK_COUNT; i++) {
		free(p->hooks[i].script);
		free(p->hooks[i].script_rel);
	}
	for (size_t i = 0; i < p->ntools; i++) {
		free(p->tools[i].name);
		free(p->tools[i].description);
		cJSON_Delete(p->tools[i].parameters);
		free(p->tools[i].script);
		free(p->tools[i].script_rel);
	}
	free(p->tools);
	for (size_t i = 0; i < p->ncommands; i++) {
		free(p->commands[i].name);
		free(p->commands[i].description);
		free(p->commands[i].script);
		free(p->commands[i].prompt_file);
	}
	free(p->commands);
	free_oauth(p->oauth);
	if (p->memory)
		free(p->memory->script);
	free(p->memory);
	free(p->name);
	free(p->version);
	free(p->description);
	free(p->system_prompt);
	free(p->dir);
	free(p->source_path);
	pc_strvec_release(&p->capabilities);
	pc_strvec_release(&p->required);
	pc_strvec_release(&p->disable_tools);
	pc_strvec_release(&p->log);
	pc_strvec_release(&p->at);
	cJSON_Delete(p->manifest);
	free(p);
}
