/* test_cli_man.c - pc_cmd_man() (conformance/cli/cli_man.c), the man page
 * generator, on a command table of its own whose texts hold what roff
 * would misread: a line starting with '.' or '\'', backslashes, minus
 * signs, paragraphs split by empty lines, a paragraph longer than any
 * buffer, and options of one contract. (test_man.py checks the real
 * table's page against --help.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pc_cmd.h"

static const struct pc_opt opts[] = {
	{ .name = "dry-run",
	  .short_name = 'n',
	  .kind = PC_OPT_FLAG,
	  .help = "say what would be done\n.not a request" },
	{ .name = "key",
	  .kind = PC_OPT_VALUE,
	  .metavar = "FILE",
	  .help = "C:\\keys\\a-b",
	  .contracts = PC_C_CHATCLI },
	{ .name = "repeat",
	  .kind = PC_OPT_VALUE,
	  .metavar = "N",
	  .help = "firings",
	  .contracts = PC_C_CATALYST },
};

static char long_paragraph[8000];

static struct pc_cmd zap = {
	.name = "zap",
	.summary = "zap a plugin",
	.synopsis = { "PATH [options]", "EXE [options]" },
	.description = { "First line.\n'quoted start\n\n\nSecond paragraph.\n",
			 NULL },
	.exits = "Exit: 0 zapped.\n",
	.opts = opts,
	.nopts = 3,
};

const struct pc_cmd *const pc_cmds[] = { &zap };
const size_t pc_ncmds = 1;
const struct pc_exit_doc pc_exit_docs[] = { { 0, "fine" },
					    { 70, "broken\n-badly" } };
const size_t pc_nexit_docs = 2;

static char *man(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	pc_cmd_man(f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* the `n` bytes of `page` after `mark` (a static copy; "" without it) */
static const char *after(const char *page, const char *mark, size_t n)
{
	static char out[16384];
	const char *p = strstr(page, mark);

	if (!p || n >= sizeof(out))
		return "";
	p += strlen(mark);
	snprintf(out, sizeof(out), "%.*s", (int)n, p);
	return out;
}

static void section_escapes_what_roff_would_misread(void **state)
{
	char *page = man();
	const char *want =
		".SS zap\n"
		"zap a plugin.\n"
		".PP\n"
		"\\fBplugcheck zap\\fR PATH [options] (Catalyst Code)\n"
		".br\n"
		"\\fBplugcheck zap\\fR EXE [options] (ChatCLI)\n"
		".PP\n"
		"First line.\n"
		"\\&'quoted start\n"
		".PP\n"
		"Second paragraph.\n"
		".PP\n"
		"Options:\n"
		".TP\n"
		"\\fB\\-n\\fR, \\fB\\-\\-dry\\-run\\fR\n"
		"say what would be done\n"
		"\\&.not a request\n"
		".TP\n"
		"\\fB\\-\\-key\\fR \\fIFILE\\fR\n"
		"C:\\ekeys\\ea\\-b (ChatCLI)\n"
		".TP\n"
		"\\fB\\-\\-repeat\\fR \\fIN\\fR\n"
		"firings (Catalyst Code)\n"
		".TP\n"
		"\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"
		"show this help\n"
		".PP\n"
		"Exit: 0 zapped.\n"
		".SH EXIT STATUS\n"
		".TP\n.B 0\nfine\n"
		".TP\n.B 70\nbroken\n\\-badly\n"
		".SH ENVIRONMENT\n";

	(void)state;
	assert_string_equal(after(page, ".SH COMMANDS\n", strlen(want)), want);
	free(page);
}

/* a paragraph of 8000 bytes comes out whole (no line buffer cuts it) */
static void long_paragraphs_are_kept_whole(void **state)
{
	char *page, want[sizeof(long_paragraph) + 1];
	size_t n = sizeof(long_paragraph) - 1;

	(void)state;
	for (size_t i = 0; i < n; i++)
		long_paragraph[i] = i % 80 == 79 ? '\n' : 'x';
	zap.description[1] = long_paragraph;
	page = man();
	zap.description[1] = NULL;
	memcpy(want, long_paragraph, n);
	want[n] = '\n'; /* the newline ending its last line */
	want[n + 1] = '\0';
	assert_string_equal(after(page, ".PP\n\\fBChatCLI.\\fR\n", n + 1),
			    want);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(section_escapes_what_roff_would_misread),
		cmocka_unit_test(long_paragraphs_are_kept_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
