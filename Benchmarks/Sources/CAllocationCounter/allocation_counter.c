// Allocation counting without LD_PRELOAD: a definition of malloc & co. in the executable comes
// first in the dynamic linker's search order, so every shared library (the Swift runtime,
// Foundation, libcurl, SwiftNIO) calls these. Each forwards to glibc's own entry points
// (__libc_malloc …), so the allocator itself is unchanged.
//
// Counting is off unless started: a shared atomic counter bumped from every thread would cost
// the throughput runs a few percent, so only the dedicated allocation runs switch it on.
#define _GNU_SOURCE
#include "allocation_counter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

#if defined(__linux__) && defined(__GLIBC__)

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static atomic_bool counting;
static atomic_ulong allocations;

static inline void note_allocation(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

// Every realloc counts: it may move the block, which is the cost being counted.
void *realloc(void *pointer, size_t size) {
    note_allocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

// The Swift runtime allocates over-aligned objects through these; glibc's free releases them.
void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: a power of two and a multiple of sizeof(void *), else EINVAL (glibc checks the same).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    note_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    note_allocation();
    return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void allocation_counter_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
}

unsigned long allocation_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocations);
}

#else

// Elsewhere (macOS) nothing is interposed: the figure reads 0 and the report says "n/a".
void allocation_counter_start(void) {}
unsigned long allocation_counter_stop(void) { return 0; }

#endif
