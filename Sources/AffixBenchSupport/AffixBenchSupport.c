#include "AffixBenchSupport.h"

#include <stdlib.h>

static volatile unsigned char affix_bench_sink;

void affix_bench_consume(const void *value, size_t size) {
  const unsigned char *bytes = value;
  for (size_t index = 0; index < size; index++) affix_bench_sink ^= bytes[index];
}

#if defined(__GLIBC__)
#include <malloc.h>
long affix_bench_allocated_bytes(void) {
  struct mallinfo2 info = mallinfo2();
  return (long)info.uordblks;
}
#elif defined(__APPLE__)
#include <malloc/malloc.h>
long affix_bench_allocated_bytes(void) {
  malloc_statistics_t stats;
  malloc_zone_statistics(NULL, &stats);
  return (long)stats.size_in_use;
}
#else
long affix_bench_allocated_bytes(void) { return -1; }
#endif
