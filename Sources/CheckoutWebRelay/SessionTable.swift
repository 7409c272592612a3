/// The sessions a relay holds, by id, and how many each caller holds (spec W10's caps).
struct SessionTable {
    private(set) var byID: [String: RelaySession] = [:]
    /// 32-bit counts: the table's values take 4 bytes a slot, not 8, and no relay holds 2^32
    /// sessions (each takes hundreds of bytes).
    private var perCaller: [CallerDigest: UInt32] = [:]

    /// Why a session of `owner` cannot open now, or nil when it can; `held`, a session of another
    /// caller, is not counted (the answer is then the one a relay without it gives).
    func refusal(toOpenFor owner: CallerDigest?, limits: RelayLimits, besides held: RelaySession? = nil)
        -> RelayError?
    {
        let count = byID.count - (held.map { byID[$0.id] === $0 ? 1 : 0 } ?? 0)
        if count >= limits.maxSessions {
            return RelayError(
                code: .tooManySessions,
                message: "the relay holds \(count) sessions, the most it holds at once "
                    + "(RelayLimits.maxSessions \(limits.maxSessions)); try again when one has ended",
                field: "session")
        }
        if let owner, Int(perCaller[owner, default: 0]) >= limits.maxSessionsPerCaller {
            return RelayError(
                code: .tooManySessionsForCaller,
                message: "the caller holds \(limits.maxSessionsPerCaller) sessions, the most a caller holds at once "
                    + "(RelayLimits.maxSessionsPerCaller); end one first",
                field: "session")
        }
        return nil
    }

    /// Adds `session`.
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/sessionExists``, or a cap's code.
    mutating func insert(_ session: RelaySession, limits: RelayLimits) throws {
        guard byID[session.id] == nil else {
            throw RelayError(
                code: .sessionExists, message: "a session with the id \(session.id.debugDescription) is open",
                field: "session", value: session.id)
        }
        if let refusal = refusal(toOpenFor: session.owner, limits: limits) { throw refusal }
        byID[session.id] = session
        if let owner = session.owner { perCaller[owner, default: 0] += 1 }
    }

    /// Takes out the session with this id, if any.
    mutating func remove(_ id: String) -> RelaySession? {
        guard let session = byID.removeValue(forKey: id) else { return nil }
        if let owner = session.owner {
            let count = perCaller[owner, default: 1] - 1
            perCaller[owner] = count > 0 ? count : nil
        }
        return session
    }

    /// Takes out `session` if it is the one held under its id.
    mutating func remove(_ session: RelaySession) -> Bool {
        guard byID[session.id] === session else { return false }
        return remove(session.id) != nil
    }
}
