#include "pc_time.h"

#include <time.h>

int64_t pc_time_now_ms(void)
{
	return pc_time_now_us() / 1000;
}

int64_t pc_time_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int pc_time_left_ms(int64_t deadline_ms)
{
	int64_t left = deadline_ms - pc_time_now_ms();

	if (left < 0)
		return 0;
	if (left > INT32_MAX)
		return INT32_MAX;
	return (int)left;
}

uint64_t pc_time_unix_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec;
}
