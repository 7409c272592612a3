#!/usr/bin/env bash
# Regenerates docs/stripe-test-cards.md from StripeTestCard.allCases (the in-memory backend's table).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
WRITE_STRIPE_TEST_CARDS=1 swift test --filter TestCardDocumentationTests
