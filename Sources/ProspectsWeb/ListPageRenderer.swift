import ProspectsService
import SafeHTML

/// Renders one list page for the page cache, on whichever thread the cache asks: the form token left as the
/// cache's placeholder (in the page and in the header's sign-out form), the header's viewer bound here, since a
/// task-local bound around the request does not reach the render thread.
struct ListPageRenderer: Sendable {
    let services: ServicePool
    let pageSize: Int
    let placeholder: String

    /// The page for `key`, `viewer` being the request's header viewer (nil when no one is signed in).
    func render(_ key: PageCache.Key, viewer: PageLayout.Viewer?, generation: Int64?) throws -> PageCache.Page {
        let state = key.state
        let pageSize = pageSize
        let (counts, rows) = try services.withService { service in
            let query = state.query(pageSize: pageSize)
            return (try service.counts(matching: query), try service.list(query))
        }
        var viewer = viewer
        viewer?.csrfToken = placeholder
        let markup = PageLayout.$viewer.withValue(viewer) {
            ListPage(
                state: state, counts: counts, rows: rows, pageSize: pageSize, csrfToken: placeholder,
                isAdmin: key.isAdmin, generation: generation
            ).html.markup
        }
        return PageCache.Page(markup: markup, placeholder: placeholder)
    }
}
