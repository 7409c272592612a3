import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Clocks the benchmark reads: wall time, the calling thread's CPU time and the whole process's
/// CPU time, all in nanoseconds.
enum Clocks {
    /// Monotonic wall time.
    static func wall() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// CPU time of the calling thread: it does not count the time the thread waited for a core
    /// that another process held, so single-threaded figures stay steady on a shared machine.
    static func threadCPU() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }

    /// CPU time of every thread of the process.
    static func processCPU() -> UInt64 { read(CLOCK_PROCESS_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

/// One measured quantity over several runs: the median and the spread.
struct Figure: Sendable {
    /// The name shown in the table.
    var name: String
    /// The JSON key.
    var key: String
    /// The unit, as shown after the number (`x`, `/s`, `B`, `µs`, `KB`).
    var unit: String
    /// One value per run, in run order.
    var runs: [Double]
    /// What the figure is compared with, if anything.
    var target: Target?

    var median: Double { Self.median(runs) }
    var min: Double { runs.min() ?? .nan }
    var max: Double { runs.max() ?? .nan }

    /// The half-width of the range around the median, relative to the median, in percent.
    var spreadPercent: Double {
        guard median != 0, runs.count > 1 else { return 0 }
        return (max - min) / 2 / abs(median) * 100
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// A target of the issue: a bound the median must stay within.
struct Target: Sendable {
    enum Kind: Sendable {
        case atMost
        case atLeast
    }

    var kind: Kind
    var bound: Double

    static func atMost(_ bound: Double) -> Target { Target(kind: .atMost, bound: bound) }
    static func atLeast(_ bound: Double) -> Target { Target(kind: .atLeast, bound: bound) }

    func isMet(by value: Double) -> Bool {
        switch kind {
        case .atMost: value <= bound
        case .atLeast: value >= bound
        }
    }
}

/// Percentiles of a list of samples.
func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = Swift.min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
    return Double(sorted[index])
}

/// Heap statistics from glibc's allocator: the bytes handed out by `malloc` and not yet freed,
/// over every arena, including chunks served by `mmap`.
///
/// They come from `malloc_info(3)`, which writes the allocator's own totals as XML: for the
/// whole process, the arenas' size (`system type="current"`), what is free in them (`total
/// type="fast"` and `type="rest"`, which includes each arena's top chunk) and the mmapped chunks
/// (`total type="mmap"`). In use = current - fast - rest + mmap, the figure `mallinfo2()` calls
/// `uordblks + hblkhd`. (Swift's Glibc module does not import `malloc.h`, so the function is
/// looked up with `dlsym`; its C signature has only an `int` and a `FILE *`.)
enum Heap {
    private typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32

    /// Bytes in use, or nil when the allocator offers no statistics (not glibc).
    static func bytesInUse() -> Int? {
        guard let statistics = xml() else { return nil }
        // The process-wide totals follow the last arena's closing tag.
        let totals =
            statistics.range(of: "</heap>", options: .backwards).map { statistics[$0.upperBound...] }
            ?? statistics[...]
        guard let current = value(in: totals, tag: "system", type: "current"),
            let fast = value(in: totals, tag: "total", type: "fast"),
            let rest = value(in: totals, tag: "total", type: "rest"),
            let mmap = value(in: totals, tag: "total", type: "mmap")
        else { return nil }
        return current - fast - rest + mmap
    }

    /// The resident set size of the process now, in bytes (`/proc/self/statm`'s second field);
    /// nil where there is no `/proc`.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The peak resident set size of the process so far, in bytes (`getrusage`'s `ru_maxrss`).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return usage.ru_maxrss * 1_024
        #else
            getrusage(RUSAGE_SELF, &usage)
            return usage.ru_maxrss
        #endif
    }

    private static func xml() -> String? {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "malloc_info") else { return nil }
            let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
            var buffer: UnsafeMutablePointer<CChar>?
            var size = 0
            guard let stream = open_memstream(&buffer, &size) else { return nil }
            let status = mallocInfo(0, stream)
            fclose(stream)
            defer { free(buffer) }
            guard status == 0, let buffer else { return nil }
            return String(cString: buffer)
        #else
            return nil
        #endif
    }

    /// The `size` attribute of `<tag type="type" ... size="N"/>`.
    private static func value(in text: Substring, tag: String, type: String) -> Int? {
        guard let start = text.range(of: "<\(tag) type=\"\(type)\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let size = rest.range(of: "size=\"") else { return nil }
        let digits = rest[size.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}
