/*
 * import_limit — what `prospects import` costs SQLite alone: the bench's reference for the import row.
 *
 * usage: import_limit LIST.csv STORE
 *
 * STORE is a fresh prospect store (the bench makes it with `prospects import` of a header-only CSV, so the schema is
 * the program's own). The CSV holds `name,email` rows without quoted fields, as Scripts/bench writes them. Every row
 * is read into memory first; then the store's work alone, with the process and connection settings prospects uses,
 * in one transaction, one row at a time, without any check a real import makes (no UTF-8 or address validation,
 * ASCII-only lower-casing, no NUL check). Per row: one upsert keyed on the email key; for a repeat, the prospect's id
 * by that key and a history row. Text is bound SQLITE_STATIC, so SQLite copies nothing. The bench times the whole
 * process, reading included, as it times every other row.
 *
 * Prints the seconds spent in SQLite (open to close) and the number of prospects stored, on one line.
 */
#include <ctype.h>
#include <malloc.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    char *name, *name_key, *email, *email_key, *source;
} Row;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *lowered(const char *text) {
    char *copy = strdup(text);
    for (char *c = copy; *c; c++) *c = (char)tolower((unsigned char)*c);
    return copy;
}

static void check(int code, sqlite3 *db, const char *what) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
        fprintf(stderr, "import_limit: %s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
    sqlite3_stmt *statement = NULL;
    check(sqlite3_prepare_v2(db, sql, -1, &statement, NULL), db, sql);
    return statement;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: import_limit LIST.csv STORE\n");
        return 64;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) {
        perror(argv[1]);
        return 66;
    }
    size_t count = 0, capacity = 1024;
    Row *rows = malloc(capacity * sizeof(Row));
    char line[4096];
    for (long number = 1; fgets(line, sizeof line, file); number++) {
        line[strcspn(line, "\r\n")] = 0;
        char *comma = strchr(line, ',');
        if (number == 1 || !comma) continue;
        *comma = 0;
        if (count == capacity) rows = realloc(rows, (capacity *= 2) * sizeof(Row));
        Row *row = &rows[count++];
        row->name = strdup(line);
        row->name_key = lowered(line);
        row->email = strdup(comma + 1);
        row->email_key = lowered(comma + 1);
        char source[4200];
        snprintf(source, sizeof source, "%s:%ld", argv[1], number);
        row->source = strdup(source);
    }
    fclose(file);

    // The process settings prospects makes (main.swift, SQLiteDatabase): glibc's heap thresholds, and no SQLite
    // memory statistics, which take a global lock on every allocation.
    mallopt(M_MMAP_THRESHOLD, 256 << 10);
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);

    double start = seconds();
    sqlite3 *db;
    check(sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL), db, argv[2]);
    check(sqlite3_exec(db,
              "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL; PRAGMA cache_size = -16384; "
              "PRAGMA journal_mode = WAL",
              NULL, NULL, NULL),
        db, "settings");
    // 16 MiB of WAL between checkpoints, in the store's own pages, as SQLiteDatabase.enableWAL sets it.
    sqlite3_stmt *page_size = prepare(db, "PRAGMA page_size");
    check(sqlite3_step(page_size), db, "page size");
    char checkpoint[64];
    snprintf(checkpoint, sizeof checkpoint, "PRAGMA wal_autocheckpoint = %d", (16 << 20) / sqlite3_column_int(page_size, 0));
    sqlite3_finalize(page_size);
    check(sqlite3_exec(db, checkpoint, NULL, NULL, NULL), db, checkpoint);
    sqlite3_stmt *upsert = prepare(db,
        "INSERT INTO prospects (id, name, name_key, email, email_key, contacted, created_at, last_seen_at, "
        "scan_count, first_source) VALUES (?1, ?2, ?3, ?4, ?5, FALSE, ?6, ?6, 1, ?7) ON CONFLICT (email_key) "
        "DO UPDATE SET scan_count = scan_count + 1, last_seen_at = max(last_seen_at, excluded.last_seen_at)");
    sqlite3_stmt *id_of_key = prepare(db, "SELECT id FROM prospects WHERE email_key = ?1");
    sqlite3_stmt *history = prepare(db, "INSERT INTO scans (prospect_id, source, seen_at) VALUES (?1, ?2, ?3)");
    check(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db, "BEGIN");
    sqlite3_int64 next_id = 1, now = (sqlite3_int64)time(NULL) * 1000;
    for (size_t i = 0; i < count; i++) {
        Row *row = &rows[i];
        sqlite3_bind_int64(upsert, 1, next_id);
        sqlite3_bind_text(upsert, 2, row->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 3, row->name_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 4, row->email, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 5, row->email_key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(upsert, 6, now);
        sqlite3_bind_text(upsert, 7, row->source, -1, SQLITE_STATIC);
        sqlite3_set_last_insert_rowid(db, 0);
        check(sqlite3_step(upsert), db, "upsert");
        sqlite3_reset(upsert);
        if (sqlite3_last_insert_rowid(db) == next_id) {
            next_id++;
            continue;
        }
        sqlite3_bind_text(id_of_key, 1, row->email_key, -1, SQLITE_STATIC);
        check(sqlite3_step(id_of_key), db, "id of key");
        sqlite3_int64 id = sqlite3_column_int64(id_of_key, 0);
        sqlite3_reset(id_of_key);
        sqlite3_bind_int64(history, 1, id);
        sqlite3_bind_text(history, 2, row->source, -1, SQLITE_STATIC);
        sqlite3_bind_int64(history, 3, now);
        check(sqlite3_step(history), db, "history");
        sqlite3_reset(history);
    }
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "COMMIT");
    sqlite3_finalize(upsert);
    sqlite3_finalize(id_of_key);
    sqlite3_finalize(history);
    check(sqlite3_close(db), db, "close");
    printf("%.4f %lld\n", seconds() - start, (long long)(next_id - 1));
    return 0;
}
