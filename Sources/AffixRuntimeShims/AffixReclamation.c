#include "AffixReclamation.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
// The values of <linux/membarrier.h>, part of the kernel's stable ABI; spelled out so that a
// C library installed without the kernel's headers (a Musl build) compiles this too.
#define AFFIX_MEMBARRIER_CMD_GLOBAL (1 << 0)
#define AFFIX_MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define AFFIX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#if !defined(SYS_membarrier) && defined(__NR_membarrier)
#define SYS_membarrier __NR_membarrier
#endif
#endif

_Thread_local affix_reader *affix_current_reader = NULL;

/// Every record ever made, newest first.
static _Atomic(affix_reader *) affix_readers = NULL;

/// Records for the first threads, so that a thread's first read allocates nothing (a signal
/// handler may not call malloc). Taken in order by `affix_pool_next`.
#define AFFIX_POOLED_READERS 64
static affix_reader affix_reader_pool[AFFIX_POOLED_READERS];
static _Atomic(unsigned) affix_pool_next = 0;

/// The set-up of read sections: 0 before it, 1 while one thread runs it, 2 once done. Not a
/// `pthread_once`: a signal handler that reads while its own thread runs the set-up would wait
/// for itself forever. A thread that finds the set-up under way fences fully instead, which is
/// always safe: a full fence is stronger than the half that `membarrier` completes.
static _Atomic(int) affix_set_up_state = 0;
static _Atomic(bool) affix_asymmetric_fence = false;

#ifdef AFFIX_TEST_SEAMS
// The tests' switches (the TestSeams trait): a set-up held under way, failing `membarrier`s.
// Without the trait they are constants, and a library a package depends on holds none.
static _Atomic(bool) affix_test_holds_set_up = false;
static _Atomic(int) affix_test_membarrier_failures = 0;

static inline bool affix_test_holding_set_up(void) {
  return atomic_load_explicit(&affix_test_holds_set_up, memory_order_acquire);
}

/// Whether a test asked for this expedited `membarrier` to fail; takes one of the failures.
static inline bool affix_test_takes_membarrier_failure(void) {
  if (atomic_load_explicit(&affix_test_membarrier_failures, memory_order_relaxed) <= 0) {
    return false;
  }
  atomic_fetch_sub_explicit(&affix_test_membarrier_failures, 1, memory_order_relaxed);
  return true;
}
#else
static inline bool affix_test_holding_set_up(void) { return false; }
static inline bool affix_test_takes_membarrier_failure(void) { return false; }
#endif

static pthread_key_t affix_reader_key;

static void affix_reader_release(void *record) {
  affix_reader *reader = record;
  // A thread exits between read sections, so the depth is 0: a reclaimer never waits on a
  // free record, and the next thread to take it continues its count.
  affix_current_reader = NULL;
  atomic_store_explicit(&reader->in_use, false, memory_order_release);
}

/// Runs the set-up if no thread has begun it; returns whether it is done.
static bool affix_set_up(void) {
  int state = atomic_load_explicit(&affix_set_up_state, memory_order_acquire);
  if (state == 2) return true;
  if (state == 1) return false;
  int expected = 0;
  if (!atomic_compare_exchange_strong_explicit(&affix_set_up_state, &expected, 1,
                                               memory_order_acq_rel, memory_order_acquire)) {
    return expected == 2;
  }
  (void)pthread_key_create(&affix_reader_key, affix_reader_release);
  bool asymmetric = false;
#if defined(__linux__) && defined(SYS_membarrier)
#ifdef AFFIX_TEST_SEAMS
  // A test switch (the TestSeams trait): forces the full fence, so that its path runs here.
  const char *fence = getenv("AFFIX_READ_FENCE");
  bool forced_full = fence != NULL && strcmp(fence, "full") == 0;
#else
  bool forced_full = false;
#endif
  // Registration fails on kernels before 4.14 and where a container's seccomp profile denies
  // the call; readers then fence fully.
  if (!forced_full &&
      syscall(SYS_membarrier, AFFIX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    asymmetric = true;
  }
#endif
  atomic_store_explicit(&affix_asymmetric_fence, asymmetric, memory_order_relaxed);
  atomic_store_explicit(&affix_set_up_state, 2, memory_order_release);
  return true;
}

/// Waits for the set-up, for the reclaimer: it must know whether readers may rely on
/// `membarrier`. Never called from a signal handler.
static void affix_wait_for_set_up(void) {
  while (!affix_set_up() || affix_test_holding_set_up()) {
    (void)sched_yield();
  }
}

bool affix_reads_use_asymmetric_fence(void) {
  affix_wait_for_set_up();
  return atomic_load_explicit(&affix_asymmetric_fence, memory_order_relaxed);
}

static affix_reader *affix_new_record(void) {
  unsigned index = atomic_fetch_add_explicit(&affix_pool_next, 1, memory_order_relaxed);
  if (index < AFFIX_POOLED_READERS) return &affix_reader_pool[index];
  affix_reader *reader = malloc(sizeof(affix_reader));
  if (reader == NULL) abort();
  return reader;
}

affix_reader *affix_reader_register(void) {
  bool ready = affix_set_up() && !affix_test_holding_set_up();
  bool full_fence = !ready || !atomic_load_explicit(&affix_asymmetric_fence, memory_order_relaxed);
  affix_reader *reader = NULL;
  for (affix_reader *record = atomic_load_explicit(&affix_readers, memory_order_acquire);
       record != NULL; record = record->next) {
    bool expected = false;
    if (!atomic_load_explicit(&record->in_use, memory_order_relaxed)) {
      if (atomic_compare_exchange_strong_explicit(&record->in_use, &expected, true,
                                                  memory_order_acquire, memory_order_relaxed)) {
        reader = record;
        break;
      }
    }
  }
  if (reader == NULL) {
    reader = affix_new_record();
    atomic_init(&reader->word, 0);
    atomic_init(&reader->in_use, true);
    reader->full_fence = full_fence;
    affix_reader *head = atomic_load_explicit(&affix_readers, memory_order_relaxed);
    do {
      reader->next = head;
    } while (!atomic_compare_exchange_weak_explicit(&affix_readers, &head, reader,
                                                    memory_order_release, memory_order_relaxed));
  } else {
    // Only this thread reads the field, and it holds the record now.
    reader->full_fence = full_fence;
  }
  affix_current_reader = reader;
  // Gives the record back when the thread exits. Set again if a thread reads while its
  // thread-specific data is being destroyed; the C library then runs the destructor again.
  // Before the set-up the key does not exist: the record then stays with its thread.
  if (ready) (void)pthread_setspecific(affix_reader_key, reader);
  return reader;
}

static void affix_wait_briefly(unsigned attempt) {
  if (attempt < 64) {
    (void)sched_yield();
  } else {
    struct timespec pause = {0, 50000};
    (void)nanosleep(&pause, NULL);
  }
}

#if defined(__linux__) && defined(SYS_membarrier)
/// The other half of every asymmetric reader's fence. The expedited command interrupts every
/// running thread of the process and can fail with ENOMEM (it allocates a CPU mask) under
/// memory pressure; the global command waits for every CPU to pass through the scheduler
/// instead, allocates nothing, and is slower. Failing both (a nohz_full kernel refuses the
/// global one), the call is retried until one succeeds: no grace period ends early.
static int affix_membarrier(void) {
  int first_error = 0;
  for (unsigned attempt = 0;; attempt++) {
    long result;
    if (affix_test_takes_membarrier_failure()) {
      result = -1;
      errno = ENOMEM;
    } else {
      result = syscall(SYS_membarrier, AFFIX_MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    }
    if (result == 0) return first_error;
    if (first_error == 0) first_error = errno;
    if (syscall(SYS_membarrier, AFFIX_MEMBARRIER_CMD_GLOBAL, 0, 0) == 0) return first_error;
    affix_wait_briefly(attempt);
  }
}
#endif

int affix_synchronize(void) {
  int error = 0;
  bool asymmetric = affix_reads_use_asymmetric_fence();
#if defined(__linux__) && defined(SYS_membarrier)
  if (asymmetric) {
    // Every running thread of the process executes a full fence before this returns, and
    // every other one passes through the scheduler's: the other half of the readers' fence.
    error = affix_membarrier();
  } else {
    atomic_thread_fence(memory_order_seq_cst);
  }
#else
  (void)asymmetric;
  atomic_thread_fence(memory_order_seq_cst);
#endif
  for (affix_reader *record = atomic_load_explicit(&affix_readers, memory_order_acquire);
       record != NULL; record = record->next) {
    uintptr_t seen = atomic_load_explicit(&record->word, memory_order_acquire);
    if ((seen & AFFIX_READ_DEPTH_MASK) == 0) continue;
    // Inside a section that may have loaded a retired object: wait until the thread leaves
    // its outermost section, which advances the count above the depth. A section is a few
    // dozen instructions, so this waits only while its thread is preempted.
    uintptr_t count = seen & ~AFFIX_READ_DEPTH_MASK;
    for (unsigned attempt = 0;; attempt++) {
      uintptr_t now = atomic_load_explicit(&record->word, memory_order_acquire);
      if ((now & AFFIX_READ_DEPTH_MASK) == 0 || (now & ~AFFIX_READ_DEPTH_MASK) != count) break;
      affix_wait_briefly(attempt);
    }
  }
  return error;
}

void affix_reader_record_counts(long *records, long *in_use) {
  long total = 0, held = 0;
  for (affix_reader *record = atomic_load_explicit(&affix_readers, memory_order_acquire);
       record != NULL; record = record->next) {
    total += 1;
    if (atomic_load_explicit(&record->in_use, memory_order_acquire)) held += 1;
  }
  *records = total;
  *in_use = held;
}

// MARK: Retirement shards

_Thread_local unsigned affix_thread_release_depth = 0;
_Thread_local unsigned affix_thread_write_depth = 0;

/// 0 until the thread first retires; then its shard plus one.
static _Thread_local unsigned affix_thread_shard = 0;
static _Atomic(unsigned) affix_next_shard = 0;

unsigned affix_retire_shard(unsigned shards) {
  unsigned shard = affix_thread_shard;
  if (__builtin_expect(shard != 0, 1)) return shard - 1;
  shard = shards < 2 ? 0
                     : 1 + atomic_fetch_add_explicit(&affix_next_shard, 1, memory_order_relaxed) %
                               (shards - 1);
  affix_thread_shard = shard + 1;
  return shard;
}

// MARK: fork

void affix_reclamation_after_fork_in_child(void) {
  // Only the forking thread exists in the child. Records other threads held are free now;
  // a record left inside a section (its thread was reading at the fork) would otherwise make
  // every grace period wait forever.
  for (affix_reader *record = atomic_load_explicit(&affix_readers, memory_order_acquire);
       record != NULL; record = record->next) {
    if (record == affix_current_reader) continue;
    uintptr_t word = atomic_load_explicit(&record->word, memory_order_relaxed);
    atomic_store_explicit(&record->word, (word & ~AFFIX_READ_DEPTH_MASK) + (AFFIX_READ_DEPTH_MASK + 1),
                          memory_order_relaxed);
    atomic_store_explicit(&record->in_use, false, memory_order_relaxed);
  }
  affix_thread_shard = 0;
  // A set-up under way on another thread at the fork never finishes in the child: run it.
  int under_way = 1;
  (void)atomic_compare_exchange_strong_explicit(&affix_set_up_state, &under_way, 0,
                                                memory_order_acq_rel, memory_order_acquire);
  atomic_thread_fence(memory_order_seq_cst);
}

static pthread_once_t affix_fork_handlers_once = PTHREAD_ONCE_INIT;
static void (*affix_fork_prepare)(void);
static void (*affix_fork_parent)(void);
static void (*affix_fork_child)(void);

static void affix_install_fork_handlers(void) {
  (void)pthread_atfork(affix_fork_prepare, affix_fork_parent, affix_fork_child);
}

void affix_register_fork_handlers(void (*prepare)(void), void (*parent)(void),
                                  void (*child)(void)) {
  // Called once, from a Swift lazy global (ForkHandlers.installed): the stores need no
  // ordering of their own, and pthread_once publishes them to the handlers.
  affix_fork_prepare = prepare;
  affix_fork_parent = parent;
  affix_fork_child = child;
  (void)pthread_once(&affix_fork_handlers_once, affix_install_fork_handlers);
}

// MARK: Tests

#ifdef AFFIX_TEST_SEAMS
void affix_reclamation_test_set_up_under_way(bool under_way) {
  if (under_way) affix_wait_for_set_up();
  atomic_store_explicit(&affix_test_holds_set_up, under_way, memory_order_release);
}
#endif

bool affix_reclamation_test_current_reader_fences_fully(void) {
  affix_reader *reader = affix_current_reader;
  return reader != NULL && reader->full_fence;
}

#ifdef AFFIX_TEST_SEAMS
void affix_reclamation_test_fail_membarrier(int count) {
  atomic_store_explicit(&affix_test_membarrier_failures, count, memory_order_relaxed);
}

int affix_reclamation_test_pending_membarrier_failures(void) {
  return atomic_load_explicit(&affix_test_membarrier_failures, memory_order_relaxed);
}
#endif
