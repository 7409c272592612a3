extension StripeTestCard {
    /// The Markdown table of every card (``allCases``) with what it does in the pay context, the
    /// text of `docs/stripe-test-cards.md`; a test keeps the file equal to it.
    public static var documentationTable: String {
        var lines = [
            "# Stripe's test cards in the in-memory backend",
            "",
            "Generated from `StripeTestCard.allCases` (Sources/CheckoutStripe/StripeTestCard+Table.swift), the",
            "table `InMemoryStripeBackend` runs on. It follows Stripe's testing page, \(pageSource),",
            "as read on \(pageVersion) (the in-person PIN cards, which only a card reader presents, are left",
            "out; Mexico's Carnet card, whose brand is none of Stripe's `card.brand` values, reads `unknown`).",
            "Outcomes are for a confirmation through the pay context (Apple Pay sends the billing postal",
            "code and no CVC) on an account with Stripe's default Radar rules",
            "(`StripeRadarRules.stripeDefault`: the highest risk and failed CVC checks blocked, failed",
            "postal-code checks not); `InMemoryStripeBackend(radar: .blockingFailedPostalCodes)` turns the",
            "postal-code rule on, `InMemoryStripeBackend(radar: .permissive)` turns every block off.",
            "Regenerate with `Scripts/stripe-test-cards.sh`.",
            "",
            "| Number | Card | Brand | Funding | Country | PaymentIntent | SetupIntent | Checks | After payment |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        var section: Section?
        for card in allCases {
            if card.section != section {
                section = card.section
                lines.append("| **\(card.section.title)** | | | | | | | | |")
            }
            let checks = [
                card.postalCodeCheck == .pass ? nil : "postal code: \(card.postalCodeCheck.rawValue)",
                card.line1Check == .pass ? nil : "line1: \(card.line1Check.rawValue)",
                card.cvcCheck == .pass ? nil : "cvc: \(card.cvcCheck.rawValue)",
                card.riskLevel == "normal" ? nil : "risk: \(card.riskLevel)",
            ].compactMap { $0 }
            let cells = [
                "`\(card.number)`", card.name, card.brand, card.funding, card.country,
                card.describe(setup: false), card.describe(setup: true), checks.joined(separator: ", "),
                card.afterPayment ?? "",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(setup: Bool) -> String {
        if let creationError { return "refused at creation: `\(creationError.code ?? creationError.type)`" }
        switch outcome(setup: setup) {
        case .succeeds: return setup ? "succeeded" : "succeeded (requires_capture if manual)"
        case .requiresAction: return "requires_action (3-D Secure)"
        case .declines(let error):
            return "`\(error.code ?? error.type)`" + (error.declineCode.map { " / `\($0)`" } ?? "")
        }
    }
}

extension StripeTestCard.Section {
    /// The section's title on Stripe's testing page.
    public var title: String {
        switch self {
        case .brands: "Cards by brand"
        case .countries: "Cards by country"
        case .hsaFSA: "HSA and FSA cards"
        case .declines: "Declined payments"
        case .fraudPrevention: "Fraud prevention"
        case .invalidData: "Invalid data"
        case .threeDSecure: "3D Secure authentication"
        case .disputes: "Disputes"
        case .refunds: "Refunds"
        case .balance: "Available balance"
        case .captcha: "Captcha challenge"
        }
    }
}
