import CheckoutCore
import Foundation
import Synchronization

/// A merchant's answer that a transcript's JSON writes in its own JSON shape (spec E8), not as its
/// description.
package protocol TranscriptModel {
    /// The answer's JSON, or nil when it cannot be written.
    var transcriptJSON: String? { get }
}
