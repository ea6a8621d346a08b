#ifndef AFFIX_BENCH_SUPPORT_H
#define AFFIX_BENCH_SUPPORT_H

#include <stddef.h>

/// Bytes currently allocated by malloc in this process, or -1 where the C library cannot say.
long affix_bench_allocated_bytes(void);

#endif
