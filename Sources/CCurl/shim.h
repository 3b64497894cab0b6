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
#endif
