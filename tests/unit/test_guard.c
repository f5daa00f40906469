/* test_guard.c - the guard search's parts (conformance/guard/, issue 16):
 * the shell-word parser, the program models, each rewrite family's exact
 * output on a seed (and what it refuses to respell), the path and tool
 * rewrites, the corpus, and the search's judgment and budget on small sh
 * guards: a denial, an allow, a failure (R4.4) and no pass_args (R4.5),
 * the hooks on a tool's path (R4.8), the budget's rounds, --save.
 */
#include <sys/stat.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "pc_fs.h"
#include "pc_guard_impl.h"
#include "pc_scenario.h"
#include "pc_xalloc.h"
#include "test_util.h"

static const struct pc__gctx CTX = { "/home/u", "/work/ws", NULL };

/* The texts a family makes of `seed`, joined by " | " (a new string). */
static char *run_family(const char *name, const char *seed,
			const struct pc__gctx *c)
{
	const struct pc__gfamily *f = pc__guard_family(name);
	struct pc__gvariants vs = { 0 };
	char *out = pc_xstrdup("");

	assert_non_null(f);
	f->fn(seed, c ? c : &CTX, &vs);
	for (size_t i = 0; i < vs.n; i++) {
		char *n = pc_xasprintf("%s%s%s", out, i ? " | " : "", vs.v[i].text);

		free(out);
		out = n;
	}
	pc__guard_variants_release(&vs);
	return out;
}

static void expect_family(const char *name, const char *seed, const char *want)
{
	char *got = run_family(name, seed, NULL);

	assert_string_equal(got, want);
	free(got);
}

/* ---- parser ---- */

static void test_parse_words_and_quotes(void **state)
{
	struct pc__gline l;

	(void)state;
	pc__guard_parse("r''m -rf \"/x y\" \\~ a\\ b && echo $HOME > out 2>&1", &l);
	assert_false(l.opaque);
	assert_int_equal(l.n, 10);
	assert_string_equal(l.w[0].value, "rm");
	assert_string_equal(l.w[0].raw, "r''m");
	assert_string_equal(l.w[2].value, "/x y");
	assert_string_equal(l.w[3].value, "~"); /* quoted: no tilde expansion */
	assert_string_equal(l.w[4].value, "a b");
	assert_int_equal(l.w[5].kind, PC_GW_OP);
	assert_string_equal(l.w[5].raw, "&&");
	assert_null(l.w[7].value); /* $HOME expands */
	assert_int_equal(l.w[8].kind, PC_GW_REDIR);
	assert_string_equal(l.w[8].raw, ">out"); /* kept as one word */
	assert_string_equal(l.w[9].raw, "2>&1");
	pc__guard_line_release(&l);
}

static void test_parse_opaque(void **state)
{
	static const char *const opaque[] = {
		"(rm -rf /)", "cat <<EOF\nx\nEOF", "echo hi # c", "echo 'unbalanced",
		"for f in *; do rm $f; done", "{ rm -rf /; }", "case x in y) ;; esac",
		"! rm x",
	};
	struct pc__gline l;

	(void)state;
	for (size_t i = 0; i < sizeof(opaque) / sizeof(*opaque); i++) {
		pc__guard_parse(opaque[i], &l);
		assert_true(l.opaque);
		pc__guard_line_release(&l);
	}
	pc__guard_parse("echo a#b ~x *.c", &l); /* plain, non-plain words */
	assert_false(l.opaque);
	assert_string_equal(l.w[1].value, "a#b");
	assert_null(l.w[2].value);
	assert_null(l.w[3].value);
	pc__guard_line_release(&l);
}

static void test_commands_and_model(void **state)
{
	struct pc__gline l;
	struct pc__gcmd c[4];
	struct pc__gparsed p;

	(void)state;
	pc__guard_parse("X=1 rm -rf -- / | git push -f origin main; curl -o f u", &l);
	assert_int_equal(pc__guard_commands(&l, c, 4), 3);
	assert_int_equal(c[0].word, 1);
	assert_true(c[0].piped);
	assert_true(c[1].piped);
	assert_false(c[2].piped);
	assert_true(pc__guard_model(&l, &c[0], &p));
	assert_string_equal(p.prog->word, "rm");
	assert_int_equal(p.na, 3);
	assert_int_equal(p.a[0].kind, PC_GA_SHORT);
	assert_int_equal(p.a[0].no, 2);
	assert_string_equal(p.a[0].o[0]->id, "recursive");
	assert_int_equal(p.a[1].kind, PC_GA_END);
	assert_true(pc__guard_model(&l, &c[1], &p));
	assert_string_equal(p.prog->sub, "push");
	/* an option with a value is not modelled: no respelling */
	assert_false(pc__guard_model(&l, &c[2], &p));
	pc__guard_line_release(&l);
	pc__guard_parse("rm -x /", &l); /* an unknown letter */
	pc__guard_commands(&l, c, 4);
	assert_false(pc__guard_model(&l, &c[0], &p));
	pc__guard_line_release(&l);
}

static void test_prog_prefixes(void **state)
{
	const struct pc_guard_prog *rm = pc_guard_prog_find("/bin/rm", NULL);
	const struct pc_guard_prog *chmod = pc_guard_prog_find("chmod", NULL);

	(void)state;
	assert_non_null(rm);
	assert_true(pc_guard_prog_prefix_unique(rm, "recursive", 1));
	assert_true(pc_guard_prog_prefix_unique(rm, "force", 1));
	assert_true(pc_guard_prog_prefix_unique(rm, "preserve-root", 8));
	assert_false(pc_guard_prog_prefix_unique(rm, "verbose", 3)); /* version */
	assert_true(pc_guard_prog_prefix_unique(chmod, "recursive", 3));
	assert_false(pc_guard_prog_prefix_unique(chmod, "recursive", 2)); /* reference */
	assert_null(pc_guard_prog_find("git", "log"));
	assert_non_null(pc_guard_prog_find("git", "push"));
}

/* ---- families ---- */

static void test_flags_and_long(void **state)
{
	(void)state;
	expect_family("flags", "rm -rf /",
		      "rm -r -f / | rm -fr / | rm -Rf / | rm / -rf | rm / -r -f");
	expect_family("flags", "rm -r -f /",
		      "rm -rf / | rm -fr / | rm -R -f / | rm / -r -f");
	expect_family("flags", "dd if=/dev/zero of=/dev/sda",
		      "dd of=/dev/sda if=/dev/zero");
	expect_family("long", "rm -rf /",
		      "rm --recursive --force / | rm --recursive -f / | rm --r --f / | rm --recu --forc /");
	expect_family("long", "git push --force origin main", "git push -f origin main");
	/* git's table is partial: no abbreviation */
	expect_family("long", "git clean -fdx", "git clean --force -d -x");
	expect_family("endopts", "rm -rf ~", "rm -rf -- ~");
	expect_family("endopts", "rm -rf -- /", "");
	/* unknown programs, expansions in options: nothing respelt */
	expect_family("flags", "frob -rf /", "");
	expect_family("flags", "rm $OPTS /", "");
}

static void test_quote_wrap_chain(void **state)
{
	(void)state;
	expect_family("quote", "cat .env",
		      "'cat' .env | \"cat\" .env | \\cat .env | c''at .env | c\"\"at .env | c\\at .env | $'cat' .env | cat '.env' | cat \".env\"");
	expect_family("wrap", "echo 'x' && rm -rf /",
		      "bash -c 'echo '\\''x'\\'' && rm -rf /' | sh -c 'echo '\\''x'\\'' && rm -rf /' | eval 'echo '\\''x'\\'' && rm -rf /' | bash -c \"echo 'x' && rm -rf /\"");
	expect_family("chain", "rm -rf /",
		      "true && rm -rf / | true; rm -rf / | false || rm -rf / | true\nrm -rf / | ( rm -rf / ) | { rm -rf /; } | if true; then rm -rf /; fi");
	/* a trailing comment would swallow the closing word: newlines */
	expect_family("chain", "rm -rf / # x",
		      "true && rm -rf / # x | true; rm -rf / # x | false || rm -rf / # x | true\nrm -rf / # x | (\nrm -rf / # x\n) | {\nrm -rf / # x\n} | if true; then\nrm -rf / # x\nfi");
	/* only the whole-line families for what the parser does not model */
	expect_family("quote", "(rm -rf /)", "");
	expect_family("wrap", "(rm -rf /)", "bash -c '(rm -rf /)' | eval '(rm -rf /)' | bash -c \"(rm -rf /)\"");
}

static void test_target_and_space(void **state)
{
	(void)state;
	expect_family("target", "rm -rf /", "rm -rf // | rm -rf ///");
	expect_family("target", "rm -rf ~",
		      "rm -rf $HOME | rm -rf ${HOME} | rm -rf \"$HOME\" | rm -rf /home/u | rm -rf ~/");
	expect_family("target", "cat ~/.ssh/id_rsa",
		      "cat $HOME/.ssh/id_rsa | cat ${HOME}/.ssh/id_rsa | cat \"$HOME\"/.ssh/id_rsa | cat /home/u/.ssh/id_rsa | cat ~/./.ssh/id_rsa | cat ~//.ssh/id_rsa");
	expect_family("target", "cat .env",
		      "cat ./.env | cat \"$PWD\"/.env | cat /work/ws/.env | cat ../ws/.env");
	expect_family("target", "cat /etc/passwd",
		      "cat //etc/passwd | cat /./etc/passwd | cat /../etc/passwd | cat /etc//passwd | cat /etc/./passwd");
	/* rm refuses a last component . or ..: those are never respelt */
	expect_family("target", "rm -rf .", "");
	expect_family("target", "dd if=/dev/zero of=/dev/sda",
		      "dd if=//dev/zero of=/dev/sda | dd if=/./dev/zero of=/dev/sda | dd if=/../dev/zero of=/dev/sda | dd if=/dev//zero of=/dev/sda | dd if=/dev/./zero of=/dev/sda | dd if=/dev/zero of=//dev/sda | dd if=/dev/zero of=/./dev/sda | dd if=/dev/zero of=/../dev/sda | dd if=/dev/zero of=/dev//sda | dd if=/dev/zero of=/dev/./sda");
	expect_family("space", "rm -rf /",
		      "rm  -rf  / | rm\t-rf\t/ | rm \\\n-rf \\\n/ |  \trm -rf /   | \nrm -rf /");
}

static void test_abspath_and_prefix(void **state)
{
	char dir[] = "/tmp/pc-guard-pathXXXXXX";
	struct pc__gctx c = CTX;
	char *exe, *path, *got, *want;

	(void)state;
	assert_non_null(mkdtemp(dir));
	exe = pc_fs_join(dir, "frob");
	tu_write_file(exe, "#!/bin/sh\n", 0755);
	path = pc_xasprintf("/nonexistent:%s", dir);
	c.path_env = path;
	got = run_family("abspath", "frob -x | nofrob", &c);
	want = pc_xasprintf("%s -x | nofrob", exe);
	assert_string_equal(got, want);
	free(got);
	free(want);
	expect_family("prefix", "rm -rf /",
		      "command rm -rf / | env rm -rf / | nice rm -rf / | exec rm -rf / | printf '%s\\n' / | xargs rm -rf");
	/* exec ends the shell: not inside a list; xargs only alone */
	expect_family("prefix", "true && rm -rf /",
		      "command true && rm -rf / | env true && rm -rf / | nice true && rm -rf / | true && command rm -rf / | true && env rm -rf / | true && nice rm -rf /");
	expect_family("prefix", "sudo rm -rf /", "");
	pc_fs_rm_rf(dir);
	free(exe);
	free(path);
}

static void test_paths_and_tools(void **state)
{
	struct pc__gvariants vs = { 0 };
	char *args;

	(void)state;
	pc__guard_fam_spelling(".git/hooks/pre-commit", &CTX, &vs);
	assert_int_equal(vs.n, 6);
	assert_string_equal(vs.v[0].text, "./.git/hooks/pre-commit");
	assert_string_equal(vs.v[1].text, "/work/ws/.git/hooks/pre-commit");
	assert_string_equal(vs.v[3].text, "../ws/.git/hooks/pre-commit");
	assert_string_equal(vs.v[4].text, ".git/./hooks/pre-commit");
	pc__guard_variants_release(&vs);
	pc__guard_fam_spelling("/home/u/.ssh/id_rsa", &CTX, &vs);
	assert_string_equal(vs.v[2].text, "../../home/u/.ssh/id_rsa");
	pc__guard_variants_release(&vs);
	pc__guard_fam_tools_write(".env", &CTX, &vs);
	assert_int_equal(vs.n, 6);
	assert_string_equal(vs.v[1].tool, "patch");
	args = cJSON_PrintUnformatted(vs.v[1].args);
	assert_string_equal(args, "{\"patch\":\"@@ -1 +1 @@\\n-SECRET=old\\n+SECRET=plugcheck-guard\\n\",\"path\":\".env\"}");
	free(args);
	assert_string_equal(vs.v[5].tool, "bash");
	args = cJSON_PrintUnformatted(vs.v[5].args);
	assert_string_equal(args, "{\"command\":\"printf '%s\\\\n' SECRET=plugcheck-guard > '.env'\"}");
	free(args);
	pc__guard_variants_release(&vs);
	pc__guard_fam_tools_read("a'b", &CTX, &vs);
	assert_int_equal(vs.n, 3); /* grep twice (path, paths): not deduplicated */
	args = cJSON_PrintUnformatted(vs.v[2].args);
	assert_string_equal(args, "{\"command\":\"cat 'a'\\\\''b'\"}");
	free(args);
	pc__guard_variants_release(&vs);
}

/* An empty seed (a `--seed ''`, an empty path in a scenario's fire step)
 * has nothing to respell; the spelling family read past its end
 * (fuzz_guard, the empty input). */
static void test_empty_seed(void **state)
{
	(void)state;
	expect_family("spelling", "", "");
	expect_family("flags", "", "");
	expect_family("target", "", "");
	expect_family("abspath", "", "");
}

static void test_families_list_and_corpus(void **state)
{
	struct pc_err err = PC_ERR_INIT;
	char *help = pc_guard_families_help();

	(void)state;
	assert_int_equal(pc_guard_families_check("flags,tool", &err), 0);
	assert_int_equal(pc_guard_families_check("flags,nope", &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "'nope' is not a rewrite family"));
	assert_non_null(strstr(help, "  endopts   \"--\" before the operands (commands)\n"));
	free(help);
	/* the families are tried in this order (docs/guard.md) */
	assert_string_equal(pc__guard_families[1].name, "flags");
	assert_string_equal(pc__guard_families[pc__guard_nfamilies - 1].name, "endopts");
	assert_string_equal(pc__guard_builtin(PC_GUARD_CMD, false)[0], "rm -rf /");
	assert_string_equal(pc__guard_builtin(PC_GUARD_CMD, true)[4], "echo don't panic");
	assert_string_equal(pc__guard_builtin(PC_GUARD_WRITE, false)[0], ".env");
}

/* ---- the search, on sh guards ---- */

struct fx {
	char *tmp, *ws, *home, *env_home, *env_path;
	char *envp[3];
};

static int setup(void **state)
{
	struct fx *fx = pc_xcalloc(1, sizeof(*fx));
	char *ws;

	fx->tmp = pc_fs_mkdtemp("guard-unit");
	fx->home = pc_fs_join(fx->tmp, "home");
	ws = pc_fs_join(fx->tmp, "ws");
	pc_fs_mkdir_p(fx->home, NULL);
	pc_fs_mkdir_p(ws, NULL);
	fx->ws = pc_fs_realpath(ws);
	free(ws);
	fx->env_home = pc_xasprintf("HOME=%s", fx->home);
	fx->env_path = pc_xstrdup("PATH=/usr/bin:/bin");
	fx->envp[0] = fx->env_path;
	fx->envp[1] = fx->env_home;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	pc_fs_rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx->ws);
	free(fx->home);
	free(fx->env_home);
	free(fx->env_path);
	free(fx);
	return 0;
}

/* A plugin with `script` (sh) at the points of `hooks` (JSON). */
static struct pc_plugin *plugin(struct fx *fx, const char *name,
				const char *hooks, const char *script)
{
	char *dir = pc_fs_join(fx->tmp, name);
	char *mf = pc_fs_join(dir, "plugin.json"), *sh = pc_fs_join(dir, "g.sh");
	char *m = pc_xasprintf("{\"name\":\"%s\",\"version\":\"1.0.0\",\"hooks\":%s}",
			       name, hooks);
	struct pc_manifest_env env = { fx->home, NULL };
	struct pc_plugin *p = NULL;

	tu_write_file(mf, m, 0644);
	tu_write_file(sh, script, 0755);
	assert_int_equal(pc_manifest_load(dir, &env, &p, NULL), 0);
	free(m);
	free(mf);
	free(sh);
	free(dir);
	return p;
}

static void opts(struct fx *fx, struct pc_guard_opts *o, struct pc_plugin *p,
		 int hook)
{
	*o = (struct pc_guard_opts)PC_GUARD_OPTS_INIT;
	o->plugin = p;
	o->hook = hook;
	o->envp = fx->envp;
	o->workspace = fx->ws;
	o->session = "";
	o->tmp = fx->tmp;
}

#define DENY_RM "#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *'\"rm -rf /\"'*) echo '{\"allow\":false,\"reason\":\"no\"}';; *) echo '{\"allow\":true}';; esac\n"

static void test_search_judges_seeds_and_rewrites(void **state)
{
	struct fx *fx = *state;
	struct pc_plugin *p = plugin(fx, "exact", "{\"pre_bash\":{\"script\":\"g.sh\",\"pass_args\":true}}",
				     DENY_RM);
	struct pc_guard_opts o;
	struct pc_guard_result r = PC_GUARD_RESULT_INIT;
	struct pc_report rep = PC_REPORT_INIT;
	size_t nb = 0;

	opts(fx, &o, p, PC_HOOK_PRE_BASH);
	o.families = "flags";
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	assert_false(r.inert);
	assert_int_equal(r.tries[0].verdict, PC_GUARD_DENY);	/* rm -rf / */
	assert_int_equal(r.tries[1].verdict, PC_GUARD_ALLOW);	/* rm -rf ~ */
	assert_string_equal(r.tries[0].decided_by, "pre_bash");
	assert_string_equal(r.tries[0].reason, "no");
	for (size_t i = 0; i < r.ntries; i++)
		if (r.tries[i].role == PC_GUARD_T_VARIANT) {
			assert_string_equal(r.tries[i].family, "flags");
			assert_int_equal(r.tries[i].verdict, PC_GUARD_ALLOW);
			nb++;
		}
	assert_int_equal(nb, 5);
	assert_int_equal(pc_guard_bypasses(&r), 5);
	assert_int_equal(r.inputs, 18 + 5);
	assert_int_equal(r.exchanges, 18 + 5 + 1); /* and the ordinary call */
	pc_guard_report(&r, p, &rep, "plugcheck.guard.pre_bash");
	pc_report_finish(&rep);
	assert_true(pc_report_has(&rep, "PC-GUARD-004", "hook pre_bash: rm -r -f /"));
	assert_int_equal(rep.counts.errors, 5);
	pc_report_release(&rep);
	pc_guard_result_release(&r);
	pc_plugin_free(p);
}

static void test_search_chain_and_budget(void **state)
{
	struct fx *fx = *state;
	/* pre_bash denies the seed exactly; pre_tool denies any "-r": the
	 * rewrites that keep -r are caught on the tool's path (R4.8) */
	char *t = pc_xasprintf("%s/chain/t.sh", fx->tmp);
	struct pc_guard_opts o;
	struct pc_guard_result r = PC_GUARD_RESULT_INIT;
	struct pc_plugin *p;

	tu_write_file(t, "#!/bin/sh\nctx=$(cat)\ncase \"$ctx\" in *' -r '*) echo '{\"allow\":false}';; *) echo '{\"allow\":true}';; esac\n", 0755);
	p = plugin(fx, "chain", "{\"pre_bash\":{\"script\":\"g.sh\",\"pass_args\":true},"
			       "\"pre_tool\":{\"script\":\"t.sh\",\"pass_args\":true}}",
		   DENY_RM);
	opts(fx, &o, p, PC_HOOK_PRE_BASH);
	o.families = "flags";
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	for (size_t i = 0; i < r.ntries; i++)
		if (!strcmp(r.tries[i].text, "rm -r -f /")) {
			assert_int_equal(r.tries[i].verdict, PC_GUARD_DENY);
			assert_string_equal(r.tries[i].decided_by, "pre_tool");
			assert_int_equal(r.tries[i].exchanges, 2);
		} else if (!strcmp(r.tries[i].text, "rm -fr /")) {
			assert_int_equal(r.tries[i].verdict, PC_GUARD_ALLOW);
		}
	pc_guard_result_release(&r);
	/* the budget: 20 inputs, 18 of them seeds, 2 rewrites */
	o.families = NULL;
	o.budget = 20;
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	assert_int_equal(r.inputs, 20);
	assert_string_equal(r.stopped, "the budget of 20 inputs was spent before every rewrite was tried (--budget N)");
	assert_string_equal(r.tries[18].family, "flags"); /* round 1: each family */
	assert_string_equal(r.tries[19].family, "long");
	pc_guard_result_release(&r);
	pc_plugin_free(p);
	free(t);
}

static void test_search_inert_accident_and_skips(void **state)
{
	struct fx *fx = *state;
	struct pc_plugin *p;
	struct pc_guard_opts o;
	struct pc_guard_result r = PC_GUARD_RESULT_INIT;

	/* allows all, no pass_args, reads "args": a located cause */
	p = plugin(fx, "inert", "{\"pre_bash\":{\"script\":\"g.sh\"}}",
		   "#!/bin/sh\n# reads\nc=$(cat); case \"$c\" in *'\"args\"'*) ;; esac\necho '{\"allow\":true}'\n");
	opts(fx, &o, p, PC_HOOK_PRE_BASH);
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	assert_true(r.inert);
	assert_int_equal(r.ncauses, 1);
	assert_true(r.causes[0].certain);
	assert_int_equal(r.causes[0].line, 3);
	assert_int_equal(r.causes[0].column, 26);
	pc_guard_result_release(&r);
	pc_plugin_free(p);
	/* denies every input by exiting 1: accidents, and nothing to search */
	p = plugin(fx, "fail", "{\"pre_bash\":{\"script\":\"g.sh\",\"pass_args\":true}}",
		   "#!/bin/sh\nc=$(cat); case \"$c\" in *hello*) echo '{\"allow\":true}'; exit 0;; esac\nexit 1\n");
	opts(fx, &o, p, PC_HOOK_PRE_BASH);
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	assert_int_equal(r.tries[0].verdict, PC_GUARD_ACCIDENT);
	assert_string_equal(r.tries[0].outcome, "exit");
	assert_true(r.denies_all);
	assert_non_null(strstr(r.skipped, "denies every input"));
	pc_guard_result_release(&r);
	pc_plugin_free(p);
	/* fails on the ordinary call: not searched */
	p = plugin(fx, "broken", "{\"pre_bash\":{\"script\":\"g.sh\",\"pass_args\":true}}",
		   "#!/bin/sh\nexit 3\n");
	opts(fx, &o, p, PC_HOOK_PRE_BASH);
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	assert_int_equal(r.ntries, 0);
	assert_non_null(strstr(r.skipped, "fails on an ordinary call (bash `echo hello`: hook 'pre_bash' exited with exit status: 3"));
	pc_guard_result_release(&r);
	/* not a guard point, not registered */
	o.hook = PC_HOOK_PRE_INPUT;
	assert_int_equal(pc_guard_run(&o, &r, NULL), PC_EUSAGE);
	o.hook = PC_HOOK_PRE_READ;
	assert_int_equal(pc_guard_run(&o, &r, NULL), PC_EUSAGE);
	pc_guard_result_release(&r);
	pc_plugin_free(p);
}

static void test_save_loads_back(void **state)
{
	struct fx *fx = *state;
	struct pc_plugin *p = plugin(fx, "save", "{\"pre_bash\":{\"script\":\"g.sh\",\"pass_args\":true}}",
				     DENY_RM);
	struct pc_guard_opts o;
	struct pc_guard_result r = PC_GUARD_RESULT_INIT;
	struct pc_scenario_file f = PC_SCENARIO_FILE_INIT;
	char *file = pc_fs_join(fx->tmp, "sub/b.plugcheck.yaml"), *dir = pc_fs_join(fx->tmp, "save");
	char *sub = pc_fs_join(fx->tmp, "sub");
	struct pc_err err = PC_ERR_INIT;

	pc_fs_mkdir_p(sub, NULL);
	free(sub);
	opts(fx, &o, p, PC_HOOK_PRE_BASH);
	o.families = "endopts";
	assert_int_equal(pc_guard_run(&o, &r, NULL), 0);
	assert_int_equal(pc_guard_save(file, &r, dir, &err), 1);
	assert_int_equal(pc_scenario_load(file, &f, &err), 0);
	assert_int_equal(f.nscenarios, 1);
	assert_string_equal(f.scenarios[0].steps[0].point, "pre_bash");
	assert_true(f.scenarios[0].steps[0].expects[0].is_verdict);
	assert_true(cJSON_IsFalse(f.scenarios[0].steps[0].expects[0].value));
	pc_scenario_file_release(&f);
	pc_guard_result_release(&r);
	pc_plugin_free(p);
	free(file);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_words_and_quotes),
		cmocka_unit_test(test_parse_opaque),
		cmocka_unit_test(test_commands_and_model),
		cmocka_unit_test(test_prog_prefixes),
		cmocka_unit_test(test_flags_and_long),
		cmocka_unit_test(test_quote_wrap_chain),
		cmocka_unit_test(test_target_and_space),
		cmocka_unit_test(test_abspath_and_prefix),
		cmocka_unit_test(test_paths_and_tools),
		cmocka_unit_test(test_empty_seed),
		cmocka_unit_test(test_families_list_and_corpus),
		cmocka_unit_test_setup_teardown(test_search_judges_seeds_and_rewrites, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search_chain_and_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_search_inert_accident_and_skips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_loads_back, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
