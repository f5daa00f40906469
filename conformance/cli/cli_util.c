#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pc_cli.h"
#include "pc_serde.h"

int pc_cli_format(const char *s)
{
	if (!strcmp(s, "human"))
		return PC_FMT_HUMAN;
	if (!strcmp(s, "json"))
		return PC_FMT_JSON;
	return -1;
}

void pc_cli_print_json(cJSON *v)
{
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);

	pc_serde_print_pretty(v, &b);
	fwrite(pc_buf_cstr(&b), 1, b.len, stdout);
	fputc('\n', stdout);
	pc_buf_release(&b);
	cJSON_Delete(v);
}

struct pc_manifest_env pc_cli_manifest_env(void)
{
	struct pc_manifest_env e = { getenv("HOME"), getenv("CODEX_HOME") };

	if (!e.home)
		e.home = getenv("USERPROFILE");
	return e;
}

bool pc_cli_color(void)
{
	return isatty(1) && !getenv("NO_COLOR");
}

