/* trivial_hook.c - the cheapest possible Catalyst Code hook: read all of
 * stdin (the host closes it after writing the context), then allow.
 * Built as its own executable for bench_fire. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[16384];
	ssize_t n;

	for (;;) {
		n = read(0, buf, sizeof(buf));
		if (n > 0 || (n < 0 && errno == EINTR))
			continue;
		break;
	}
	fputs("{\"allow\":true}\n", stdout);
	return 0;
}
