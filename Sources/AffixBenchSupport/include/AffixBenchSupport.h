#ifndef AFFIX_BENCH_SUPPORT_H
#define AFFIX_BENCH_SUPPORT_H

#include <stddef.h>

/// Bytes currently allocated by malloc in this process, or -1 where the C library cannot say.
long affix_bench_allocated_bytes(void);

/// Consumes a value the optimizer cannot see through: it is compiled apart from every caller,
/// so a benchmark's result stays live and its work cannot be deleted.
void affix_bench_consume(const void *value, size_t size);

#endif
