#ifndef AFFIX_RECLAMATION_H
#define AFFIX_RECLAMATION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

// Read sections for the storage's lock-free object reads, and the grace periods that let a
// writer's replaced objects be released once no reader can still be retaining them. The
// argument for why this is safe is in Docs/Internals/Reads.md ("Reading objects without a lock").

/// The low bits of a record's word count the sections the thread is inside (a signal handler,
/// or user code that a retain runs, may open one inside another); the high bits count the
/// outermost sections the thread has left, so that a reclaimer can tell "still inside the
/// section I saw" from "inside a later one".
#define AFFIX_READ_DEPTH_BITS 16
#define AFFIX_READ_DEPTH_MASK ((uintptr_t)((1u << AFFIX_READ_DEPTH_BITS) - 1))

/// One thread's reader record. Records are never freed: a thread takes a free one (or a new
/// one) on its first read and gives it back when it exits, so the list only grows to the
/// largest number of threads that read at once.
typedef struct affix_reader {
  /// The section depth and the count of outermost sections left (see above). Written only by
  /// its thread, and by a signal handler running on it, which leaves it as it found it.
  _Atomic(uintptr_t) word;
  /// Whether the thread fences on entry (see `affix_read_begin`).
  bool full_fence;
  /// Whether a thread holds the record.
  _Atomic(bool) in_use;
  /// The next record in the list of every record, fixed once published.
  struct affix_reader *next;
} affix_reader;

/// The calling thread's record, or NULL before its first read.
extern _Thread_local affix_reader *affix_current_reader;

/// Takes a record for the calling thread: the slow path of the first read on a thread. Takes
/// no lock and, for the first 64 threads, allocates nothing, so that a signal handler may make
/// a thread's first read.
affix_reader *affix_reader_register(void);

/// Enters a read section: until the matching `affix_read_end`, no object retired before the
/// section began (or during it) is released. Sections nest.
///
/// With the asymmetric fence (Linux, after `membarrier` registration) the entry is a plain
/// store and a compiler barrier; the reclaimer's `membarrier` supplies the other half of the
/// fence. Otherwise a full fence.
///
/// Async-signal-safe: a handler that interrupts this between the load and the store runs a
/// whole section of its own, which leaves the word's depth as it found it; the store then
/// opens this section as if the handler had not run.
static inline affix_reader *affix_read_begin(void) {
  affix_reader *reader = affix_current_reader;
  if (__builtin_expect(reader == NULL, 0)) reader = affix_reader_register();
  uintptr_t word = atomic_load_explicit(&reader->word, memory_order_relaxed);
  atomic_store_explicit(&reader->word, word + 1, memory_order_relaxed);
  if (reader->full_fence) {
    atomic_thread_fence(memory_order_seq_cst);
  } else {
    atomic_signal_fence(memory_order_seq_cst);
  }
  return reader;
}

/// Leaves the read section entered by the matching `affix_read_begin` on this thread.
static inline void affix_read_end(affix_reader *reader) {
  // A compiler barrier first: LLVM's Swift ARC pass moves a retain down past plain and atomic
  // stores (to pair it with a release), but never past a fence. The retain taken inside the
  // section must stay inside it.
  atomic_signal_fence(memory_order_seq_cst);
  uintptr_t word = atomic_load_explicit(&reader->word, memory_order_relaxed);
  // Leaving the outermost section counts it: depth 1 becomes depth 0 of the next count.
  uintptr_t next = (word & AFFIX_READ_DEPTH_MASK) == 1
                       ? word - 1 + (AFFIX_READ_DEPTH_MASK + 1)
                       : word - 1;
  atomic_store_explicit(&reader->word, next, memory_order_release);
}

/// Whether the calling thread is inside a read section: it must not wait for a grace period,
/// which would wait for itself.
static inline bool affix_inside_read_section(void) {
  affix_reader *reader = affix_current_reader;
  return reader != NULL &&
         (atomic_load_explicit(&reader->word, memory_order_relaxed) & AFFIX_READ_DEPTH_MASK) != 0;
}

/// Waits for a grace period: returns once every read section that began before the call has
/// ended. Objects a writer made unreachable before the call may be released after it. Never
/// call it inside a read section (see `affix_inside_read_section`), or while holding a lock a
/// reader may take.
///
/// Returns 0, or the `errno` of a `membarrier` that failed (`ENOMEM` under memory pressure):
/// the grace period was then completed by the slower fallbacks described in the source, and
/// the caller may report it.
int affix_synchronize(void);

/// Whether readers use the asymmetric fence (false: every read section fences fully).
bool affix_reads_use_asymmetric_fence(void);

/// How many reader records exist, and how many of them threads hold; for tests.
void affix_reader_record_counts(long *records, long *in_use);

/// The calling thread's retirement shard off the main queue: one of 1 ..< `shards`, handed out
/// in turn as threads first retire, so that two writing threads share a shard only once more
/// threads write than there are shards. (Shard 0 is the main queue's, whichever thread runs
/// it: the caller asks Dispatch, per retirement.)
unsigned affix_retire_shard(unsigned shards);

/// How many releases of retired objects the calling thread has under way: a retirement made
/// from a value's deinit during one leaves its batch to others instead of starting another.
extern _Thread_local unsigned affix_thread_release_depth;

/// Whether the calling thread is releasing retired objects (see above).
static inline bool affix_is_releasing(void) { return affix_thread_release_depth != 0; }

/// Counts a release of retired objects as under way on the calling thread.
static inline void affix_release_begin(void) { affix_thread_release_depth += 1; }

/// Ends a release counted by `affix_release_begin`.
static inline void affix_release_end(void) { affix_thread_release_depth -= 1; }

/// How many writes of the core (the version of a storage or of the table odd) the calling
/// thread is inside; counted in debug builds only, where a read that would wait for one of
/// them, from a signal handler that interrupted it, stops instead of hanging.
extern _Thread_local unsigned affix_thread_write_depth;

/// Counts a write of the core as begun on the calling thread (debug builds).
static inline void affix_write_began(void) { affix_thread_write_depth += 1; }

/// Ends a write counted by `affix_write_began`.
static inline void affix_write_ended(void) { affix_thread_write_depth -= 1; }

/// Whether the calling thread is inside a write counted by `affix_write_began`.
static inline bool affix_is_inside_write(void) { return affix_thread_write_depth != 0; }

/// For the fork handlers: resets what the child inherited from threads that do not exist in
/// it. Every record but the calling thread's is given back with its depth cleared, and the
/// calling thread's shard is chosen again (it is the child's main thread).
void affix_reclamation_after_fork_in_child(void);

/// Registers `prepare`, `parent` and `child` with `pthread_atfork`, once per process.
void affix_register_fork_handlers(void (*prepare)(void), void (*parent)(void),
                                  void (*child)(void));

/// For tests, defined only with AFFIX_TEST_SEAMS (the TestSeams trait): makes the set-up of
/// read sections look under way (`under_way` true) or lets it
/// finish, so that a test can show that a first read during set-up (a signal handler
/// interrupting it) neither waits nor deadlocks.
void affix_reclamation_test_set_up_under_way(bool under_way);

/// For tests: whether the calling thread's record fences fully.
bool affix_reclamation_test_current_reader_fences_fully(void);

/// For tests, defined only with AFFIX_TEST_SEAMS: makes the next `count` expedited
/// `membarrier` calls fail as with `ENOMEM`.
void affix_reclamation_test_fail_membarrier(int count);

/// For tests, defined only with AFFIX_TEST_SEAMS: how many of those failures are still to come.
int affix_reclamation_test_pending_membarrier_failures(void);

#endif
