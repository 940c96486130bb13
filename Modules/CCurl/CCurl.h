#pragma once
// libcurl for CourierCurl. Only Sources/CourierCurl/Curl.swift imports this module.
//
// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic C functions, which Swift
// cannot call. Each wrapper below fixes the type of the variadic argument, one wrapper per C
// argument type, and does nothing else: no defaults, no hidden options, no error translation.
// Every symbol carries the `ccurl_` prefix.
#include <curl/curl.h>

// MARK: - Constants Swift cannot import (macros that are not plain integer literals)

static const int ccurl_version_now = CURLVERSION_NOW;
static const long ccurl_global_all = CURL_GLOBAL_ALL;
static const int ccurl_error_size = CURL_ERROR_SIZE;
static const long ccurl_netrc_ignored = CURL_NETRC_IGNORED;

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

// MARK: - CURLMsg

/// Reads one finished transfer from `curl_multi_info_read`. CURLMsg's result lives in an
/// anonymous union that Swift imports awkwardly; this reads it in C. Returns 1 and fills
/// `easy`/`result` for a CURLMSG_DONE message, 0 when the queue is empty, -1 for any other
/// message type (none exists in libcurl 7.88, but the caller must keep reading).
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
