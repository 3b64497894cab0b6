// Swift cannot call C variadic functions such as curl_easy_setopt/getinfo, nor see the
// CURLVERSION_NOW macro, so these typed static inline wrappers stand in for them.
#ifndef PERMITREADY_CCURL_SHIM_H
#define PERMITREADY_CCURL_SHIM_H
#include <curl/curl.h>

static inline CURLcode pr_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pr_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pr_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pr_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pr_curl_setopt_mime(CURL *h, CURLoption o, curl_mime *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pr_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }

typedef size_t (*pr_curl_write_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode pr_curl_setopt_write(CURL *h, pr_curl_write_cb cb) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, cb); }

static inline CURLcode pr_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pr_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLMcode pr_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

static inline CURLcode pr_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }
// libcurl's socket interface driven by epoll (curl_multi_socket_action): libcurl says which
// sockets it wants watched (the socket callback) and when it next needs a look (the timer
// callback); the transport's thread waits in epoll_wait and tells libcurl only what happened.
// curl_multi_perform instead visits every transfer on each turn and checks each one's socket with
// a poll of its own: with hundreds in flight that was a fifth of the curl thread.
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

static inline long pr_monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// What the callbacks share with the curl thread: the epoll set, the multi handle, and the
// instant (monotonic ms) libcurl next wants CURL_SOCKET_TIMEOUT, or -1.
typedef struct {
    int epfd;
    CURLM *multi;
    long timer_due;
} pr_curl_loop;

// A socket libcurl hands over is watched for what it asks. libcurl keeps a pointer per socket
// for us (curl_multi_assign): set once the socket is in the epoll set, so a later change is one
// EPOLL_CTL_MOD, not a failed MOD and an ADD. A reused connection is added again per request
// (libcurl gives up an idle connection's socket), so that is 2 calls a request, not 3.
static inline int pr_curl_socket_callback(CURL *easy, curl_socket_t s, int what, void *clientp, void *socketp) {
    (void)easy;
    pr_curl_loop *loop = (pr_curl_loop *)clientp;
    if (what == CURL_POLL_REMOVE) {
        if (socketp) epoll_ctl(loop->epfd, EPOLL_CTL_DEL, s, NULL);
        return 0;
    }
    struct epoll_event ev = {0};
    ev.data.fd = s;
    ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0);
    if (socketp) {
        // ENOENT: the descriptor was closed and its number reused without a REMOVE in between
        // (epoll forgets a closed descriptor on its own); watched again, not left to time out.
        if (epoll_ctl(loop->epfd, EPOLL_CTL_MOD, s, &ev) != 0 && errno == ENOENT) epoll_ctl(loop->epfd, EPOLL_CTL_ADD, s, &ev);
    } else {
        if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, s, &ev) != 0 && errno == EEXIST) epoll_ctl(loop->epfd, EPOLL_CTL_MOD, s, &ev);
        curl_multi_assign(loop->multi, s, (void *)1);
    }
    return 0;
}

static inline int pr_curl_timer_callback(CURLM *multi, long timeout_ms, void *clientp) {
    (void)multi;
    ((pr_curl_loop *)clientp)->timer_due = timeout_ms < 0 ? -1 : pr_monotonic_ms() + timeout_ms;
    return 0;
}

static inline void pr_curl_multi_use_epoll(pr_curl_loop *loop) {
    curl_multi_setopt(loop->multi, CURLMOPT_SOCKETFUNCTION, pr_curl_socket_callback);
    curl_multi_setopt(loop->multi, CURLMOPT_SOCKETDATA, (void *)loop);
    curl_multi_setopt(loop->multi, CURLMOPT_TIMERFUNCTION, pr_curl_timer_callback);
    curl_multi_setopt(loop->multi, CURLMOPT_TIMERDATA, (void *)loop);
}

// Waits for at most `max` (≤ 64) events; each comes back as its descriptor and libcurl's
// CURL_CSELECT_* bits (a hang-up reads as readable, so libcurl sees the close).
static inline int pr_epoll_wait(int epfd, int *fds, int *masks, int max, int timeout_ms) {
    struct epoll_event evs[64];
    if (max > 64) max = 64;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        fds[i] = evs[i].data.fd;
        masks[i] = ((evs[i].events & (EPOLLIN | EPOLLHUP)) ? CURL_CSELECT_IN : 0)
                 | ((evs[i].events & EPOLLOUT) ? CURL_CSELECT_OUT : 0)
                 | ((evs[i].events & EPOLLERR) ? CURL_CSELECT_ERR : 0);
    }
    return n;
}

static inline int pr_epoll_add_readable(int epfd, int fd) {
    struct epoll_event ev = {0};
    ev.data.fd = fd;
    ev.events = EPOLLIN;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

// The wake-up other threads give the curl thread: an eventfd in the same epoll set.
static inline int pr_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
static inline void pr_eventfd_signal(int fd) { uint64_t one = 1; ssize_t r = write(fd, &one, sizeof one); (void)r; }
static inline void pr_eventfd_drain(int fd) { uint64_t n; ssize_t r = read(fd, &n, sizeof n); (void)r; }

static const curl_socket_t pr_curl_socket_timeout = CURL_SOCKET_TIMEOUT;
#endif
