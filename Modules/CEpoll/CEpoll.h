#pragma once
// epoll and eventfd for CourierCurl's wait set. Only Sources/CourierCurl/SocketEvents/Epoll.swift
// imports this module. Glibc's Swift module leaves these two headers out; elsewhere than Linux
// this module is empty and the engine waits in curl_multi_poll.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

// EPOLL_EVENTS is an enum whose values are also macros; plain constants import as plain integers.
static const unsigned int cepoll_in = EPOLLIN;
static const unsigned int cepoll_out = EPOLLOUT;
static const unsigned int cepoll_err = EPOLLERR;
static const unsigned int cepoll_hup = EPOLLHUP;
#endif
