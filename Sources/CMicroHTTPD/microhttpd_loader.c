// libmicrohttpd loaded on first use (see microhttpd_shim.h). Each function HTTPServer calls is defined here with
// libmicrohttpd's own name and signature, and forwards to the library's. When libmicrohttpd cannot be loaded,
// MHD_get_version returns NULL and starting a daemon fails, as HTTPServer already handles; no daemon means no
// connection or response, so the other calls are never reached, and fail quietly if they are.
#include "microhttpd_shim.h"

#include "lazy_library.h"
#include <poll.h>
#include <stdarg.h>
#include <unistd.h>

#define PROSPECTS_MHD_FUNCTIONS(X)                                                                                    \
    X(const char *, MHD_get_version, (void), ())                                                                      \
    X(struct MHD_Daemon *, MHD_start_daemon_va,                                                                       \
        (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *accept_context,                    \
            MHD_AccessHandlerCallback handler, void *handler_context, va_list options),                               \
        (flags, port, accept, accept_context, handler, handler_context, options))                                     \
    X(MHD_socket, MHD_quiesce_daemon, (struct MHD_Daemon * daemon), (daemon))                                         \
    X(enum MHD_Result, MHD_add_connection,                                                                            \
        (struct MHD_Daemon * daemon, MHD_socket client_socket, const struct sockaddr *addr, socklen_t addrlen),       \
        (daemon, client_socket, addr, addrlen))                                                                       \
    X(void, MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))                                                  \
    X(const union MHD_ConnectionInfo *, MHD_get_connection_info,                                                      \
        (struct MHD_Connection * connection, enum MHD_ConnectionInfoType type, ...), (connection, type))              \
    X(int, MHD_get_connection_values_n,                                                                               \
        (struct MHD_Connection * connection, enum MHD_ValueKind kind, MHD_KeyValueIteratorN iterator,                 \
            void *iterator_context),                                                                                  \
        (connection, kind, iterator, iterator_context))                                                               \
    X(void, MHD_suspend_connection, (struct MHD_Connection * connection), (connection))                               \
    X(void, MHD_resume_connection, (struct MHD_Connection * connection), (connection))                                \
    X(struct MHD_Response *, MHD_create_response_from_buffer,                                                         \
        (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))                          \
    X(struct MHD_Response *, MHD_create_response_from_fd64, (uint64_t size, int fd), (size, fd))                      \
    X(struct MHD_Response *, MHD_create_response_from_callback,                                                       \
        (uint64_t size, size_t block_size, MHD_ContentReaderCallback reader, void *reader_context,                    \
            MHD_ContentReaderFreeCallback free_reader),                                                               \
        (size, block_size, reader, reader_context, free_reader))                                                      \
    X(enum MHD_Result, MHD_add_response_header,                                                                       \
        (struct MHD_Response * response, const char *header, const char *content), (response, header, content))       \
    X(enum MHD_Result, MHD_queue_response,                                                                            \
        (struct MHD_Connection * connection, unsigned int status_code, struct MHD_Response *response),                \
        (connection, status_code, response))                                                                          \
    X(void, MHD_destroy_response, (struct MHD_Response * response), (response))                                       \
    X(struct MHD_PostProcessor *, MHD_create_post_processor,                                                          \
        (struct MHD_Connection * connection, size_t buffer_size, MHD_PostDataIterator iterator,                       \
            void *iterator_context),                                                                                  \
        (connection, buffer_size, iterator, iterator_context))                                                        \
    X(enum MHD_Result, MHD_post_process, (struct MHD_PostProcessor * processor, const char *data, size_t size),       \
        (processor, data, size))                                                                                      \
    X(enum MHD_Result, MHD_destroy_post_processor, (struct MHD_PostProcessor * processor), (processor))

// The definitions below are hidden: the executable exports its symbols, and libmicrohttpd's calls to its own
// functions should not come back through here.
#pragma GCC visibility push(hidden)

// The library's functions, once loaded (lazy_library.h).
PROSPECTS_LAZY_LIBRARY("libmicrohttpd.so.12", PROSPECTS_MHD_FUNCTIONS, "")

const char *MHD_get_version(void) { return available() ? library.MHD_get_version() : NULL; }
// Forwarded through the library's va_list form: a variadic call cannot be passed on as it stands.
struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept,
    void *accept_context, MHD_AccessHandlerCallback handler, void *handler_context, ...) {
    if (!available()) return NULL;
    va_list options;
    va_start(options, handler_context);
    struct MHD_Daemon *daemon =
        library.MHD_start_daemon_va(flags, port, accept, accept_context, handler, handler_context, options);
    va_end(options);
    return daemon;
}
MHD_socket MHD_quiesce_daemon(struct MHD_Daemon *daemon) {
    return available() ? library.MHD_quiesce_daemon(daemon) : MHD_INVALID_SOCKET;
}
enum MHD_Result MHD_add_connection(
    struct MHD_Daemon *daemon, MHD_socket client_socket, const struct sockaddr *addr, socklen_t addrlen) {
    if (available()) return library.MHD_add_connection(daemon, client_socket, addr, addrlen);
    close(client_socket);
    return MHD_NO;
}
void MHD_stop_daemon(struct MHD_Daemon *daemon) {
    if (available()) library.MHD_stop_daemon(daemon);
}
// libmicrohttpd reads no argument after the type, for any type of information.
const union MHD_ConnectionInfo *MHD_get_connection_info(
    struct MHD_Connection *connection, enum MHD_ConnectionInfoType type, ...) {
    return available() ? library.MHD_get_connection_info(connection, type) : NULL;
}
int MHD_get_connection_values_n(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIteratorN iterator, void *context) {
    return available() ? library.MHD_get_connection_values_n(connection, kind, iterator, context) : -1;
}
void MHD_suspend_connection(struct MHD_Connection *connection) {
    if (available()) library.MHD_suspend_connection(connection);
}
void MHD_resume_connection(struct MHD_Connection *connection) {
    if (available()) library.MHD_resume_connection(connection);
}
struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return available() ? library.MHD_create_response_from_buffer(size, buffer, mode) : NULL;
}
struct MHD_Response *MHD_create_response_from_fd64(uint64_t size, int fd) {
    return available() ? library.MHD_create_response_from_fd64(size, fd) : NULL;
}
struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size,
    MHD_ContentReaderCallback reader, void *context, MHD_ContentReaderFreeCallback free_reader) {
    return available() ? library.MHD_create_response_from_callback(size, block_size, reader, context, free_reader)
                       : NULL;
}
enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return available() ? library.MHD_add_response_header(response, header, content) : MHD_NO;
}
enum MHD_Result MHD_queue_response(
    struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
    return available() ? library.MHD_queue_response(connection, status_code, response) : MHD_NO;
}
void MHD_destroy_response(struct MHD_Response *response) {
    if (available()) library.MHD_destroy_response(response);
}
struct MHD_PostProcessor *MHD_create_post_processor(
    struct MHD_Connection *connection, size_t buffer_size, MHD_PostDataIterator iterator, void *context) {
    return available() ? library.MHD_create_post_processor(connection, buffer_size, iterator, context) : NULL;
}
enum MHD_Result MHD_post_process(struct MHD_PostProcessor *processor, const char *data, size_t size) {
    return available() ? library.MHD_post_process(processor, data, size) : MHD_NO;
}
enum MHD_Result MHD_destroy_post_processor(struct MHD_PostProcessor *processor) {
    return available() ? library.MHD_destroy_post_processor(processor) : MHD_NO;
}

// GnuTLS's codes for a send to try again (gnutls.h's GNUTLS_E_AGAIN and GNUTLS_E_INTERRUPTED).
#define PROSPECTS_GNUTLS_E_AGAIN (-28)
#define PROSPECTS_GNUTLS_E_INTERRUPTED (-52)

int prospects_mhd_tls_send(struct MHD_Connection *connection, const void *bytes, size_t length) {
    if (!available()) return -1;
    const union MHD_ConnectionInfo *session = library.MHD_get_connection_info(connection,
        MHD_CONNECTION_INFO_GNUTLS_SESSION);
    const union MHD_ConnectionInfo *connection_fd = library.MHD_get_connection_info(connection,
        MHD_CONNECTION_INFO_CONNECTION_FD);
    if (session == NULL || session->tls_session == NULL || connection_fd == NULL) return -1;
    // Already loaded by libmicrohttpd: RTLD_NOLOAD finds it and loads nothing new.
    void *gnutls = dlopen("libgnutls.so.30", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (gnutls == NULL) return -1;
    ssize_t (*record_send)(void *, const void *, size_t);
    *(void **)&record_send = dlsym(gnutls, "gnutls_record_send");
    int result = record_send == NULL ? -1 : 0;
    const char *next = bytes;
    size_t left = length;
    int waits = 0;
    while (result == 0 && left > 0) {
        ssize_t sent = record_send(session->tls_session, next, left);
        if (sent > 0) {
            next += sent;
            left -= (size_t)sent;
        } else if ((sent == PROSPECTS_GNUTLS_E_AGAIN || sent == PROSPECTS_GNUTLS_E_INTERRUPTED) && waits < 10) {
            // GnuTLS asks for the same call again once the socket has room.
            waits += 1;
            struct pollfd descriptor = {.fd = connection_fd->connect_fd, .events = POLLOUT};
            poll(&descriptor, 1, 100);
        } else {
            result = -1;
        }
    }
    dlclose(gnutls);
    return result;
}

#pragma GCC visibility pop
