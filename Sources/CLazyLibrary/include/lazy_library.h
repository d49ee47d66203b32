#ifndef PROSPECTS_LAZY_LIBRARY_H
#define PROSPECTS_LAZY_LIBRARY_H

/// A shared library loaded on first use with dlopen, its functions resolved with dlsym: how CHeif, CPostgres,
/// CMicroHTTPD and CCrypto keep libheif, libpq, libmicrohttpd and libcrypto out of every process's start-up.
///
/// `FUNCTIONS` is an X-macro list of `X(result, name, parameters, arguments)`. The macro defines, all static:
/// `library`, a struct of the functions' pointers; `available()`, which loads the library once (thread-safe) and
/// says 1 when every function was found; and `unavailable_reason`, why not: `SONAME could not be loaded (dlerror's
/// text, or the function missing)` followed by `ENDING` ("" or, as libpq ends its messages, "\n").

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define PROSPECTS_LAZY_POINTER(result, name, parameters, arguments) result(*name) parameters;

#define PROSPECTS_LAZY_RESOLVE(result, name, parameters, arguments)                                                   \
    *(void **)&library.name = dlsym(handle, #name);                                                                   \
    if (!library.name) {                                                                                              \
        snprintf(unavailable_reason, sizeof unavailable_reason, "%s could not be loaded (no %s)%s", library_soname,   \
                 #name, library_ending);                                                                              \
        return;                                                                                                       \
    }

#define PROSPECTS_LAZY_LIBRARY(SONAME, FUNCTIONS, ENDING)                                                             \
    static struct {                                                                                                   \
        FUNCTIONS(PROSPECTS_LAZY_POINTER)                                                                             \
    } library;                                                                                                        \
    static const char library_soname[] = SONAME;                                                                      \
    static const char library_ending[] = ENDING;                                                                      \
    static char unavailable_reason[512] = SONAME " could not be loaded" ENDING;                                       \
    static pthread_once_t library_once = PTHREAD_ONCE_INIT;                                                           \
    static int library_loaded;                                                                                        \
    static void library_load(void) {                                                                                  \
        void *handle = dlopen(library_soname, RTLD_NOW | RTLD_LOCAL);                                                 \
        if (!handle) {                                                                                                \
            const char *why = dlerror();                                                                              \
            if (why)                                                                                                  \
                snprintf(unavailable_reason, sizeof unavailable_reason, "%s could not be loaded (%s)%s",              \
                         library_soname, why, library_ending);                                                        \
            return;                                                                                                   \
        }                                                                                                             \
        FUNCTIONS(PROSPECTS_LAZY_RESOLVE)                                                                             \
        library_loaded = 1;                                                                                           \
    }                                                                                                                 \
    static int available(void) {                                                                                     \
        pthread_once(&library_once, library_load);                                                                    \
        return library_loaded;                                                                                        \
    }

#endif
