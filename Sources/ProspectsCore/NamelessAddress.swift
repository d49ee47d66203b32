/// The naming rule for formats that carry an email address but no name (`mailto:`, `MATMSG:`, an address alone).
///
/// The name is the address's local part as written, after validation: `paul.hudson@example.com` is
/// listed as `paul.hudson`. Guessing `Paul Hudson` would be wrong as often as right (`jdoe`, `info`,
/// `sales-eu`), and refusing the code would lose a contact that a person chose to share.
enum NamelessAddress {
    /// A prospect for `email`, named after its local part; `.missingEmail` when there is no address.
    static func prospect(email raw: String?) -> Result<Prospect, ScanError> {
        ProspectBuilder.cleanEmail(raw).flatMap { email in
            let local = email.unicodeScalars.prefix { $0 != "@" }
            return ProspectBuilder.build(name: ScalarText.string(local), email: email)
        }
    }
}
