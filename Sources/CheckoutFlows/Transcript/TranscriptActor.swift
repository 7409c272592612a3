import CheckoutCore
import Foundation
import Synchronization

/// Who did what a transcript entry records (spec E8), so that a transcript never shows the
/// customer doing what the library did.
public enum TranscriptActor: String, Hashable, Sendable, CaseIterable {
    /// The customer's actions on the sheet (and their refusals).
    case customer
    /// What the flow (or the pay context) did on its own: calling the merchant or the backend,
    /// answering for a delegate that does not implement a method, dismissing the sheet after a
    /// result, a deadline, the outcome.
    case flow
    /// The merchant's answers, and the merchant's violations of the contract.
    case merchant
    /// The payment backend's answers (Stripe).
    case backend

    /// Who did `event`, as the flows record it.
    public init(of event: TranscriptEvent) {
        switch event {
        case .action, .refused: self = .customer
        case .call, .outcome: self = .flow
        case .completion(let method, _, _, let byDefault):
            if method.hasPrefix("backend.") {
                self = .backend
            } else if byDefault || method.hasPrefix("sheet.") {
                self = .flow
            } else {
                self = .merchant
            }
        case .violation(let violation):
            self = violation.kind == .completionTimedOut ? .flow : .merchant
        }
    }
}
