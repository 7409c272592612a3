import CheckoutCore
import CheckoutFlows
import CheckoutWeb

extension WebRelay {
    /// Drives a Google Pay `onPaymentDataChanged` (spec W9): its changes reach the flow one
    /// callback at a time, and the page gets one `PaymentDataRequestUpdate` built from the answers
    /// (``RelaySession/googlePayUpdate(for:)``), a refusal (nothing changed, or the
    /// callbacks before the refused one answered and recorded), or the session's end (an invalid
    /// update, a deadline, an answer with no Google form).
    func driveGooglePayChange(
        _ session: RelaySession, _ event: RelayEvent, _ kept: KeptEvent, _ data: GooglePayIntermediatePaymentData
    ) async -> RelayReply.Body {
        var round = GooglePayRound()
        func record(refusal: String? = nil) {
            guard keepsSteps else { return }
            let answers = round.answers.map { session.recorded($0.driven) }
            guard !answers.isEmpty || refusal != nil else { return }
            let later = answers.count > 1 ? Array(answers.dropFirst()) : nil
            session.withState {
                $0.steps.append(kept, of: event.payload, answer: answers.first, refusal: refusal, laterAnswers: later)
            }
        }
        do {
            try await session.driveGooglePayChange(data, into: &round)
        } catch let invalid as RelaySession.InvalidEvent {
            session.note(
                .refused(
                    "relay.\(event.type.rawValue)",
                    Refusal(code: .invalidField, message: invalid.error.message, fields: invalid.refusal.fields ?? [])))
            return .refused(invalid.refusal)
        } catch let refusal as Refusal {
            record(refusal: refusal.code.rawValue)
            return .refused(RelayRefusal(refusal))
        } catch {
            // CallbackEnded: the flow ended before the merchant answered (deadline, cancel).
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
        record()
        if session.flow.isEnded || session.flow.sheet.outcome != nil {
            // Spec W4, E7: an answer was invalid; the page gets the flow's end instead.
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
        // Spec W4, W9: what Google's sheet would refuse is never sent.
        let answered = round
        return await send(
            event, of: session, checkedAs: "Google Pay",
            { .googlePayPaymentDataChanged(try session.googlePayUpdate(for: answered)) },
            check: { completion in
                guard case .googlePayPaymentDataChanged(let update) = completion else { return }
                try update.check(answering: data.callbackTrigger)
            })
    }
}
