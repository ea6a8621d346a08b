#include "AffixReclamation.h"

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
#define AFFIX_MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define AFFIX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#if !defined(SYS_membarrier) && defined(__NR_membarrier)
#define SYS_membarrier __NR_membarrier
#endif
#endif

_Thread_local affix_reader *affix_current_reader = NULL;

/// Every record ever made, newest first.
static _Atomic(affix_reader *) affix_readers = NULL;

static pthread_once_t affix_reclamation_once = PTHREAD_ONCE_INIT;
static pthread_key_t affix_reader_key;
static bool affix_asymmetric_fence = false;

static void affix_reader_release(void *record) {
  affix_reader *reader = record;
  // A thread exits between read sections, so the sequence is even: a reclaimer never waits on
  // a free record, and the next thread to take it continues its sequence.
  affix_current_reader = NULL;
  atomic_store_explicit(&reader->in_use, false, memory_order_release);
}

static void affix_reclamation_init(void) {
  (void)pthread_key_create(&affix_reader_key, affix_reader_release);
#if defined(__linux__) && defined(SYS_membarrier)
  const char *fence = getenv("AFFIX_READ_FENCE");
  bool forced_full = fence != NULL && strcmp(fence, "full") == 0;
  // Registration fails on kernels before 4.14 and where a container's seccomp profile denies
  // the call; readers then fence fully, and so does every reader after, as the mode is fixed
  // before any record exists.
  if (!forced_full &&
      syscall(SYS_membarrier, AFFIX_MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    affix_asymmetric_fence = true;
  }
#endif
}

bool affix_reads_use_asymmetric_fence(void) {
  (void)pthread_once(&affix_reclamation_once, affix_reclamation_init);
  return affix_asymmetric_fence;
}

affix_reader *affix_reader_register(void) {
  bool asymmetric = affix_reads_use_asymmetric_fence();
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
    reader = malloc(sizeof(affix_reader));
    if (reader == NULL) abort();
    atomic_init(&reader->sequence, 0);
    reader->full_fence = !asymmetric;
    atomic_init(&reader->in_use, true);
    affix_reader *head = atomic_load_explicit(&affix_readers, memory_order_relaxed);
    do {
      reader->next = head;
    } while (!atomic_compare_exchange_weak_explicit(&affix_readers, &head, reader,
                                                    memory_order_release, memory_order_relaxed));
  }
  affix_current_reader = reader;
  // Gives the record back when the thread exits. Set again if a thread reads while its
  // thread-specific data is being destroyed; the C library then runs the destructor again.
  (void)pthread_setspecific(affix_reader_key, reader);
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

void affix_synchronize(void) {
  bool asymmetric = affix_reads_use_asymmetric_fence();
#if defined(__linux__) && defined(SYS_membarrier)
  if (asymmetric) {
    // Every running thread of the process executes a full fence before this returns, and
    // every other one passes through the scheduler's: the other half of the readers' fence.
    if (syscall(SYS_membarrier, AFFIX_MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) abort();
  } else {
    atomic_thread_fence(memory_order_seq_cst);
  }
#else
  (void)asymmetric;
  atomic_thread_fence(memory_order_seq_cst);
#endif
  for (affix_reader *record = atomic_load_explicit(&affix_readers, memory_order_acquire);
       record != NULL; record = record->next) {
    uintptr_t seen = atomic_load_explicit(&record->sequence, memory_order_acquire);
    if ((seen & 1) == 0) continue;
    // Inside a section that may have loaded a retired object: wait until it leaves. A section
    // is a few dozen instructions, so this waits only while its thread is preempted.
    for (unsigned attempt = 0;
         atomic_load_explicit(&record->sequence, memory_order_acquire) == seen; attempt++) {
      affix_wait_briefly(attempt);
    }
  }
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
