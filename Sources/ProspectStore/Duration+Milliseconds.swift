extension Duration {
    /// The whole milliseconds of this duration, the unit of SQLite's busy timeout and PostgreSQL's `lock_timeout`.
    var wholeMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
