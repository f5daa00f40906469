#include <stdio.h>

int main(void)
{
	puts("plugcheck " PC_VERSION);
	return 0;
}
