print("checkout-bench: not yet")
