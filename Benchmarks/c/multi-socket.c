// libcurl's event-driven interface from C: curl_multi_socket_action with epoll, beside
// multi-get.c, which sleeps in curl_multi_poll. Only for the scaling table (`run --scale`): what
// the event-driven interface buys over curl_multi_poll as the connections and transfers grow.
//
//   multi-socket [--queue] BASE-URL scale-WIDTHxCONNECTIONS[-idleN] [SECONDS]
//
// 13-byte GETs, WIDTH in flight on at most CONNECTIONS connections (the rest wait in libcurl's
// pending list, or with --queue in the program, as in multi-get.c), beside N requests to /slow
// that nginx holds unanswered (open for the whole run, not counted); prints the same one-line JSON record as multi-get.c. libcurl tells the program
// which sockets to watch (CURLMOPT_SOCKETFUNCTION) and when its next timeout is
// (CURLMOPT_TIMERFUNCTION); the program waits in epoll_wait and hands libcurl only the sockets
// that are ready, so a wake-up costs what is ready rather than what is open.
#define _GNU_SOURCE
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"

typedef struct {
    CURL *easy;
    size_t length;
    double submitted;  // when the transfer was added to the multi handle
} Slot;

typedef struct {
    CURLM *multi;
    int epoll;
    double timer_deadline;  // < 0: libcurl asked for no timeout
    long started, completed, failed;
    long bytes;
    double deadline;        // start new transfers until then
    long limit;             // > 0: start no more than this many in all (the warm-up)
    double *latencies;
    size_t latency_count, latency_capacity;
    // --queue: transfers waiting for one of libcurl's to end, first in, first out.
    Slot **waiting;
    size_t waiting_head, waiting_count, waiting_capacity;
    long in_libcurl, connections;
} Loop;

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    (void)data;
    Slot *slot = context;
    slot->length += size * count;
    return size * count;
}

// libcurl's CURLMOPT_SOCKETFUNCTION: start, change or stop watching one socket. `socketp` is
// non-NULL once the socket is in the epoll set (curl_multi_assign), so ADD and MOD are told apart.
static int on_socket(CURL *easy, curl_socket_t socket, int what, void *context, void *socketp) {
    (void)easy;
    Loop *loop = context;
    if (what == CURL_POLL_REMOVE) {
        // The socket may be closed already, which removed it from the set: ENOENT/EBADF are fine.
        epoll_ctl(loop->epoll, EPOLL_CTL_DEL, socket, NULL);
        curl_multi_assign(loop->multi, socket, NULL);
        return 0;
    }
    struct epoll_event event = {0};
    event.data.fd = socket;
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    if (socketp == NULL) {
        if (epoll_ctl(loop->epoll, EPOLL_CTL_ADD, socket, &event) != 0 && errno == EEXIST) {
            epoll_ctl(loop->epoll, EPOLL_CTL_MOD, socket, &event);
        }
        curl_multi_assign(loop->multi, socket, loop);
    } else {
        epoll_ctl(loop->epoll, EPOLL_CTL_MOD, socket, &event);
    }
    return 0;
}

// libcurl's CURLMOPT_TIMERFUNCTION: when to call curl_multi_socket_action with
// CURL_SOCKET_TIMEOUT next (-1: never; 0: at once).
static int on_timer(CURLM *multi, long milliseconds, void *context) {
    (void)multi;
    Loop *loop = context;
    loop->timer_deadline = milliseconds < 0 ? -1 : now_seconds() + (double)milliseconds / 1e3;
    return 0;
}

static void record_latency(Loop *loop, double seconds) {
    if (loop->latencies == NULL) return;  // the warm-up records none
    if (loop->latency_count == loop->latency_capacity) {
        size_t capacity = loop->latency_capacity ? loop->latency_capacity * 2 : 65536;
        double *grown = realloc(loop->latencies, capacity * sizeof(double));
        if (grown == NULL) return;
        loop->latencies = grown;
        loop->latency_capacity = capacity;
    }
    loop->latencies[loop->latency_count++] = seconds;
}

static void submit(Loop *loop, Slot *slot, double now) {
    slot->length = 0;
    slot->submitted = now;
    loop->started++;
    if (loop->waiting == NULL || loop->in_libcurl < loop->connections) {
        curl_multi_add_handle(loop->multi, slot->easy);
        loop->in_libcurl++;
    } else {
        loop->waiting[(loop->waiting_head + loop->waiting_count++) % loop->waiting_capacity] = slot;
    }
}

// A transfer left the multi handle: the first waiting one takes its place.
static void ended(Loop *loop) {
    loop->in_libcurl--;
    while (loop->waiting_count > 0 && loop->in_libcurl < loop->connections) {
        Slot *next = loop->waiting[loop->waiting_head];
        loop->waiting_head = (loop->waiting_head + 1) % loop->waiting_capacity;
        loop->waiting_count--;
        curl_multi_add_handle(loop->multi, next->easy);
        loop->in_libcurl++;
    }
}

// Takes libcurl's finished transfers and starts the next request on each handle while there is time.
static void collect(Loop *loop) {
    CURLMsg *message;
    int left;
    while ((message = curl_multi_info_read(loop->multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        Slot *slot = NULL;
        long status = 0;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&slot);
        if (slot == NULL) {  // an idle transfer nginx let through
            curl_multi_remove_handle(loop->multi, message->easy_handle);
            continue;
        }
        curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
        if (message->data.result != CURLE_OK || status != 200 || slot->length != 13) loop->failed++;
        double now = now_seconds();
        record_latency(loop, now - slot->submitted);
        loop->bytes += (long)slot->length;
        loop->completed++;
        curl_multi_remove_handle(loop->multi, message->easy_handle);
        int more = loop->limit > 0 ? loop->started < loop->limit : now < loop->deadline;
        if (more) submit(loop, slot, now);
        ended(loop);
    }
}

// Runs until every started transfer has completed.
static void run(Loop *loop) {
    enum { batch = 256 };
    struct epoll_event events[batch];
    int running = 0;
    while (loop->completed < loop->started) {
        int wait_ms = 100;
        if (loop->timer_deadline >= 0) {
            double remaining = loop->timer_deadline - now_seconds();
            wait_ms = remaining <= 0 ? 0 : (int)(remaining * 1e3) + 1;
            if (wait_ms > 100) wait_ms = 100;
        }
        int ready = epoll_wait(loop->epoll, events, batch, wait_ms);
        for (int i = 0; i < ready; i++) {
            int mask = 0;
            if (events[i].events & EPOLLIN) mask |= CURL_CSELECT_IN;
            if (events[i].events & EPOLLOUT) mask |= CURL_CSELECT_OUT;
            if (events[i].events & (EPOLLERR | EPOLLHUP)) mask |= CURL_CSELECT_ERR;
            curl_multi_socket_action(loop->multi, events[i].data.fd, mask, &running);
        }
        if (loop->timer_deadline >= 0 && now_seconds() >= loop->timer_deadline) {
            loop->timer_deadline = -1;
            curl_multi_socket_action(loop->multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
        collect(loop);
    }
}

static double percentile_ms(const double *sorted, size_t count, double fraction) {
    if (count == 0) return 0;
    size_t rank = (size_t)(fraction * (double)count + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > count) rank = count;
    return sorted[rank - 1] * 1e3;
}

int main(int argc, char **argv) {
    int own_queue = argc > 1 && strcmp(argv[1], "--queue") == 0;
    if (own_queue) {
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    int width, connections, idle = 0;
    char end;
    if (argc < 3 ||
        (sscanf(argv[2], "scale-%dx%d%c", &width, &connections, &end) != 2 &&
         sscanf(argv[2], "scale-%dx%d-idle%d%c", &width, &connections, &idle, &end) != 3) ||
        width <= 0 || connections <= 0 || idle < 0) {
        fprintf(stderr, "usage: multi-socket [--queue] BASE-URL scale-WIDTHxCONNECTIONS[-idleN] [SECONDS]\n");
        return 2;
    }
    double seconds = argc > 3 ? atof(argv[3]) : 1.0;
    if (!(seconds > 0)) seconds = 1.0;
    char url[512];
    snprintf(url, sizeof url, "%s/small", argv[1]);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    Loop loop = {0};
    loop.multi = curl_multi_init();
    loop.epoll = epoll_create1(EPOLL_CLOEXEC);
    loop.timer_deadline = -1;
    loop.connections = connections;
    loop.waiting_capacity = (size_t)width;
    if (own_queue) loop.waiting = calloc((size_t)width, sizeof(Slot *));
    if (loop.multi == NULL || loop.epoll < 0 || (own_queue && loop.waiting == NULL)) return 1;
    curl_multi_setopt(loop.multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)connections);
    curl_multi_setopt(loop.multi, CURLMOPT_MAXCONNECTS, (long)connections);
    curl_multi_setopt(loop.multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(loop.multi, CURLMOPT_SOCKETDATA, &loop);
    curl_multi_setopt(loop.multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(loop.multi, CURLMOPT_TIMERDATA, &loop);
    Slot *slots = calloc((size_t)width, sizeof(Slot));
    if (slots == NULL) return 1;
    for (int i = 0; i < width; i++) {
        slots[i].easy = curl_easy_init();
        curl_easy_setopt(slots[i].easy, CURLOPT_URL, url);
        curl_easy_setopt(slots[i].easy, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(slots[i].easy, CURLOPT_WRITEDATA, &slots[i]);
        curl_easy_setopt(slots[i].easy, CURLOPT_PRIVATE, &slots[i]);
    }

    // Transfers nginx holds unanswered, open from before the warm-up to the end (as multi-get.c).
    char slow_url[512];
    snprintf(slow_url, sizeof slow_url, "%s/slow", argv[1]);
    Slot sink = {0};  // where an idle transfer's body goes, if nginx ever answers one
    CURL **idle_handles = calloc((size_t)idle + 1, sizeof(CURL *));
    if (idle_handles == NULL) return 1;
    for (int i = 0; i < idle; i++) {
        idle_handles[i] = curl_easy_init();
        curl_easy_setopt(idle_handles[i], CURLOPT_URL, slow_url);
        curl_easy_setopt(idle_handles[i], CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(idle_handles[i], CURLOPT_WRITEDATA, &sink);
        curl_multi_add_handle(loop.multi, idle_handles[i]);
    }

    // Warm-up outside the measurement, as multi-get.c: open the connections, twice.
    int warm = width < connections ? width : connections;
    for (int round = 0; round < 2; round++) {
        loop.limit = warm * (round + 1);
        double now = now_seconds();
        for (int i = 0; i < warm; i++) submit(&loop, &slots[i], now);
        run(&loop);
    }
    loop.started = loop.completed = loop.failed = loop.bytes = 0;
    loop.limit = 0;
    loop.latency_capacity = 65536;
    loop.latencies = malloc(loop.latency_capacity * sizeof(double));
    if (loop.latencies == NULL) return 1;

    double cpu_start = cpu_seconds();
    double start = now_seconds();
    loop.deadline = start + seconds;
    for (int i = 0; i < width; i++) submit(&loop, &slots[i], now_seconds());
    run(&loop);
    double elapsed = now_seconds() - start;
    double cpu = cpu_seconds() - cpu_start;
    qsort(loop.latencies, loop.latency_count, sizeof(double), compare_doubles);

    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("{\"client\":\"C libcurl multi_socket%s\",\"workload\":\"%s\",\"requests\":%ld,\"failures\":%ld,"
           "\"bytes\":%ld,\"seconds\":%.6f,\"cpuSeconds\":%.6f,\"maxRSSKiB\":%ld,\"idleRSSKiB\":0,"
           "\"allocations\":0,\"connections\":%d,\"p50Milliseconds\":%.4f,\"p99Milliseconds\":%.4f}\n",
           own_queue ? ", own queue" : "", argv[2], loop.completed, loop.failed, loop.bytes, elapsed, cpu, usage.ru_maxrss,
           connections, percentile_ms(loop.latencies, loop.latency_count, 0.50),
           percentile_ms(loop.latencies, loop.latency_count, 0.99));

    for (int i = 0; i < idle; i++) {
        curl_multi_remove_handle(loop.multi, idle_handles[i]);
        curl_easy_cleanup(idle_handles[i]);
    }
    free(idle_handles);
    for (int i = 0; i < width; i++) curl_easy_cleanup(slots[i].easy);
    free(slots);
    free(loop.latencies);
    free(loop.waiting);
    curl_multi_cleanup(loop.multi);
    close(loop.epoll);
    curl_global_cleanup();
    return loop.failed == 0 ? 0 : 1;
}
