/* fake_plugin - a self-describing misbehaving plugin; argv[1] picks the
 * behaviour (STYLE §G 40). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "echo-json")) {
		puts("{\"allow\":true}");
		return 0;
	}
	return 2;
}
