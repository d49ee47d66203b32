/*
 * import_limit — what `prospects import` costs SQLite alone: the bench's reference for the import row.
 *
 * usage: import_limit LIST.csv STORE
 *
 * STORE is a fresh prospect store (the bench makes it with `prospects import` of a header-only CSV, so the schema is
 * the program's own). The CSV holds `name,email` rows without quoted fields, as Scripts/bench writes them. Every row
 * is read into memory first, with the keys a schema version 4 row stores: the name key (lowercased), the sort key
 * (folded, digit runs padded to 20) and the search key (folded name and address), each computed for Latin-1 letters
 * only, as a table lookup (prospects handles all of Unicode). Then the store's work alone, with the process and
 * connection settings prospects uses, in one transaction, one row at a time, without any check a real import makes
 * (no UTF-8 or address validation, no NUL check). Per row: one upsert keyed on the email key, with the columns a
 * row of a name and an address fills (the collector is the login name, as `prospects import` records it by
 * default); for a repeat, the prospect's id by that key and a history row; at the end, the list's ledger row. Text
 * is bound SQLITE_STATIC, so SQLite copies nothing. The bench times the whole process, reading included, as it
 * times every other row. Not done here, and done by prospects: hashing the file for the ledger, the Unicode rules,
 * validation.
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
    char *name, *name_key, *sort_key, *search_key, *email, *email_key, *source;
} Row;

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Lowercased: ASCII, and Latin-1's letters (U+00C0..U+00DE, UTF-8 C3 80..C3 9E, but not U+00D7). */
static char *lowered(const char *text) {
    char *copy = strdup(text);
    for (unsigned char *c = (unsigned char *)copy; *c; c++) {
        if (*c == 0xC3 && c[1] >= 0x80 && c[1] <= 0x9E && c[1] != 0x97) {
            c[1] += 0x20;
            c++;
        } else {
            *c = (unsigned char)tolower(*c);
        }
    }
    return copy;
}

/* What each lowercase Latin-1 letter U+00DF..U+00FF folds to in a sort or search key (NameKey.folds); NULL: itself. */
static const char *const latin1_folds[33] = {
    "ss", "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i", "d", "n", "o", "o", "o",
    "o", "o", NULL, "o", "u", "u", "u", "u", "y", "th", "y",
};

/* A lowercased key folded (NameKey.fold, Latin-1 only), written at `out`; returns the end. */
static char *folded(const char *key, char *out) {
    for (const unsigned char *c = (const unsigned char *)key; *c; c++) {
        const char *fold = c[0] == 0xC3 && c[1] >= 0x9F && c[1] <= 0xBF ? latin1_folds[c[1] - 0x9F] : NULL;
        if (fold) {
            out = stpcpy(out, fold);
            c++;
        } else {
            *out++ = (char)*c;
        }
    }
    *out = 0;
    return out;
}

/* The sort key of a name key: folded, each run of ASCII digits written with 20 digits (NameKey.sortKey). */
static char *sort_key(const char *name_key) {
    char fold[4096 * 2], key[4096 * 3], *out = key;
    folded(name_key, fold);
    for (const char *c = fold; *c;) {
        if (!isdigit((unsigned char)*c)) {
            *out++ = *c++;
            continue;
        }
        size_t run = strspn(c, "0123456789");
        const char *significant = c;
        while (significant < c + run && *significant == '0') significant++;
        size_t digits = (size_t)(c + run - significant);
        for (size_t pad = digits; pad < 20; pad++) *out++ = '0';
        memcpy(out, significant, digits);
        out += digits;
        c += run;
    }
    *out = 0;
    return strdup(key);
}

/* The search key of a row of a name and an address: both folded, one a line (SearchKey.make). */
static char *search_key(const char *name_key, const char *email_key) {
    char key[4096 * 4];
    char *end = folded(name_key, key);
    *end++ = '\n';
    folded(email_key, end);
    return strdup(key);
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
        row->sort_key = sort_key(row->name_key);
        row->search_key = search_key(row->name_key, row->email_key);
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
    // The collector every sighting records when `--by` is not given: the login name (ProspectsService.loginName).
    const char *collector = getenv("USER") && *getenv("USER") ? getenv("USER") : "root";
    // The columns a row of a name and an address gives a new prospect; the others keep their defaults (NULL). A
    // repeat gives nothing to fill in, so it only counts the scan and moves the last-seen time.
    sqlite3_stmt *upsert = prepare(db,
        "INSERT INTO prospects (id, name_key, sort_key, search_key, name, email_key, email, contacted, created_at, "
        "last_seen_at, scan_count, first_source, first_collected_by) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, FALSE, ?8, ?8, 1, ?9, ?10) ON CONFLICT (email_key) "
        "DO UPDATE SET scan_count = scan_count + 1, last_seen_at = max(last_seen_at, excluded.last_seen_at)");
    sqlite3_stmt *id_of_key = prepare(db, "SELECT id FROM prospects WHERE email_key = ?1");
    sqlite3_stmt *history =
        prepare(db, "INSERT INTO scans (prospect_id, source, seen_at, collected_by) VALUES (?1, ?2, ?3, ?4)");
    check(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db, "BEGIN");
    // The next id, as SQLiteStore.nextID reads it once per transaction.
    sqlite3_stmt *highest = prepare(db,
        "SELECT max(coalesce((SELECT max(id) FROM prospects), 0), (SELECT max(last_id) FROM id_high_water))");
    check(sqlite3_step(highest), db, "next id");
    sqlite3_int64 next_id = sqlite3_column_int64(highest, 0) + 1, first_id = next_id;
    sqlite3_finalize(highest);
    sqlite3_int64 now = (sqlite3_int64)time(NULL) * 1000;
    for (size_t i = 0; i < count; i++) {
        Row *row = &rows[i];
        sqlite3_bind_int64(upsert, 1, next_id);
        sqlite3_bind_text(upsert, 2, row->name_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 3, row->sort_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 4, row->search_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 5, row->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 6, row->email_key, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 7, row->email, -1, SQLITE_STATIC);
        sqlite3_bind_int64(upsert, 8, now);
        sqlite3_bind_text(upsert, 9, row->source, -1, SQLITE_STATIC);
        sqlite3_bind_text(upsert, 10, collector, -1, SQLITE_STATIC);
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
        sqlite3_bind_text(history, 4, collector, -1, SQLITE_STATIC);
        check(sqlite3_step(history), db, "history");
        sqlite3_reset(history);
    }
    // The list's ledger row, which commits with its last rows (the hash itself is not computed here).
    sqlite3_stmt *ledger = prepare(db,
        "INSERT INTO files (content_hash, file_name, outcome, prospects, processed_at) VALUES (?1, ?2, 'inserted', ?3, "
        "?4) ON CONFLICT (content_hash) DO NOTHING");
    sqlite3_bind_text(ledger, 1, "0000000000000000000000000000000000000000000000000000000000000000", -1, SQLITE_STATIC);
    sqlite3_bind_text(ledger, 2, argv[1], -1, SQLITE_STATIC);
    sqlite3_bind_int64(ledger, 3, (sqlite3_int64)count);
    sqlite3_bind_int64(ledger, 4, now);
    check(sqlite3_step(ledger), db, "ledger");
    sqlite3_finalize(ledger);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "COMMIT");
    sqlite3_finalize(upsert);
    sqlite3_finalize(id_of_key);
    sqlite3_finalize(history);
    check(sqlite3_close(db), db, "close");
    printf("%.4f %lld\n", seconds() - start, (long long)(next_id - first_id));
    return 0;
}
