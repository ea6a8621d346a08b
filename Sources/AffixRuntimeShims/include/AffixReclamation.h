#ifndef AFFIX_RECLAMATION_H
#define AFFIX_RECLAMATION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

// Read sections for the storage's lock-free object reads, and the grace periods that let a
// writer's replaced objects be released once no reader can still be retaining them. The
// argument for why this is safe is in Docs/Architecture.md ("Reading objects without a lock").

/// One thread's reader record. Records are never freed: a thread takes a free one (or a new
/// one) on its first read and gives it back when it exits, so the list only grows to the
/// largest number of threads that read at once.
typedef struct affix_reader {
  /// Odd while the thread is inside a read section. Written only by its thread.
  _Atomic(uintptr_t) sequence;
  /// Whether the thread fences on entry (see `affix_read_begin`): fixed for the process.
  bool full_fence;
  /// Whether a thread holds the record.
  _Atomic(bool) in_use;
  /// The next record in the list of every record, fixed once published.
  struct affix_reader *next;
} affix_reader;

/// The calling thread's record, or NULL before its first read.
extern _Thread_local affix_reader *affix_current_reader;

/// Takes a record for the calling thread: the slow path of the first read on a thread.
affix_reader *affix_reader_register(void);

/// Enters a read section: until `affix_read_end`, no object retired before the section began
/// (or during it) is released. Sections do not nest and run no user code.
///
/// With the asymmetric fence (Linux, after `membarrier` registration) the entry is a plain
/// store and a compiler barrier; the reclaimer's `membarrier` supplies the other half of the
/// fence. Otherwise a full fence.
static inline affix_reader *affix_read_begin(void) {
  affix_reader *reader = affix_current_reader;
  if (__builtin_expect(reader == NULL, 0)) reader = affix_reader_register();
  uintptr_t sequence = atomic_load_explicit(&reader->sequence, memory_order_relaxed);
  atomic_store_explicit(&reader->sequence, sequence + 1, memory_order_relaxed);
  if (reader->full_fence) {
    atomic_thread_fence(memory_order_seq_cst);
  } else {
    atomic_signal_fence(memory_order_seq_cst);
  }
  return reader;
}

/// Leaves the read section entered by `affix_read_begin` on this thread.
static inline void affix_read_end(affix_reader *reader) {
  // A compiler barrier first: LLVM's Swift ARC pass moves a retain down past plain and atomic
  // stores (to pair it with a release), but never past a fence. The retain taken inside the
  // section must stay inside it.
  atomic_signal_fence(memory_order_seq_cst);
  uintptr_t sequence = atomic_load_explicit(&reader->sequence, memory_order_relaxed);
  atomic_store_explicit(&reader->sequence, sequence + 1, memory_order_release);
}

/// Waits for a grace period: returns once every read section that began before the call has
/// ended. Objects a writer made unreachable before the call may be released after it. Never
/// call it inside a read section, or while holding a lock a reader may take.
void affix_synchronize(void);

/// Whether readers use the asymmetric fence (false: every read section fences fully).
bool affix_reads_use_asymmetric_fence(void);

/// How many reader records exist, and how many of them threads hold; for tests.
void affix_reader_record_counts(long *records, long *in_use);

#endif
