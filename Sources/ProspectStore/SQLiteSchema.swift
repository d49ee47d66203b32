import ProspectsCore

/// The SQLite schema and its migrations, versioned by `PRAGMA user_version`.
///
/// A new file runs every migration in turn, so the path an old file takes is the path every file takes.
enum SQLiteSchema {
    /// The page size of a new store; an existing file keeps the size it was made with. 16 KiB pages rather than
    /// SQLite's 4 KiB: a bulk import writes and checkpoints a quarter as many pages (docs/performance.md), while a
    /// commit of one scan writes its few pages whole.
    static let pageSize = 16_384

    /// Version 1: the original app's table.
    static let version1 = """
        CREATE TABLE prospects (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            email TEXT NOT NULL,
            email_key TEXT NOT NULL UNIQUE,
            contacted INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL
        );
        """

    /// Version 2: contact details, scan bookkeeping and history, reminders, the sort key, the file ledger.
    /// No index on the sort keys: `list` reads every row anyway, and an index would slow every insert.
    /// `id_high_water` keeps ids of deleted prospects from being reused (see `SQLiteStore.nextID`) at a cost per
    /// transaction; AUTOINCREMENT would do it at a cost per row, a fifth of a bulk import's time.
    static let version2 = """
        ALTER TABLE prospects ADD COLUMN phone TEXT;
        ALTER TABLE prospects ADD COLUMN organization TEXT;
        ALTER TABLE prospects ADD COLUMN last_seen_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE prospects ADD COLUMN scan_count INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE prospects ADD COLUMN first_source TEXT NOT NULL DEFAULT '';
        ALTER TABLE prospects ADD COLUMN remind_at INTEGER;
        ALTER TABLE prospects ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
        UPDATE prospects SET last_seen_at = created_at;
        CREATE INDEX prospects_by_reminder ON prospects (remind_at) WHERE remind_at IS NOT NULL;
        CREATE TABLE scans (
            id INTEGER PRIMARY KEY,
            prospect_id INTEGER NOT NULL REFERENCES prospects (id) ON DELETE CASCADE,
            source TEXT NOT NULL,
            seen_at INTEGER NOT NULL
        );
        CREATE INDEX scans_by_prospect ON scans (prospect_id);
        CREATE TABLE id_high_water (last_id INTEGER NOT NULL);
        INSERT INTO id_high_water (last_id) SELECT coalesce(max(id), 0) FROM prospects;
        CREATE TABLE files (
            content_hash TEXT PRIMARY KEY,
            file_name TEXT NOT NULL,
            outcome TEXT NOT NULL,
            prospects INTEGER NOT NULL,
            processed_at INTEGER NOT NULL
        );
        """

    /// Version 3: a card's title and name parts, each sighting's event and collector, the team's rating, tags and
    /// notes, and the other addresses of a card.
    static let version3 = """
        ALTER TABLE prospects ADD COLUMN title TEXT;
        ALTER TABLE prospects ADD COLUMN family_name TEXT;
        ALTER TABLE prospects ADD COLUMN given_name TEXT;
        ALTER TABLE prospects ADD COLUMN additional_names TEXT;
        ALTER TABLE prospects ADD COLUMN honorific_prefix TEXT;
        ALTER TABLE prospects ADD COLUMN honorific_suffix TEXT;
        ALTER TABLE prospects ADD COLUMN rating TEXT NOT NULL DEFAULT 'none';
        ALTER TABLE prospects ADD COLUMN first_event TEXT;
        ALTER TABLE prospects ADD COLUMN first_collected_by TEXT;
        ALTER TABLE prospects ADD COLUMN sort_key TEXT NOT NULL DEFAULT '';
        ALTER TABLE scans ADD COLUMN event TEXT;
        ALTER TABLE scans ADD COLUMN collected_by TEXT;
        CREATE TABLE other_emails (
            prospect_id INTEGER NOT NULL REFERENCES prospects (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            email TEXT NOT NULL,
            PRIMARY KEY (prospect_id, position)
        );
        CREATE TABLE tags (
            prospect_id INTEGER NOT NULL REFERENCES prospects (id) ON DELETE CASCADE,
            tag TEXT NOT NULL,
            PRIMARY KEY (prospect_id, tag)
        );
        CREATE INDEX tags_by_tag ON tags (tag);
        CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            prospect_id INTEGER NOT NULL REFERENCES prospects (id) ON DELETE CASCADE,
            written_at INTEGER NOT NULL,
            author TEXT NOT NULL,
            text TEXT NOT NULL
        );
        CREATE INDEX notes_by_prospect ON notes (prospect_id);
        """

    /// Version 4: the folded text a search looks in (`SearchKey`), filled in Swift by `fillSearchKeys`.
    static let version4 = "ALTER TABLE prospects ADD COLUMN search_key TEXT NOT NULL DEFAULT '';"

    /// Version 5: the store's change generation, one row that every write transaction moves once (a server caches
    /// its pages by it, and its event streams poll it), and the web sessions that several servers share.
    static let version5 = """
        CREATE TABLE store_generation (value INTEGER NOT NULL);
        INSERT INTO store_generation (value) VALUES (0);
        CREATE TABLE web_sessions (
            session_key TEXT PRIMARY KEY,
            csrf_token TEXT NOT NULL,
            account TEXT,
            role TEXT,
            created_at INTEGER NOT NULL,
            last_used_at INTEGER NOT NULL
        );
        CREATE INDEX web_sessions_by_use ON web_sessions (last_used_at);
        """

    /// Version 6: the keys that sign visitors' form tokens (no session is kept for anyone not signed in), and the
    /// sessions found by account, whose number is capped per account.
    static let version6 = """
        CREATE TABLE web_keys (
            id INTEGER PRIMARY KEY,
            secret TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX web_sessions_by_account ON web_sessions (account, last_used_at);
        """

    /// Version 7: a card's or row's phones after the first, as `other_emails` keeps its addresses after the first.
    /// Nothing moves: a prospect keeps its `phone`.
    static let version7 = """
        CREATE TABLE other_phones (
            prospect_id INTEGER NOT NULL REFERENCES prospects (id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            phone TEXT NOT NULL,
            PRIMARY KEY (prospect_id, position)
        );
        """

    /// Version 8: events as records, one made for every event name the scans held (nothing moves: a scan keeps
    /// its event's name, which is the event's key), and the events' rosters.
    static let version8 = """
        CREATE TABLE events (
            name TEXT PRIMARY KEY,
            starts_on TEXT,
            ends_on TEXT,
            location TEXT,
            badge_pattern TEXT,
            created_at INTEGER NOT NULL
        );
        \(EventSQL.fillFromScans);
        CREATE TABLE roster_entries (
            event TEXT NOT NULL REFERENCES events (name) ON DELETE CASCADE,
            attendee_id TEXT NOT NULL,
            name TEXT NOT NULL,
            email TEXT,
            organization TEXT,
            title TEXT,
            phone TEXT,
            source TEXT NOT NULL,
            imported_at INTEGER NOT NULL,
            PRIMARY KEY (event, attendee_id)
        );
        """

    /// Refuses a database of another program (tables, no `prospects` among them, or a `prospects` table without
    /// version 1's columns and no schema version): migrating would add our tables to it and switch it to WAL, for a
    /// mistyped `--store`.
    static func refuseForeign(_ database: SQLiteDatabase) throws(StoreError) {
        let tables = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        ) { row throws(StoreError) in try row.text(0) }
        if tables.contains("prospects") {
            // A `prospects` table with no schema version may be another program's too.
            guard try version(of: database) == 1 else { return }
            do throws(StoreError) { try database.execute(ProspectSQL.version1Shape) } catch {
                throw ProspectSQL.foreignProspectsTable(
                    in: database.path, error, otherwise: "give the path of a prospect store, or of a new file")
            }
            return
        }
        guard !tables.isEmpty else { return }
        let names = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw .unavailable(
            "\(database.path) is another program's SQLite database (tables: \(names)), not a prospect store")
    }

    /// Brings the database to `ProspectSQL.schemaVersion`, or throws `.schemaTooNew`. A store of an older version
    /// is first copied beside itself (`SQLiteDatabase.backUp`), and the migration returned; a new file's is not.
    static func migrate(_ database: SQLiteDatabase) throws(StoreError) -> SchemaMigration? {
        // Cheap check first: an up-to-date store needs no write lock.
        let found = try version(of: database)
        if found == ProspectSQL.schemaVersion { return nil }
        if found > ProspectSQL.schemaVersion {
            throw .schemaTooNew(found: found, supported: ProspectSQL.schemaVersion)
        }
        // The way back, made before the write lock is taken (VACUUM INTO reads in a transaction of its own).
        let backup = found >= 1 ? try database.backUp(suffix: ".schema-\(found).bak") : nil
        return try database.writeTransaction { () throws(StoreError) -> SchemaMigration? in
            // Read again under the write lock: another process may have migrated meanwhile.
            var version = try version(of: database)
            if version > ProspectSQL.schemaVersion {
                throw .schemaTooNew(found: version, supported: ProspectSQL.schemaVersion)
            }
            if version == ProspectSQL.schemaVersion { return nil }
            let from = version
            if version < 1 {
                try database.executeScript(version1)
                version = 1
            }
            if version < 2 {
                try database.executeScript(version2)
                try fillNameKeys(database)
                version = 2
            }
            if version < 3 {
                try database.executeScript(version3)
                try fillSortKeys(database)
                version = 3
            }
            if version < 4 {
                try database.executeScript(version4)
                try fillSearchKeys(database)
                version = 4
            }
            if version < 5 {
                try database.executeScript(version5)
                version = 5
            }
            if version < 6 {
                try database.executeScript(version6)
                version = 6
            }
            if version < 7 {
                try database.executeScript(version7)
                version = 7
            }
            if version < 8 {
                try database.executeScript(version8)
                version = 8
            }
            try database.execute("PRAGMA user_version = \(version)")
            guard from >= 1 else { return nil }
            return SchemaMigration(store: database.path, from: from, to: version, backup: backup)
        }
    }

    /// The schema version. A file with a `prospects` table but user_version 0 predates versioning: version 1.
    static func version(of database: SQLiteDatabase) throws(StoreError) -> Int {
        let version = try database.query("PRAGMA user_version") { row throws(StoreError) in try row.int(0) }.first ?? 0
        if version == 0 {
            let tables = try database.query(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'prospects'"
            ) { row throws(StoreError) in try row.int(0) }
            if tables.first == 1 { return 1 }
        }
        return version
    }

    /// Every prospect's search key, computed in Swift (`SearchKey`) from its fields, notes and tags.
    private static func fillSearchKeys(_ database: SQLiteDatabase) throws(StoreError) {
        let rows = try database.query(ProspectSQL.searchKeyFields { "group_concat(\($0), char(10))" }) {
            row throws(StoreError) in
            (try row.int64(0), try ProspectSQL.searchKey(fromFields: row))
        }
        let update = try database.statement(ProspectSQL.setSearchKey)
        for (id, key) in rows { try update.execute([.text(key), .integer(id)]) }
    }

    /// The sort key is computed in Swift (`NameKey.sortKey`), as for a new prospect.
    private static func fillSortKeys(_ database: SQLiteDatabase) throws(StoreError) {
        let rows = try database.query("SELECT id, name_key FROM prospects") { row throws(StoreError) in
            (try row.int64(0), try row.text(1))
        }
        for (id, key) in rows {
            try database.execute(
                "UPDATE prospects SET sort_key = $1 WHERE id = $2", [.text(NameKey.sortKey(key)), .integer(id)])
        }
    }

    /// The name key is computed in Swift: SQLite's `lower()` folds ASCII only.
    private static func fillNameKeys(_ database: SQLiteDatabase) throws(StoreError) {
        let rows = try database.query("SELECT id, name FROM prospects") { row throws(StoreError) in
            (try row.int64(0), try row.text(1))
        }
        for (id, name) in rows {
            try database.execute(
                "UPDATE prospects SET name_key = $1 WHERE id = $2", [.text(NameKey.make(name)), .integer(id)])
        }
    }
}
