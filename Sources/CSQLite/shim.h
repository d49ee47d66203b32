#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer: a macro Swift cannot import. Binding with it makes
// SQLite copy the bytes before the bind call returns, so Swift strings need not outlive the call.
static inline sqlite3_destructor_type prospects_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// Memory statistics make every allocation take a global mutex; nothing here reads them. Process-wide, and only
// possible before SQLite initialises (later it returns SQLITE_MISUSE, which is harmless).
static inline int prospects_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
