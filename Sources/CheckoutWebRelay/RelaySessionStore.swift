import Foundation

/// Where a relay writes sessions out between requests (spec W6), keyed by session id: back it
/// with Redis, Postgres, DynamoDB or a file system. The values are sealed snapshots
/// (``RelaySnapshot``): the store needs to keep the bytes, not to understand or protect them.
public protocol RelaySessionStore: Sendable {
    /// Keeps `snapshot` under `sessionID`, replacing what was there.
    func save(_ snapshot: Data, for sessionID: String) async throws
    /// The snapshot under `sessionID`, or nil when there is none.
    func load(_ sessionID: String) async throws -> Data?
    /// Forgets the snapshot under `sessionID`; nothing happens when there is none.
    func remove(_ sessionID: String) async throws
}

/// A ``RelaySessionStore`` in memory: for tests, for one process, and as a model for your own.
public actor InMemoryRelaySessionStore: RelaySessionStore {
    private var snapshots: [String: Data] = [:]

    /// An empty store.
    public init() {}

    /// Keeps `snapshot` under `sessionID`.
    public func save(_ snapshot: Data, for sessionID: String) { snapshots[sessionID] = snapshot }

    /// The snapshot under `sessionID`, if any.
    public func load(_ sessionID: String) -> Data? { snapshots[sessionID] }

    /// Forgets the snapshot under `sessionID`.
    public func remove(_ sessionID: String) { snapshots[sessionID] = nil }

    /// The ids of the sessions kept.
    public var sessionIDs: [String] { snapshots.keys.sorted() }
}
