#ifndef PROSPECTS_POSTGRES_SHIM_H
#define PROSPECTS_POSTGRES_SHIM_H

/// libpq's API, as ProspectStore calls it. The functions it uses are defined in postgres_loader.c, which loads
/// libpq (and with it Kerberos, LDAP, SASL and OpenSSL) on the first call, not at process start-up: a process that
/// never opens a PostgreSQL store does not pay for them.
// Debian keeps libpq's headers in /usr/include/postgresql (`pkg-config --cflags libpq`); the headers it includes
// sit next to it.
#include <postgresql/libpq-fe.h>

// PG_DIAG_* are character-literal macros, which Swift does not import.
static inline int prospects_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int prospects_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

// A notice processor that drops notices ("relation already exists, skipping"): libpq's default prints them
// to stderr, which a library must not do.
static inline void prospects_pg_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }
static inline void prospects_pg_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, prospects_pg_ignore_notice, 0);
}

#endif
