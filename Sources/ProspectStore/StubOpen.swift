extension StoreLocation { public func open() throws(StoreError) -> any ProspectStore { throw .unavailable("stub") } }
