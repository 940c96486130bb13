#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Starts counting calls of malloc, calloc, realloc and the aligned allocators, process-wide.
void allocation_counter_start(void);

/// Stops counting and returns the calls counted since the last start.
unsigned long allocation_counter_stop(void);

#endif
