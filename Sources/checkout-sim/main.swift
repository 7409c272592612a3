import CheckoutSimulator

print("checkout-sim")
