/* pc_chatcli_remote.c - a call to a plugin served by `chatcli server`
 * and used through `chatcli connect` (spec chatcli.md R1-R3; the code is
 * server/handler_remote.go, server/validation.go, client/remote/
 * remote_plugin.go and the gRPC/protobuf runtimes they use). See
 * pc_chatcli.h.
 *
 * The path, in order: the client's discovery (ListRemotePlugins: the
 * role's view, and a response the server must be able to encode and the
 * client to receive), the client's lookup of the call's name, the
 * request the client encodes, the server's validation interceptor, its
 * role check, the plugin run as the server runs it (no streaming), the
 * response it encodes, the client's 4 MiB receive limit, the client's
 * error wrapping, and then the client's own O1 delivery. */
#include <stdlib.h>
#include <string.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_xalloc.h"

#define NAME_MAX_LEN	 256		/* server/validation.go */
#define MAX_ARGS	 100
#define ARG_MAX_BYTES	 (10 * 1024)
#define CLIENT_RECV_MAX	 (4 * 1024 * 1024) /* grpc-go's client default */
#define SERVER_MSG_MAX	 (50 * 1024 * 1024) /* CHATCLI_MAX_*_MSG_SIZE */
#define UTF8_MARSHAL_ERR "grpc: error while marshaling: string field contains invalid UTF-8"

/* varint_len - bytes of a protobuf varint. */
static size_t varint_len(size_t v)
{
	size_t n = 1;

	while (v >= 0x80)
		v >>= 7, n++;
	return n;
}

/* field_len - a proto3 string/bytes field with a one-byte tag: absent
 * when empty. */
static size_t field_len(size_t n)
{
	return n ? 1 + varint_len(n) + n : 0;
}

size_t pc_chatcli_remote_list_size(const struct pc_chatcli_probe *p)
{
	const struct pc_chatcli_meta *m = &p->meta;
	size_t info = field_len(m->name_len) + field_len(m->description_len) +
		      field_len(m->usage_len) + field_len(m->version_len) +
		      field_len(p->schema ? strlen(p->schema) : 0);

	/* ListRemotePluginsResponse{plugins: [info]}: an empty PluginInfo is
	 * still a field */
	return 1 + varint_len(info) + info;
}

static bool role_is(const char *role, const char *r)
{
	return !strcmp(role ? role : "admin", r);
}

const char *pc_chatcli_remote_listed(const struct pc_chatcli_probe *p,
				     const char *role, char **why)
{
	*why = NULL;
	if (!p->loaded)
		return "not loaded by the server";
	if (role_is(role, "readonly"))
		return "readonly users see no remote plugin";
	if (!role_is(role, "admin") && p->meta.name_len &&
	    p->meta.name[0] == '_')
		return "names starting with _ are listed to admins only (the server would still run it for any user who sends the name: execution does not check the rule again)";
	if (p->schema && !pc__chatcli_utf8_valid(p->schema, strlen(p->schema))) {
		*why = pc_xstrdup("rpc error: code = Internal desc = " UTF8_MARSHAL_ERR);
		return "the server cannot encode the plugin list";
	}
	if (pc_chatcli_remote_list_size(p) > CLIENT_RECV_MAX) {
		*why = pc_xasprintf(
			"rpc error: code = ResourceExhausted desc = grpc: received message larger than max (%zu vs. %d)",
			pc_chatcli_remote_list_size(p), CLIENT_RECV_MAX);
		return "the plugin list passes the client's receive limit";
	}
	return NULL;
}

/* lookup - the client's GetPlugin(name): exact, then "@" + name. */
static bool lookup(const struct pc_chatcli_meta *m, const char *tool,
		   size_t tn)
{
	return (tn == m->name_len && !memcmp(tool, m->name, tn)) ||
	       (tn + 1 == m->name_len && m->name[0] == '@' &&
		!memcmp(tool, m->name + 1, tn));
}

char *pc_chatcli_remote_request_error(const struct pc_chatcli_str *name,
				      const struct pc_chatcli_argv *args)
{
	size_t size = field_len(name->n);

	for (size_t i = 0; args && i < args->nr; i++)
		size += 1 + varint_len(args->v[i].n) + args->v[i].n;
	if (size > SERVER_MSG_MAX)
		return pc_xasprintf(
			"rpc error: code = ResourceExhausted desc = grpc: received message larger than max (%zu vs. %d)",
			size, SERVER_MSG_MAX);
	/* ValidationInterceptor runs first on the server */
	if (!name->n)
		return pc_xstrdup(
			"rpc error: code = InvalidArgument desc = validation: plugin_name is required");
	if (name->n > NAME_MAX_LEN)
		return pc_xasprintf(
			"rpc error: code = InvalidArgument desc = validation: plugin_name exceeds maximum length of %d characters",
			NAME_MAX_LEN);
	if (args && args->nr > MAX_ARGS)
		return pc_xasprintf(
			"rpc error: code = InvalidArgument desc = validation: too many plugin arguments (max %d)",
			MAX_ARGS);
	for (size_t i = 0; args && i < args->nr; i++)
		if (args->v[i].n > ARG_MAX_BYTES)
			return pc_xasprintf(
				"rpc error: code = InvalidArgument desc = validation: plugin argument %zu exceeds maximum size of %d bytes",
				i, ARG_MAX_BYTES);
	return NULL;
}

char *pc_chatcli_remote_response_error(const struct pc_chatcli_call *c)
{
	size_t elen = c->error ? strlen(c->error) : 0;
	size_t size = field_len(c->merged_len) + field_len(elen) + 2;

	/* the server encodes, checks its send limit; the client its receive
	 * limit */
	if (!pc__chatcli_utf8_valid(c->merged, c->merged_len) ||
	    (c->error && !pc__chatcli_utf8_valid(c->error, elen)))
		return pc_xstrdup("rpc error: code = Internal desc = " UTF8_MARSHAL_ERR);
	if (size > SERVER_MSG_MAX)
		return pc_xasprintf(
			"rpc error: code = ResourceExhausted desc = grpc: trying to send message larger than max (%zu vs. %d)",
			size, SERVER_MSG_MAX);
	if (size > CLIENT_RECV_MAX)
		return pc_xasprintf(
			"rpc error: code = ResourceExhausted desc = grpc: received message larger than max (%zu vs. %d)",
			size, CLIENT_RECV_MAX);
	return NULL;
}

/* fail - the call as the client ends it without output: `error`
 * (taken) is the error, `output` what the model is told. */
static void fail(struct pc_chatcli_call *c, char *error, const char *output)
{
	free(c->merged);
	free(c->err_lines);
	free(c->output);
	free(c->error);
	c->merged = pc_xstrdup("");
	c->merged_len = 0;
	c->err_lines = NULL;
	c->n_err_lines = 0;
	c->output = pc_xstrdup(output);
	c->output_len = strlen(output);
	c->error = error;
	c->not_started = true;
	c->compression = "passthrough";
}

int pc_chatcli_remote_call(const struct pc_chatcli_call_opts *o,
			   const struct pc_chatcli_remote_opts *r,
			   struct pc_chatcli_call *c, struct pc_err *err)
{
	struct pc_chatcli_call_opts server = *o;
	const struct pc_chatcli_meta *m = &r->plugin->meta;
	struct pc_chatcli_str name = { m->name, m->name_len };
	const char *tool = o->tool ? o->tool : m->name;
	size_t tn = o->tool ? o->tool_len : m->name_len;
	char *why = NULL, *e;
	int rc;

	struct pc_chatcli_compress_env env;

	*c = (struct pc_chatcli_call)PC_CHATCLI_CALL_INIT;
	c->remote_hidden = pc_chatcli_remote_listed(r->plugin, r->role, &why);
	if (c->remote_hidden || !lookup(m, tool, tn)) {
		/* the agent loop's unknown tool (O2) */
		struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

		pc_buf_adds(&b, "Ferramenta '");
		pc_buf_add(&b, tool, tn);
		pc_buf_adds(&b, "' não existe ou não está instalada.");
		fail(c, pc_xstrdup("plugin não encontrado"), b.data);
		c->remote_detail = why;
		pc_buf_release(&b);
		return 0;
	}
	if ((e = pc_chatcli_remote_request_error(&name, o->args)) != NULL)
		goto client_error;
	if (!role_is(r->role, "admin") && !role_is(r->role, "user")) {
		e = pc_xasprintf(
			"rpc error: code = PermissionDenied desc = insufficient permissions: role \"%s\" cannot execute plugins",
			r->role);
		goto client_error;
	}
	server.raw = true; /* the server's Execute: no streaming, no O1 */
	server.on_line = NULL;
	if ((rc = pc_chatcli_call(&server, c, err)) != 0)
		return rc;
	if ((e = pc_chatcli_remote_response_error(c)) != NULL)
		goto client_error;
	/* ExecuteWithStream hands the whole output to the UI at once */
	if (o->on_line && c->merged_len)
		o->on_line(o->line_ctx, false, c->merged, c->merged_len);
	if (c->error) {
		char *w = pc_xasprintf("remote plugin error: %s", c->error);

		free(c->error);
		c->error = w;
	}
	pc_chatcli_compress_env_read(&env, o->env ? o->env->v : NULL);
	pc__chatcli_deliver(tool, tn, o->compress ? o->compress : &env, c);
	return 0;
client_error:
	fail(c, pc_xasprintf("remote ExecuteRemotePlugin failed: %s", e), "");
	free(e);
	return 0;
}
