// libpq loaded on first use (see postgres_shim.h). Each function ProspectStore calls is defined here with libpq's
// own name and signature, and forwards to the library's. When libpq cannot be loaded there is no libpq object
// anywhere: connecting gives a stand-in connection whose status is CONNECTION_BAD and whose error message says the
// library could not be loaded, which the store reports as it reports any failed connection; every other call fails
// the way libpq fails on a NULL argument.
#include "postgres_shim.h"

#include "lazy_library.h"
#include <stdio.h>
#include <stdlib.h>

#define PROSPECTS_PQ_FUNCTIONS(X)                                                                                     \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo))                                                      \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname),       \
        (keywords, values, expand_dbname))                                                                            \
    X(void, PQfinish, (PGconn * conn), (conn))                                                                        \
    X(void, PQreset, (PGconn * conn), (conn))                                                                         \
    X(PGPing, PQping, (const char *conninfo), (conninfo))                                                             \
    X(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))                 \
    X(void, PQconninfoFree, (PQconninfoOption * options), (options))                                                  \
    X(void, PQfreemem, (void *pointer), (pointer))                                                                    \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))                                                         \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))                                     \
    X(const char *, PQparameterStatus, (const PGconn *conn, const char *name), (conn, name))                          \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                                           \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * conn, PQnoticeProcessor processor, void *argument),         \
        (conn, processor, argument))                                                                                  \
    X(PGresult *, PQexec, (PGconn * conn, const char *query), (conn, query))                                          \
    X(PGresult *, PQexecParams,                                                                                       \
        (PGconn * conn, const char *command, int count, const Oid *types, const char *const *values,                  \
            const int *lengths, const int *formats, int resultFormat),                                                \
        (conn, command, count, types, values, lengths, formats, resultFormat))                                        \
    X(ExecStatusType, PQresultStatus, (const PGresult *result), (result))                                             \
    X(char *, PQresultErrorField, (const PGresult *result, int field), (result, field))                               \
    X(void, PQclear, (PGresult * result), (result))                                                                   \
    X(int, PQntuples, (const PGresult *result), (result))                                                             \
    X(int, PQnfields, (const PGresult *result), (result))                                                             \
    X(char *, PQcmdTuples, (PGresult * result), (result))                                                             \
    X(char *, PQgetvalue, (const PGresult *result, int row, int column), (result, row, column))                      \
    X(int, PQgetlength, (const PGresult *result, int row, int column), (result, row, column))                        \
    X(int, PQgetisnull, (const PGresult *result, int row, int column), (result, row, column))

// The definitions below are hidden: the executable exports its symbols, and libpq's calls to its own functions
// should not come back through here.
#pragma GCC visibility push(hidden)

// The library's functions, once loaded (lazy_library.h).
PROSPECTS_LAZY_LIBRARY("libpq.so.5", PROSPECTS_PQ_FUNCTIONS, "\n")

// What connecting returns without the library: never dereferenced, only recognised by the calls below.
static char unloaded_connection;

PGconn *PQconnectdb(const char *conninfo) {
    return available() ? library.PQconnectdb(conninfo) : (PGconn *)&unloaded_connection;
}
PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return available() ? library.PQconnectdbParams(keywords, values, expand_dbname) : (PGconn *)&unloaded_connection;
}
void PQfinish(PGconn *conn) {
    if (available()) library.PQfinish(conn);
}
void PQreset(PGconn *conn) {
    if (available()) library.PQreset(conn);
}
PGPing PQping(const char *conninfo) { return available() ? library.PQping(conninfo) : PQPING_NO_ATTEMPT; }
// Without the library, an empty list of options (as for a conninfo that sets none), which PQconninfoFree frees.
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    if (available()) return library.PQconninfoParse(conninfo, errmsg);
    if (errmsg) *errmsg = NULL;
    return calloc(1, sizeof(PQconninfoOption));
}
void PQconninfoFree(PQconninfoOption *options) {
    if (available())
        library.PQconninfoFree(options);
    else
        free(options);
}
void PQfreemem(void *pointer) {
    if (available())
        library.PQfreemem(pointer);
    else
        free(pointer);
}
ConnStatusType PQstatus(const PGconn *conn) { return available() ? library.PQstatus(conn) : CONNECTION_BAD; }
PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
    return available() ? library.PQtransactionStatus(conn) : PQTRANS_UNKNOWN;
}
const char *PQparameterStatus(const PGconn *conn, const char *name) {
    return available() ? library.PQparameterStatus(conn, name) : NULL;
}
char *PQerrorMessage(const PGconn *conn) {
    return available() ? library.PQerrorMessage(conn) : unavailable_reason;
}
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor processor, void *argument) {
    return available() ? library.PQsetNoticeProcessor(conn, processor, argument) : NULL;
}
PGresult *PQexec(PGconn *conn, const char *query) { return available() ? library.PQexec(conn, query) : NULL; }
PGresult *PQexecParams(PGconn *conn, const char *command, int count, const Oid *types, const char *const *values,
    const int *lengths, const int *formats, int resultFormat) {
    return available() ? library.PQexecParams(conn, command, count, types, values, lengths, formats, resultFormat)
                       : NULL;
}
ExecStatusType PQresultStatus(const PGresult *result) {
    return available() ? library.PQresultStatus(result) : PGRES_FATAL_ERROR;
}
char *PQresultErrorField(const PGresult *result, int field) {
    return available() ? library.PQresultErrorField(result, field) : NULL;
}
void PQclear(PGresult *result) {
    if (available()) library.PQclear(result);
}
int PQntuples(const PGresult *result) { return available() ? library.PQntuples(result) : 0; }
int PQnfields(const PGresult *result) { return available() ? library.PQnfields(result) : 0; }
char *PQcmdTuples(PGresult *result) {
    static char none[1];
    return available() ? library.PQcmdTuples(result) : none;
}
char *PQgetvalue(const PGresult *result, int row, int column) {
    return available() ? library.PQgetvalue(result, row, column) : NULL;
}
int PQgetlength(const PGresult *result, int row, int column) {
    return available() ? library.PQgetlength(result, row, column) : 0;
}
int PQgetisnull(const PGresult *result, int row, int column) {
    return available() ? library.PQgetisnull(result, row, column) : 1;
}

#pragma GCC visibility pop
