/* pc_time.h - monotonic time in milliseconds and absolute deadlines.
 * CLOCK_MONOTONIC only: wall-clock time never decides a timeout. */
#ifndef PC_TIME_H
#define PC_TIME_H

#include <stdint.h>

/* pc_time_now_ms - CLOCK_MONOTONIC now, in ms. */
int64_t pc_time_now_ms(void);
/* pc_time_now_us - CLOCK_MONOTONIC now, in microseconds. */
int64_t pc_time_now_us(void);
/* pc_time_left_ms - ms from now until `deadline_ms` (a pc_time_now_ms()
 * value), clamped to [0, INT32_MAX] for poll(). */
int pc_time_left_ms(int64_t deadline_ms);
/* pc_time_unix_s - CLOCK_REALTIME seconds, for the `timestamp` fields the
 * host writes into stdin contexts (never for deadlines). */
uint64_t pc_time_unix_s(void);

#endif
