#ifndef PROSPECTS_CMICROHTTPD_SHIM_H
#define PROSPECTS_CMICROHTTPD_SHIM_H

/// libmicrohttpd's API, as HTTPServer calls it. The functions it uses are defined in microhttpd_loader.c, which loads
/// libmicrohttpd (and with it GnuTLS, p11-kit, nettle and GMP) on the first call, when a server starts, not at
/// process start-up.
// Below, libmicrohttpd's calls that Swift cannot make directly: the variadic ones, and macros that are casts.

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netdb.h>
#include <microhttpd.h>

/// Starts a daemon whose options are an `MHD_OptionItem` array ending in `MHD_OPTION_END`, with a callback for each
/// finished request. The corresponding C function is the variadic `MHD_start_daemon` with `MHD_OPTION_ARRAY`.
static inline struct MHD_Daemon *prospects_mhd_start_daemon(
    unsigned int flags, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, struct MHD_OptionItem *options) {
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context, MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
        MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// Writes the client's numeric address (no port) into `buffer`; 0 on success, -1 when it is unknown.
/// The corresponding C function is the variadic `MHD_get_connection_info` with `MHD_CONNECTION_INFO_CLIENT_ADDRESS`.
static inline int prospects_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) return -1;
    const struct sockaddr *address = info->client_addr;
    socklen_t length = address->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    return getnameinfo(address, length, buffer, (socklen_t)size, NULL, 0, NI_NUMERICHOST) == 0 ? 0 : -1;
}

/// The connection's socket, or -1. The corresponding C function is the variadic `MHD_get_connection_info` with
/// `MHD_CONNECTION_INFO_CONNECTION_FD`.
static inline int prospects_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// Sends `length` bytes as TLS records on an HTTPS connection, waiting at most about a second for room; 0 when every
/// byte went, -1 otherwise. For an answer libmicrohttpd cannot queue (a body cut while it is read): it owns the TLS
/// session, so the bytes go through that session with GnuTLS, which libmicrohttpd loaded.
int prospects_mhd_tls_send(struct MHD_Connection *connection, const void *bytes, size_t length);

/// What a content reader returns at the regular end of a stream of unknown length.
static inline ssize_t prospects_mhd_content_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// What a content reader returns when the stream failed: the connection is closed at once.
static inline ssize_t prospects_mhd_content_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

/// The size that marks a response body of unknown length (sent chunked).
static inline uint64_t prospects_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

#endif
