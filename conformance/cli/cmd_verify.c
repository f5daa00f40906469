/* cmd_verify.c - `plugcheck verify EXE`: ChatCLI's signature decision
 * (spec chatcli.md G5) with the host's exact texts, the newer upstream
 * verifier's status (§6.B) and which on-disk formats the files use. */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_opts.h"
#include "pc_chatcli.h"
#include "pc_chatcli_cli.h"
#include "pc_cli.h"
#include "pc_cmd.h"
#include "pc_exit.h"
#include "pc_fs.h"
#include "pc_xalloc.h"

static const struct pc_opt opts[] = {
	{ .name = "trusted-keys", .kind = PC_OPT_VALUE, .metavar = "DIR",
	  .help = "the trusted keys, DIR/*.pub (default\n"
		  "$HOME/.chatcli/trusted-keys)" },
	CLI_OPT_FORMAT("human|json"),
};

/* What verify found; strings owned. */
struct found {
	const char *path, *keys;
	bool allow, loads;
	char *error; /* the HEAD verdict's text, NULL when verified/allowed */
	size_t nk;
	const char *status; /* §6.B */
	bool has_sig;
	struct pc_chatcli_sig_info info;
	char *digest;
	cJSON *key_files; /* [{"file","format"}] */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_keys(struct found *f)
{
	DIR *d = opendir(f->keys);
	struct dirent *de;
	struct pc_strvec names = PC_STRVEC_INIT;

	f->key_files = cJSON_CreateArray();
	/* os.ReadDir lists dot files too (a hidden .dev.pub is a key) */
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			pc_strvec_push(&names, de->d_name);
	if (d)
		closedir(d);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), cmp_str);
	for (size_t i = 0; i < names.nr; i++) {
		char *p = pc_fs_join(f->keys, names.v[i]);
		struct pc_buf b = PC_BUF_INIT(1 << 20);
		size_t len = strlen(names.v[i]);
		const char *fmt = NULL;
		cJSON *k;

		if (len >= 4 && !strcmp(names.v[i] + len - 4, ".pub") &&
		    !pc_fs_is_dir(p) &&
		    !pc_fs_read_stream(p, &b, PC_FS_STREAM_MS, NULL))
			fmt = pc_chatcli_key_format(pc_buf_cstr(&b), b.len);
		k = cJSON_CreateObject();
		cJSON_AddStringToObject(k, "file", names.v[i]);
		if (fmt)
			cJSON_AddStringToObject(k, "format", fmt);
		else
			cJSON_AddNullToObject(k, "format");
		cJSON_AddItemToArray(f->key_files, k);
		pc_buf_release(&b);
		free(p);
	}
	pc_strvec_release(&names);
}

static void inspect(struct found *f)
{
	char *sig = pc_xasprintf("%s.sig", f->path);
	struct pc_buf b = PC_BUF_INIT(1 << 20);

	f->status = pc_chatcli_sig_status(f->path, f->keys);
	f->has_sig = !pc_fs_read_stream(sig, &b, PC_FS_STREAM_MS, NULL);
	if (f->has_sig)
		pc_chatcli_sig_info_parse(b.data ? b.data : "", b.len,
					  &f->info);
	f->digest = pc_chatcli_digest_hex(f->path);
	read_keys(f);
	pc_buf_release(&b);
	free(sig);
}

static bool upstream_loads(const struct found *f)
{
	return !strcmp(f->status, "verified") ||
	       (f->allow && (!strcmp(f->status, "unsigned") ||
			     !strcmp(f->status, "unverifiable")));
}

static void print_human(const struct found *f)
{
	const cJSON *k;

	if (f->error)
		printf("%s: %s\n", f->path, f->error);
	else
		printf("%s: %s (%zu trusted key(s) in %s)\n", f->path,
		       !strcmp(f->status, "verified") ? "verified"
						      : "allowed unsigned",
		       f->nk, f->keys);
	printf("upstream-newer verifier (§6.B): %s -> %s\n", f->status,
	       upstream_loads(f) ? "load" : "skip");
	if (f->has_sig) {
		printf("signature file: %s layout",
		       pc_chatcli_sig_format_name(f->info.format));
		if (f->info.format == PC_CHATCLI_SIG_UPSTREAM)
			printf(" (plugin: %s; sha256 %s the file's)",
			       f->info.plugin,
			       f->digest && !strcmp(f->digest, f->info.sha256)
				       ? "matches"
				       : "does not match");
		printf("\n");
	}
	cJSON_ArrayForEach(k, f->key_files)
	{
		const cJSON *fmt =
			cJSON_GetObjectItemCaseSensitive(k, "format");

		printf("trusted key %s: %s\n",
		       cJSON_GetObjectItemCaseSensitive(k, "file")->valuestring,
		       cJSON_IsString(fmt) ? fmt->valuestring
					   : "skipped by the host");
	}
}

static void print_json(struct found *f)
{
	cJSON *o = cJSON_CreateObject(), *s;

	cJSON_AddStringToObject(o, "path", f->path);
	cJSON_AddBoolToObject(o, "loads", f->loads);
	if (f->error)
		cJSON_AddStringToObject(o, "host_error", f->error);
	else
		cJSON_AddNullToObject(o, "host_error");
	cJSON_AddStringToObject(o, "upstream_status", f->status);
	cJSON_AddBoolToObject(o, "upstream_loads", upstream_loads(f));
	if (f->has_sig) {
		s = cJSON_AddObjectToObject(o, "sig");
		cJSON_AddStringToObject(
			s, "format",
			pc_chatcli_sig_format_name(f->info.format));
		if (f->info.plugin)
			cJSON_AddStringToObject(s, "plugin", f->info.plugin);
		if (f->info.sha256)
			cJSON_AddStringToObject(s, "sha256", f->info.sha256);
	} else {
		cJSON_AddNullToObject(o, "sig");
	}
	if (f->digest)
		cJSON_AddStringToObject(o, "sha256", f->digest);
	else
		cJSON_AddNullToObject(o, "sha256");
	cJSON_AddNumberToObject(o, "trusted_keys", (double)f->nk);
	cJSON_AddItemToObject(o, "key_files", f->key_files);
	f->key_files = NULL;
	pc_cli_print_json(o);
}

static int run(const struct pc_args *a)
{
	struct found f = { 0 };
	const char *fmt_s = pc_args_value(a, "format");
	char *keys = pc_args_value(a, "trusted-keys")
			     ? pc_xstrdup(pc_args_value(a, "trusted-keys"))
			     : NULL;
	int rc, fmt = fmt_s && !strcmp(fmt_s, "json") ? PC_FMT_JSON
						       : PC_FMT_HUMAN;
	char **argv = a->pos;
	int optind = 0;

	{
		/* the host only ever verifies files it found in its plugins
		 * directory; "allowed unsigned" for a path that is not there
		 * would be a false answer */
		struct stat st;
		const char *why = NULL;

		if (stat(argv[optind], &st) < 0)
			why = strerror(errno);
		else if (!S_ISREG(st.st_mode))
			why = "not a regular file";
		if (why) {
			fprintf(stderr,
				"plugcheck verify: '%s': %s\n"
				"Give the plugin executable; its signature is EXE.sig.\n",
				argv[optind], why);
			free(keys);
			return PC_EXIT_USAGE;
		}
	}
	if (!keys)
		keys = pc_chatcli_default_keys();
	f.path = argv[optind];
	f.keys = keys;
	f.allow = pc_chatcli_unsigned_allowed(
		getenv("CHATCLI_ALLOW_UNSIGNED_PLUGINS"));
	rc = pc_chatcli_sig_verify(f.path, keys, f.allow, &f.error, &f.nk);
	f.loads = !rc;
	inspect(&f);
	if (fmt == PC_FMT_JSON)
		print_json(&f);
	else
		print_human(&f);
	free(f.error);
	free(f.digest);
	pc_chatcli_sig_info_release(&f.info);
	cJSON_Delete(f.key_files);
	free(keys);
	return rc ? PC_EXIT_FINDINGS : PC_EXIT_OK;
}

const struct pc_cmd pc_cmd_verify = {
	.name = "verify",
	.summary = "decide as ChatCLI does whether a plugin's signature loads",
	.synopsis = { "EXE [--trusted-keys DIR] [--format human|json]", NULL },
	.description = {
		"Decide as ChatCLI's loader does whether EXE (with EXE.sig) loads;\n"
		"CHATCLI_ALLOW_UNSIGNED_PLUGINS=true tolerates a missing signature or an\n"
		"empty trust store. Prints \"verified\", \"allowed unsigned\" or the host's\n"
		"error text, then the newer upstream verifier's status (§6.B), the .sig\n"
		"layout (head: the signature line alone; upstream: with §6.B's comment\n"
		"lines; other) and how each trusted key file is read.\n",
		NULL },
	.exits = "Exit: 0 the host loads it, 1 the host skips it, 2 usage (or EXE is\n"
		 "not a regular file).\n",
	.opts = opts,
	.nopts = CLI_NOPTS(opts),
	.min_pos = 1,
	.max_pos = 1,
	.run = run,
};
