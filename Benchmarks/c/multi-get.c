// The ceiling: libcurl's multi interface driven directly from C, with nothing between the
// application and libcurl but a reused easy handle and a reused body buffer per slot.
//
//   multi-get BASE-URL WORKLOAD [SECONDS]
//
// WORKLOAD is one of the Swift benchmark's (get13x1, get13x64, get1mx8, get10mx1, post64kx16,
// burst2000, allocs, once); it prints the same one-line JSON record, so Benchmarks/run treats it
// as one more client. Built by Benchmarks/run with `cc -O2 ... -lcurl`.
//
// The h2 workloads (h2get13x64, ...), given nginx's https BASE-URL, run over HTTP/2 multiplexed on
// one connection, negotiated by ALPN, the certificate not verified (Benchmarks/run's is
// self-signed), as the Swift clients curl-h2 and ahc-h2 do.
#define _GNU_SOURCE
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "allocation_counter.h"

typedef struct {
    CURL *easy;
    char *body;
    size_t length;
    size_t capacity;
} Slot;

typedef struct {
    const char *path;
    int width;          // transfers in flight
    long total;         // > 0: a fixed number of requests (burst, allocs, once); 0: time-based
    size_t expected;    // body bytes each response must have
    size_t post_bytes;  // > 0: POST this many bytes
} Workload;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    Slot *slot = context;
    size_t bytes = size * count;
    if (slot->length + bytes > slot->capacity) {
        // Grow geometrically and keep the buffer for the next response on this slot.
        size_t capacity = slot->capacity ? slot->capacity : 16384;
        while (capacity < slot->length + bytes) capacity *= 2;
        char *grown = realloc(slot->body, capacity);
        if (grown == NULL) return 0;  // makes libcurl fail the transfer with CURLE_WRITE_ERROR
        slot->body = grown;
        slot->capacity = capacity;
    }
    memcpy(slot->body + slot->length, data, bytes);
    slot->length += bytes;
    return bytes;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static long resident_kib(void) {
    FILE *file = fopen("/proc/self/statm", "r");
    long pages_total = 0, pages_resident = 0;
    if (file == NULL) return 0;
    if (fscanf(file, "%ld %ld", &pages_total, &pages_resident) != 2) pages_resident = 0;
    fclose(file);
    return pages_resident * 4;
}

static int find_workload(const char *name, Workload *out) {
    static const struct { const char *name; Workload workload; } table[] = {
        {"get13x1", {"/small", 1, 0, 13, 0}},
        {"get13x64", {"/small", 64, 0, 13, 0}},
        {"get1mx8", {"/1m", 8, 0, 1 << 20, 0}},
        {"get10mx1", {"/10m", 1, 0, 10 << 20, 0}},
        {"post64kx16", {"/post", 16, 0, 2, 64 << 10}},
        {"burst2000", {"/small", 2000, 2000, 13, 0}},
        // The h2 rows: the same requests multiplexed on one connection; the upload goes to
        // /upload, where nginx reads the body (over HTTP/2, a body it skips counts as a flood).
        {"h2get13x1", {"/small", 1, 0, 13, 0}},
        {"h2get13x64", {"/small", 64, 0, 13, 0}},
        {"h2get1mx8", {"/1m", 8, 0, 1 << 20, 0}},
        {"h2post64kx16", {"/upload", 16, 0, 2, 64 << 10}},
        {"h2burst2000", {"/small", 2000, 2000, 13, 0}},
        {"allocs", {"/small", 1, 2000, 13, 0}},
        {"once", {"/small", 1, 1, 13, 0}},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].name, name) == 0) {
            *out = table[i].workload;
            return 1;
        }
    }
    return 0;
}

// Streams one HTTP/2 connection carries at once; Benchmarks/run gives nginx and curl-h2 the same.
#define H2_STREAMS 2000L

static void prepare(Slot *slot, const char *url, const char *post, size_t post_bytes, int h2) {
    slot->easy = curl_easy_init();
    if (h2) {
        curl_easy_setopt(slot->easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        // Wait for the one connection to say whether it multiplexes rather than open more.
        curl_easy_setopt(slot->easy, CURLOPT_PIPEWAIT, 1L);
        curl_easy_setopt(slot->easy, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(slot->easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    curl_easy_setopt(slot->easy, CURLOPT_URL, url);
    curl_easy_setopt(slot->easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(slot->easy, CURLOPT_WRITEDATA, slot);
    curl_easy_setopt(slot->easy, CURLOPT_PRIVATE, slot);
    if (post_bytes > 0) {
        // The body is sent from the caller's buffer, as CurlTransport does with URLRequest's.
        curl_easy_setopt(slot->easy, CURLOPT_POSTFIELDS, post);
        curl_easy_setopt(slot->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_bytes);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: multi-get BASE-URL WORKLOAD [SECONDS]\n");
        return 2;
    }
    Workload workload;
    int h2 = strncmp(argv[2], "h2", 2) == 0;
    if (!find_workload(argv[2], &workload)) {
        fprintf(stderr, "multi-get: unknown workload %s\n", argv[2]);
        return 2;
    }
    double seconds = argc > 3 ? atof(argv[3]) : 1.0;
    if (!(seconds > 0)) seconds = 1.0;
    char url[512];
    snprintf(url, sizeof url, "%s%s", argv[1], workload.path);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    // The same 64-connection pool every Swift client is given.
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, h2 ? 1L : 64L);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 64L);
    if (h2) {
        curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
        curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, H2_STREAMS);
    }
    char *post = NULL;
    struct curl_slist *no_expect = NULL;
    if (workload.post_bytes > 0) {
        post = malloc(workload.post_bytes);
        if (post == NULL) return 1;
        memset(post, 'x', workload.post_bytes);
        // CurlTransport suppresses `Expect: 100-continue` (URLSession never waits for it).
        no_expect = curl_slist_append(NULL, "Expect:");
    }
    Slot *slots = calloc((size_t)workload.width, sizeof(Slot));
    if (slots == NULL) return 1;
    for (int i = 0; i < workload.width; i++) {
        prepare(&slots[i], url, post, workload.post_bytes, h2);
        if (no_expect) curl_easy_setopt(slots[i].easy, CURLOPT_HTTPHEADER, no_expect);
    }

    // Idle: handles made, nothing sent (the warm-up already downloads the workload's bodies).
    long idle_rss = resident_kib();

    // Warm-up outside the measurement: open connections, fault the code and buffers in.
    int warm = workload.width < 64 ? workload.width : 64;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < warm; i++) curl_multi_add_handle(multi, slots[i].easy);
        int running = 1;
        while (running) {
            curl_multi_perform(multi, &running);
            if (running) curl_multi_poll(multi, NULL, 0, 100, NULL);
        }
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg == CURLMSG_DONE) {
                Slot *slot;
                curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
                slot->length = 0;
                curl_multi_remove_handle(multi, message->easy_handle);
            }
        }
    }

    int counting = strcmp(argv[2], "allocs") == 0;
    if (counting) allocation_counter_start();
    double cpu_start = cpu_seconds();
    double start = now_seconds();
    double deadline = start + seconds;
    long started = 0, completed = 0, failed = 0;
    unsigned long long bytes = 0;
    for (int i = 0; i < workload.width; i++) {
        curl_multi_add_handle(multi, slots[i].easy);
        started++;
    }
    int running = 1;
    while (completed < started) {
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            Slot *slot;
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result != CURLE_OK || status != 200 || slot->length != workload.expected) failed++;
            bytes += slot->length;
            slot->length = 0;
            completed++;
            curl_multi_remove_handle(multi, message->easy_handle);
            int more = workload.total > 0 ? started < workload.total : now_seconds() < deadline;
            if (more) {
                curl_multi_add_handle(multi, message->easy_handle);
                started++;
            }
        }
        if (completed < started) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    double elapsed = now_seconds() - start;
    double cpu = cpu_seconds() - cpu_start;
    unsigned long allocations = counting ? allocation_counter_stop() : 0;

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("{\"client\":\"C libcurl multi\",\"workload\":\"%s\",\"requests\":%ld,\"failures\":%ld,"
           "\"bytes\":%llu,\"seconds\":%.6f,\"cpuSeconds\":%.6f,\"maxRSSKiB\":%ld,\"idleRSSKiB\":%ld,"
           "\"allocations\":%lu}\n",
           argv[2], completed, failed, bytes, elapsed, cpu, usage.ru_maxrss, idle_rss, allocations);

    for (int i = 0; i < workload.width; i++) {
        curl_easy_cleanup(slots[i].easy);
        free(slots[i].body);
    }
    free(slots);
    free(post);
    curl_slist_free_all(no_expect);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return failed == 0 ? 0 : 1;
}
