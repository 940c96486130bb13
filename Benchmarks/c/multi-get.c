// The ceiling: libcurl's multi interface driven directly from C, with nothing between the
// application and libcurl but a reused easy handle and a reused body buffer per slot.
//
//   multi-get [--queue] [--parity] BASE-URL WORKLOAD [SECONDS]
//   multi-get --version      the libcurl this process loaded (curl_version()), and whether it has HTTP/3
//
// WORKLOAD is one of the Swift benchmark's (get13x1, get13x64, get1mx8, get10mx1, post64kx16,
// burst2000, allocs, once, or scale-WIDTHxCONNECTIONS[-idleN]: 13-byte GETs, WIDTH in flight on at
// most CONNECTIONS connections, beside N requests to /slow that nginx holds unanswered, open for the
// whole run and not counted); it prints the same one-line JSON record, so Benchmarks/run treats it
// as one more client. Built by Benchmarks/run with `cc -O2 ... -lcurl`. With --queue, transfers
// beyond the connection limit wait in the program rather than in libcurl's pending list, as they
// do in Courier's curl engine: libcurl 7.88 walks its whole pending list in every
// curl_multi_remove_handle, a cost per request that grows with the requests waiting.
//
// With --parity, each request carries the header lines CurlTransport sends for URLSession parity
// (User-Agent, Connection, Accept-Language, and Accept-Encoding from CURLOPT_ACCEPT_ENCODING ""),
// and the response head is copied out line by line through CURLOPT_HEADERFUNCTION, as any client
// that answers with the head must: the least libcurl work a parity-keeping client on it can do.
//
// The h2 workloads (h2get13x64, ...), given nginx's https BASE-URL, run over HTTP/2 multiplexed on
// one connection, negotiated by ALPN, the certificate not verified (Benchmarks/run's is
// self-signed), as the Swift clients curl-h2 and ahc-h2 do.
//
// The h3 workloads (h3get13x1, h3get13x64, h3get1mx8), given the HTTP/3 server's https BASE-URL, run
// over HTTP/3 only (CURL_HTTP_VERSION_3ONLY: no fallback to TCP), multiplexed on one QUIC connection,
// the certificate not verified; a response that came over anything but HTTP/3 counts as a failure,
// so a libcurl that quietly fell back cannot look fast. They need a libcurl built with HTTP/3.
#define _GNU_SOURCE
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "allocation_counter.h"
#include "measure.h"

typedef struct {
    CURL *easy;
    char *body;
    size_t length;
    size_t capacity;
    double submitted;  // when the transfer was added to the multi handle
    char *head;        // --parity: the response head's lines, copied as they arrive
    size_t head_length;
} Slot;

typedef struct {
    const char *path;
    int width;          // transfers in flight
    long total;         // > 0: a fixed number of requests (burst, allocs, once); 0: time-based
    size_t expected;    // body bytes each response must have
    size_t post_bytes;  // > 0: POST this many bytes
    long connections;   // to the host, at most
    int idle;           // transfers to /slow held open beside the workload's, not counted
} Workload;

// Each completed request's latency (added to the multi handle -> body complete), in seconds.
typedef struct {
    double *values;
    size_t count;
    size_t capacity;
} Latencies;

static void record_latency(Latencies *latencies, double seconds) {
    if (latencies->count == latencies->capacity) {
        size_t capacity = latencies->capacity ? latencies->capacity * 2 : 65536;
        double *grown = realloc(latencies->values, capacity * sizeof(double));
        if (grown == NULL) return;  // the percentiles then describe the requests recorded
        latencies->values = grown;
        latencies->capacity = capacity;
    }
    latencies->values[latencies->count++] = seconds;
}

// The value below which `fraction` of the sorted latencies lie (nearest rank), in milliseconds.
static double percentile_ms(const Latencies *sorted, double fraction) {
    if (sorted->count == 0) return 0;
    size_t rank = (size_t)(fraction * (double)sorted->count + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > sorted->count) rank = sorted->count;
    return sorted->values[rank - 1] * 1e3;
}

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

// --parity: keeps the head's lines (and only counts what does not fit), as a client building a
// response head would.
#define HEAD_CAPACITY 1024
static size_t on_header(char *data, size_t size, size_t count, void *context) {
    Slot *slot = context;
    size_t bytes = size * count;
    if (slot->head_length + bytes <= HEAD_CAPACITY) memcpy(slot->head + slot->head_length, data, bytes);
    slot->head_length += bytes;
    return bytes;
}

// Transfers waiting for one of libcurl's to end (--queue), first in, first out.
typedef struct {
    Slot **slots;
    size_t head, count, capacity;
    long in_libcurl, limit;
} Queue;

// Adds the transfer to the multi handle, or with --queue and the limit reached, queues it.
static void start_or_queue(CURLM *multi, Queue *queue, Slot *slot) {
    if (queue->slots == NULL || queue->in_libcurl < queue->limit) {
        curl_multi_add_handle(multi, slot->easy);
        queue->in_libcurl++;
    } else {
        queue->slots[(queue->head + queue->count++) % queue->capacity] = slot;
    }
}

// A transfer left the multi handle: the first waiting one takes its place.
static void ended(CURLM *multi, Queue *queue) {
    queue->in_libcurl--;
    while (queue->count > 0 && queue->in_libcurl < queue->limit) {
        Slot *next = queue->slots[queue->head];
        queue->head = (queue->head + 1) % queue->capacity;
        queue->count--;
        curl_multi_add_handle(multi, next->easy);
        queue->in_libcurl++;
    }
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
        {"get13x1", {"/small", 1, 0, 13, 0, 64, 0}},
        {"get13x64", {"/small", 64, 0, 13, 0, 64, 0}},
        {"get1mx8", {"/1m", 8, 0, 1 << 20, 0, 64, 0}},
        {"get10mx1", {"/10m", 1, 0, 10 << 20, 0, 64, 0}},
        {"post64kx16", {"/post", 16, 0, 2, 64 << 10, 64, 0}},
        {"burst2000", {"/small", 2000, 2000, 13, 0, 64, 0}},
        // The h2 rows: the same requests multiplexed on one connection; the upload goes to
        // /upload, where nginx reads the body (over HTTP/2, a body it skips counts as a flood).
        {"h2get13x1", {"/small", 1, 0, 13, 0, 1, 0}},
        {"h2get13x64", {"/small", 64, 0, 13, 0, 1, 0}},
        {"h2get1mx8", {"/1m", 8, 0, 1 << 20, 0, 1, 0}},
        {"h2post64kx16", {"/upload", 16, 0, 2, 64 << 10, 1, 0}},
        {"h2burst2000", {"/small", 2000, 2000, 13, 0, 1, 0}},
        // The h3 rows: HTTP/3 on one QUIC connection, to the HTTP/3 server Benchmarks/run starts.
        {"h3get13x1", {"/small", 1, 0, 13, 0, 1, 0}},
        {"h3get13x64", {"/small", 64, 0, 13, 0, 1, 0}},
        {"h3get1mx8", {"/1m", 8, 0, 1 << 20, 0, 1, 0}},
        {"allocs", {"/small", 1, 2000, 13, 0, 64, 0}},
        {"once", {"/small", 1, 1, 13, 0, 64, 0}},
    };
    int width, connections, idle = 0;
    char end;
    if ((sscanf(name, "scale-%dx%d%c", &width, &connections, &end) == 2 ||
         sscanf(name, "scale-%dx%d-idle%d%c", &width, &connections, &idle, &end) == 3) &&
        width > 0 && connections > 0 && idle >= 0) {
        *out = (Workload){"/small", width, 0, 13, 0, connections, idle};
        return 1;
    }
    // prof-WIDTHxTOTAL: a fixed number of 13-byte GETs, for instruction counts (Benchmarks/profile).
    long total;
    if (sscanf(name, "prof-%dx%ld%c", &width, &total, &end) == 2 && width > 0 && total >= width) {
        *out = (Workload){"/small", width, total, 13, 0, 64, 0};
        return 1;
    }
    // h2prof-WIDTHxTOTAL: the same over HTTP/2, multiplexed on one connection (Benchmarks/profile --h2).
    if (sscanf(name, "h2prof-%dx%ld%c", &width, &total, &end) == 2 && width > 0 && total >= width) {
        *out = (Workload){"/small", width, total, 13, 0, 1, 0};
        return 1;
    }
    // postprof-WIDTHxTOTAL and h2postprof-WIDTHxTOTAL: 64 KiB POSTs to /upload, the same counted
    // (Benchmarks/profile --post).
    if (sscanf(name, "postprof-%dx%ld%c", &width, &total, &end) == 2 && width > 0 && total >= width) {
        *out = (Workload){"/upload", width, total, 2, 64 << 10, 64, 0};
        return 1;
    }
    if (sscanf(name, "h2postprof-%dx%ld%c", &width, &total, &end) == 2 && width > 0 && total >= width) {
        *out = (Workload){"/upload", width, total, 2, 64 << 10, 1, 0};
        return 1;
    }
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

static int prepare(Slot *slot, const char *url, const char *post, size_t post_bytes, int h2, int h3,
                   struct curl_slist *headers, int parity) {
    slot->easy = curl_easy_init();
    if (headers) curl_easy_setopt(slot->easy, CURLOPT_HTTPHEADER, headers);
    if (parity) {
        // Only here, so the plain program's memory stays what it was.
        if ((slot->head = malloc(HEAD_CAPACITY)) == NULL) return 0;
        curl_easy_setopt(slot->easy, CURLOPT_ACCEPT_ENCODING, "");
        curl_easy_setopt(slot->easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(slot->easy, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(slot->easy, CURLOPT_HEADERDATA, slot);
    }
    if (h2) {
        curl_easy_setopt(slot->easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
        // Wait for the one connection to say whether it multiplexes rather than open more.
        curl_easy_setopt(slot->easy, CURLOPT_PIPEWAIT, 1L);
        curl_easy_setopt(slot->easy, CURLOPT_SSL_VERIFYPEER, 0L);
        curl_easy_setopt(slot->easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (h3) {
        // HTTP/3 only: CURL_HTTP_VERSION_3 would race a TCP connection and could measure that.
        curl_easy_setopt(slot->easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_3ONLY);
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
    return 1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        // Which libcurl the loader gave this process (Benchmarks/run prints it beside the table).
        const curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
        printf("%s\nhttp3: %s\n", curl_version(), (info->features & CURL_VERSION_HTTP3) ? "yes" : "no");
        return 0;
    }
    int own_queue = 0, parity = 0;
    while (argc > 1 && (strcmp(argv[1], "--queue") == 0 || strcmp(argv[1], "--parity") == 0)) {
        if (strcmp(argv[1], "--queue") == 0) own_queue = 1; else parity = 1;
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: multi-get [--queue] [--parity] BASE-URL WORKLOAD [SECONDS]\n");
        return 2;
    }
    Workload workload;
    int h2 = strncmp(argv[2], "h2", 2) == 0;
    int h3 = strncmp(argv[2], "h3", 2) == 0;
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
    // The same pool every Swift client is given (64 connections but in the scale workloads, one
    // multiplexed connection over HTTP/2). Transfers beyond it wait in libcurl's pending list.
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, h2 || h3 ? 1L : (long)workload.connections);
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)workload.connections);
    if (h2 || h3) {
        curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
        curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, H2_STREAMS);
    }
    char *post = NULL;
    struct curl_slist *headers = NULL;
    if (parity) {
        // CurlTransport's lines for a request that sets none of its own, in its order; the
        // User-Agent is as long as the benchmark's.
        headers = curl_slist_append(headers, "User-Agent: courier-benchmark Courier/0.1.0");
        headers = curl_slist_append(headers, "Connection: keep-alive");
        headers = curl_slist_append(headers, "Accept-Language: en");
    }
    if (workload.post_bytes > 0) {
        post = malloc(workload.post_bytes);
        if (post == NULL) return 1;
        memset(post, 'x', workload.post_bytes);
        // CurlTransport suppresses `Expect: 100-continue` (URLSession never waits for it).
        headers = curl_slist_append(headers, "Expect:");
    }
    Slot *slots = calloc((size_t)workload.width, sizeof(Slot));
    if (slots == NULL) return 1;
    for (int i = 0; i < workload.width; i++) {
        if (!prepare(&slots[i], url, post, workload.post_bytes, h2, h3, headers, parity)) return 1;
    }

    // Transfers nginx holds unanswered (its /slow location), open before the warm-up and until the
    // end: what an open but silent transfer costs the others. CURLOPT_PRIVATE NULL marks them.
    char slow_url[512];
    snprintf(slow_url, sizeof slow_url, "%s/slow", argv[1]);
    Slot sink = {0};  // where an idle transfer's body goes, if nginx ever answers one
    CURL **idle = calloc((size_t)workload.idle + 1, sizeof(CURL *));
    if (idle == NULL) return 1;
    for (int i = 0; i < workload.idle; i++) {
        idle[i] = curl_easy_init();
        curl_easy_setopt(idle[i], CURLOPT_URL, slow_url);
        curl_easy_setopt(idle[i], CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(idle[i], CURLOPT_WRITEDATA, &sink);
        curl_multi_add_handle(multi, idle[i]);
    }

    // Idle: handles made, nothing sent (the warm-up already downloads the workload's bodies).
    long idle_rss = resident_kib();

    // Warm-up outside the measurement: open connections, fault the code and buffers in.
    int warm = workload.width < workload.connections ? workload.width : (int)workload.connections;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < warm; i++) curl_multi_add_handle(multi, slots[i].easy);
        int running = 1, done = 0;
        while (done < warm) {
            curl_multi_perform(multi, &running);
            CURLMsg *message;
            int left;
            while ((message = curl_multi_info_read(multi, &left)) != NULL) {
                if (message->msg != CURLMSG_DONE) continue;
                Slot *slot = NULL;
                curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
                curl_multi_remove_handle(multi, message->easy_handle);
                if (slot == NULL) continue;  // an idle transfer nginx let through
                slot->length = 0;
                slot->head_length = 0;
                done++;
            }
            if (done < warm) curl_multi_poll(multi, NULL, 0, 100, NULL);
        }
    }

    int counting = strcmp(argv[2], "allocs") == 0;
    if (counting) allocation_counter_start();
    double cpu_start = cpu_seconds();
    double start = now_seconds();
    double deadline = start + seconds;
    long started = 0, completed = 0, failed = 0;
    unsigned long long bytes = 0;
    Latencies latencies = {0};
    Queue queue = {NULL, 0, 0, (size_t)workload.width, 0, workload.connections};
    if (own_queue && (queue.slots = calloc((size_t)workload.width, sizeof(Slot *))) == NULL) return 1;
    for (int i = 0; i < workload.width; i++) {
        slots[i].submitted = now_seconds();
        start_or_queue(multi, &queue, &slots[i]);
        started++;
    }
    int running = 1;
    while (completed < started) {
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            Slot *slot = NULL;
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
            if (slot == NULL) {
                curl_multi_remove_handle(multi, message->easy_handle);
                continue;
            }
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            long version = CURL_HTTP_VERSION_3;
            if (h3) curl_easy_getinfo(message->easy_handle, CURLINFO_HTTP_VERSION, &version);
            if (message->data.result != CURLE_OK || status != 200 || slot->length != workload.expected ||
                version != CURL_HTTP_VERSION_3)
                failed++;
            double now = now_seconds();
            record_latency(&latencies, now - slot->submitted);
            bytes += slot->length;
            slot->length = 0;
            slot->head_length = 0;
            completed++;
            curl_multi_remove_handle(multi, message->easy_handle);
            int more = workload.total > 0 ? started < workload.total : now < deadline;
            if (more) {
                slot->submitted = now;
                start_or_queue(multi, &queue, slot);
                started++;
            }
            ended(multi, &queue);
        }
        if (completed < started) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    double elapsed = now_seconds() - start;
    double cpu = cpu_seconds() - cpu_start;
    unsigned long allocations = counting ? allocation_counter_stop() : 0;
    qsort(latencies.values, latencies.count, sizeof(double), compare_doubles);

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("{\"client\":\"%s%s\",\"workload\":\"%s\",\"requests\":%ld,\"failures\":%ld,"
           "\"bytes\":%llu,\"seconds\":%.6f,\"cpuSeconds\":%.6f,\"maxRSSKiB\":%ld,\"idleRSSKiB\":%ld,"
           "\"allocations\":%lu,\"connections\":%ld,\"p50Milliseconds\":%.4f,\"p99Milliseconds\":%.4f}\n",
           parity ? "C, Courier's request" : "C libcurl multi", own_queue ? ", own queue" : "", argv[2], completed, failed, bytes, elapsed, cpu, usage.ru_maxrss, idle_rss,
           allocations,
           workload.connections, percentile_ms(&latencies, 0.50), percentile_ms(&latencies, 0.99));
    free(latencies.values);
    free(queue.slots);
    for (int i = 0; i < workload.idle; i++) {
        curl_multi_remove_handle(multi, idle[i]);
        curl_easy_cleanup(idle[i]);
    }
    free(idle);
    free(sink.body);

    for (int i = 0; i < workload.width; i++) {
        curl_easy_cleanup(slots[i].easy);
        free(slots[i].body);
        free(slots[i].head);
    }
    free(slots);
    free(post);
    curl_slist_free_all(headers);
    curl_multi_cleanup(multi);
    curl_global_cleanup();
    return failed == 0 ? 0 : 1;
}
