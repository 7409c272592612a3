/// A relay's idle sessions in the order they became idle (spec W6): with one timeout for all,
/// the order of their idle deadlines, so that the relay keeps one deadline on its clock, the
/// first session's, instead of one a session (a deadline in the clock's heap, its closure and a
/// weak reference's side table, about 230 bytes a session). Each session links to its neighbours
/// (``RelaySession/idleLinks``), changed only under the relay's lock over the queue: a session is
/// kept alive by the one before it (or by ``first``), and points back to it without keeping it.
struct IdleQueue {
    private(set) var first: RelaySession?
    private unowned(unsafe) var last: RelaySession?
    /// The deadline on the relay's clock, from when it is scheduled until it has passed.
    var armedFor: Duration?

    /// Whether `session` is in the queue.
    func contains(_ session: RelaySession) -> Bool {
        session.idleLinks.previous != nil || first === session
    }

    /// Puts `session`, not in the queue, last.
    mutating func append(_ session: RelaySession) {
        if let last {
            session.idleLinks.previous = last
            last.idleLinks.next = session
        } else {
            first = session
        }
        last = session
    }

    /// Takes `session` out of the queue; nothing when it is not in it.
    mutating func remove(_ session: RelaySession) {
        guard contains(session) else { return }
        let previous = session.idleLinks.previous
        let next = session.idleLinks.next
        session.idleLinks = IdleLinks()
        next?.idleLinks.previous = previous
        if let previous { previous.idleLinks.next = next } else { first = next }
        if last === session { last = previous }
    }

    /// Takes out every session, one after another: a chain of sessions let go of at once would
    /// release each the next, as deep as the queue is long.
    mutating func removeAll() {
        while let first { remove(first) }
    }
}

/// A session's neighbours in its relay's ``IdleQueue``.
struct IdleLinks {
    unowned(unsafe) var previous: RelaySession?
    var next: RelaySession?
}
