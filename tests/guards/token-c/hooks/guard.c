/* A token guard in C: takes "command" out of the hook input, splits it at
 * spaces and denies `rm -rf /` and `rm -rf ~` when those are its words.
 * Built by the test: cc -o hooks/guard hooks/guard.c */
#include <stdio.h>
#include <string.h>

static char in[1 << 20], cmd[1 << 16];

/* The JSON string after "command": with \" \\ \n \t unescaped. */
static void command(void)
{
	const char *p = strstr(in, "\"command\":\"");
	size_t n = 0;

	if (!p)
		return;
	for (p += 11; *p && *p != '"' && n < sizeof(cmd) - 1; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			cmd[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		} else {
			cmd[n++] = *p;
		}
	}
	cmd[n] = '\0';
}

int main(void)
{
	size_t n = fread(in, 1, sizeof(in) - 1, stdin);
	char *w[64], *save = NULL, *t;
	int nw = 0, rf = 0, target = 0;

	in[n] = '\0';
	command();
	for (t = strtok_r(cmd, " ", &save); t && nw < 64; t = strtok_r(NULL, " ", &save))
		w[nw++] = t;
	for (int i = 1; i < nw; i++) {
		rf |= !strcmp(w[i], "-rf");
		target |= !strcmp(w[i], "/") || !strcmp(w[i], "~");
	}
	if (nw && !strcmp(w[0], "rm") && rf && target)
		puts("{\"allow\":false,\"reason\":\"token-c: refusing rm -rf of / or ~\"}");
	else
		puts("{\"allow\":true}");
	return 0;
}
