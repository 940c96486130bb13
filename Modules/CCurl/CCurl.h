#pragma once
// libcurl for CourierCurl. Only Sources/CourierCurl/Curl.swift imports this module.
//
// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic C functions, which Swift
// cannot call. Each wrapper below fixes the type of the variadic argument, one wrapper per C
// argument type, and does nothing else: no defaults, no hidden options, no error translation.
// The exceptions are where the option or code itself depends on the libcurl version; each says
// what it falls back to. Every symbol carries the `ccurl_` prefix.
#include <curl/curl.h>

// The oldest libcurl CourierCurl builds against: RHEL/UBI 9 ships 7.76. Everything newer than
// that is used below behind a version check, with a fallback that behaves the same.
// A failed static assertion rather than #error, which expands no macro and so could not say
// which version it found.
#if LIBCURL_VERSION_NUM < 0x074c00
_Static_assert(0, "Courier needs libcurl 7.76 or later; found " LIBCURL_VERSION);
#endif

// MARK: - Constants Swift cannot import (macros that are not plain integer literals)

static const int ccurl_version_now = CURLVERSION_NOW;
static const long ccurl_global_all = CURL_GLOBAL_ALL;
static const int ccurl_error_size = CURL_ERROR_SIZE;
static const long ccurl_netrc_ignored = CURL_NETRC_IGNORED;

// curl_version_info_data.features bits that change what a transfer may ask for.
static const int ccurl_feature_libz = CURL_VERSION_LIBZ;
static const int ccurl_feature_brotli = CURL_VERSION_BROTLI;
static const int ccurl_feature_zstd = CURL_VERSION_ZSTD;
static const int ccurl_feature_http2 = CURL_VERSION_HTTP2;
// HTTP/3 (ngtcp2 or quiche): in every header from 7.66, named here the same way for any header,
// since whether the linked library has it is decided at run time.
#ifdef CURL_VERSION_HTTP3
static const int ccurl_feature_http3 = CURL_VERSION_HTTP3;
#else
static const int ccurl_feature_http3 = 1 << 25;
#endif

// Back-pressure: what a data callback returns to pause its direction, and curl_easy_pause bits.
static const size_t ccurl_write_pause = CURL_WRITEFUNC_PAUSE;
static const size_t ccurl_read_pause = CURL_READFUNC_PAUSE;
static const int ccurl_pause_recv = CURLPAUSE_RECV;
static const int ccurl_pause_send = CURLPAUSE_SEND;

// HTTP versions (CURLOPT_HTTP_VERSION), multiplexing (CURLMOPT_PIPELINING) and the lowest TLS
// version (CURLOPT_SSLVERSION); every one of them is in 7.76.
static const long ccurl_http_version_1_1 = CURL_HTTP_VERSION_1_1;
static const long ccurl_http_version_2tls = CURL_HTTP_VERSION_2TLS;
static const long ccurl_http_version_2_prior_knowledge = CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE;
// HTTP/3 with fallback (7.66, so in every header Courier builds with) and HTTP/3 only (7.88),
// which older headers lack; curl never renumbers these values. A libcurl without HTTP/3 is never
// asked for either.
static const long ccurl_http_version_3 = CURL_HTTP_VERSION_3;
#if LIBCURL_VERSION_NUM >= 0x075800
static const long ccurl_http_version_3only = CURL_HTTP_VERSION_3ONLY;
#else
static const long ccurl_http_version_3only = 31;
#endif
// CURLOPT_ALTSVC_CTRL bits (7.64.1): which protocols an Alt-Svc answer may move a request to.
static const long ccurl_altsvc_h1 = CURLALTSVC_H1;
static const long ccurl_altsvc_h2 = CURLALTSVC_H2;
static const long ccurl_altsvc_h3 = CURLALTSVC_H3;
static const long ccurl_pipe_nothing = CURLPIPE_NOTHING;
static const long ccurl_pipe_multiplex = CURLPIPE_MULTIPLEX;
static const long ccurl_sslversion_tls1_2 = CURL_SSLVERSION_TLSv1_2;
static const long ccurl_sslversion_tls1_3 = CURL_SSLVERSION_TLSv1_3;

// MARK: - CURLcode values newer than 7.76
//
// An older libcurl has no name for these and never returns them. Each falls back to the number
// later releases gave it: curl never renumbers a CURLcode, so the mapping of codes to errors
// means the same on every version.

#if LIBCURL_VERSION_NUM >= 0x074d00
static const int ccurl_code_ssl_clientcert = CURLE_SSL_CLIENTCERT;
#else
static const int ccurl_code_ssl_clientcert = 98;
#endif

#if LIBCURL_VERSION_NUM >= 0x075400
static const int ccurl_code_unrecoverable_poll = CURLE_UNRECOVERABLE_POLL;
#else
static const int ccurl_code_unrecoverable_poll = 99;
#endif

#if LIBCURL_VERSION_NUM >= 0x080600
static const int ccurl_code_too_large = CURLE_TOO_LARGE;
#else
static const int ccurl_code_too_large = 100;
#endif

#if LIBCURL_VERSION_NUM >= 0x080800
static const int ccurl_code_ech_required = CURLE_ECH_REQUIRED;
#else
static const int ccurl_code_ech_required = 101;
#endif

// MARK: - Protocols a transfer may use

/// Lets `easy` speak http and https only, for the request and for any redirect libcurl would
/// follow. 7.85 added CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR and deprecated the
/// bitmask options, which newer headers warn about; older libcurl has only the bitmasks. On
/// failure `*failed` names the option libcurl refused.
static inline CURLcode ccurl_easy_setopt_http_only(CURL *easy, const char **failed) {
    CURLcode code;
#if LIBCURL_VERSION_NUM >= 0x075500
    code = curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    if (code != CURLE_OK) {
        *failed = "CURLOPT_PROTOCOLS_STR";
        return code;
    }
    code = curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    if (code != CURLE_OK) {
        *failed = "CURLOPT_REDIR_PROTOCOLS_STR";
    }
#else
    const long http = CURLPROTO_HTTP | CURLPROTO_HTTPS;
    code = curl_easy_setopt(easy, CURLOPT_PROTOCOLS, http);
    if (code != CURLE_OK) {
        *failed = "CURLOPT_PROTOCOLS";
        return code;
    }
    code = curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS, http);
    if (code != CURLE_OK) {
        *failed = "CURLOPT_REDIR_PROTOCOLS";
    }
#endif
    return code;
}

// MARK: - curl_easy_setopt, one wrapper per argument type

static inline CURLcode ccurl_easy_setopt_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_easy_setopt_off_t(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

/// For options whose argument is a `char *` that libcurl copies (CURLOPT_URL, CURLOPT_USERAGENT…).
static inline CURLcode ccurl_easy_setopt_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

/// For options whose argument is a pointer libcurl keeps without copying (CURLOPT_PRIVATE,
/// CURLOPT_WRITEDATA, CURLOPT_READDATA, CURLOPT_ERRORBUFFER…): the caller owns its lifetime.
static inline CURLcode ccurl_easy_setopt_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

static inline CURLcode ccurl_easy_setopt_slist(CURL *easy, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this callback type.
static inline CURLcode ccurl_easy_setopt_write_callback(CURL *easy, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_READFUNCTION.
static inline CURLcode ccurl_easy_setopt_read_callback(CURL *easy, CURLoption option, curl_read_callback value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_SEEKFUNCTION.
static inline CURLcode ccurl_easy_setopt_seek_callback(CURL *easy, CURLoption option, curl_seek_callback value) {
    return curl_easy_setopt(easy, option, value);
}

/// CURLOPT_XFERINFOFUNCTION.
static inline CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *easy, CURLoption option, curl_xferinfo_callback value) {
    return curl_easy_setopt(easy, option, value);
}

// MARK: - curl_multi_setopt

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

// MARK: - The multi_socket interface
//
// libcurl tells the program which sockets to watch and when to call it next; the program waits
// for them (epoll) and calls curl_multi_socket_action for what became ready.

static const curl_socket_t ccurl_socket_timeout = CURL_SOCKET_TIMEOUT;
static const int ccurl_poll_in = CURL_POLL_IN;
static const int ccurl_poll_out = CURL_POLL_OUT;
static const int ccurl_poll_inout = CURL_POLL_INOUT;
static const int ccurl_poll_remove = CURL_POLL_REMOVE;
static const int ccurl_cselect_in = CURL_CSELECT_IN;
static const int ccurl_cselect_out = CURL_CSELECT_OUT;

/// CURLMOPT_SOCKETFUNCTION.
static inline CURLMcode ccurl_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

/// CURLMOPT_TIMERFUNCTION.
static inline CURLMcode ccurl_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

/// For options whose argument is a pointer libcurl hands back to a callback without using it
/// (CURLMOPT_SOCKETDATA, CURLMOPT_TIMERDATA): the caller owns its lifetime.
static inline CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

// MARK: - curl_easy_getinfo, one wrapper per result type

static inline CURLcode ccurl_easy_getinfo_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode ccurl_easy_getinfo_off_t(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode ccurl_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value) {
    return curl_easy_getinfo(easy, info, value);
}

static inline CURLcode ccurl_easy_getinfo_socket(CURL *easy, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

/// For infos whose result is a `char *` libcurl owns (CURLINFO_PRIMARY_IP, CURLINFO_LOCAL_IP):
/// valid until the handle's next transfer, so the caller copies it at once.
static inline CURLcode ccurl_easy_getinfo_string(CURL *easy, CURLINFO info, const char **value) {
    return curl_easy_getinfo(easy, info, value);
}

/// CURLINFO_QUEUE_TIME_T: microseconds the transfer waited for a connection. libcurl 8.6 added
/// it; older headers lack the name, so it is asked for by its number, which the library that
/// runs decides on: an older libcurl answers CURLE_UNKNOWN_OPTION, as for any info it does not
/// know, and the caller reports the value as unknown.
static inline CURLcode ccurl_easy_getinfo_queue_time(CURL *easy, curl_off_t *value) {
#if LIBCURL_VERSION_NUM >= 0x080600
    return curl_easy_getinfo(easy, CURLINFO_QUEUE_TIME_T, value);
#else
    return curl_easy_getinfo(easy, (CURLINFO)(CURLINFO_OFF_T + 65), value);
#endif
}

// MARK: - CURLMsg

/// Reads one finished transfer from `curl_multi_info_read`. CURLMsg's result lives in an
/// anonymous union that Swift imports awkwardly; this reads it in C. Returns 1 and fills
/// `easy`/`result` for a CURLMSG_DONE message, 0 when the queue is empty, -1 for any other
/// message type (none exists up to libcurl 7.88, but the caller must keep reading).
static inline int ccurl_multi_info_read_done(CURLM *multi, CURL **easy, CURLcode *result) {
    int remaining = 0;
    CURLMsg *message = curl_multi_info_read(multi, &remaining);
    if (message == NULL) {
        return 0;
    }
    if (message->msg != CURLMSG_DONE) {
        return -1;
    }
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}
