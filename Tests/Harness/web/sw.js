// The payment app: a service worker Chromium installs from the payment method manifest, playing
// the customer of one harness scenario (the page's method data names it). It reports what the
// browser gives it to the harness's front (POST /harness/report), for the driver to check.
const address = {
  country: "US", addressLine: ["1 Main St"], region: "TX", city: "Austin", dependentLocality: "",
  postalCode: "78701", sortingCode: "", organization: "Tea Lovers", recipient: "Ravi Patel", phone: "+15125550100",
};
const payer = { payerName: "Ravi Patel", payerEmail: "ravi@example.com", payerPhone: "+15125550199" };
const amex = { displayName: "Amex 1005", network: "amex", type: "credit" };

const report = (play, entry) =>
  fetch("/harness/report", { method: "POST", body: JSON.stringify({ play, ...entry }) });
const settle = async (play, step, promise) => {
  try {
    const value = await promise;
    await report(play, { step, resolved: value ?? null });
    return value;
  } catch (error) {
    await report(play, { step, rejected: error.name, message: error.message });
    throw error;
  }
};
const response = (event, card, shippingOption) => ({
  methodName: event.methodData[0].supportedMethods, details: { cardNumber: card },
  shippingAddress: address, shippingOption, ...payer,
});

const plays = {
  // The whole flow: an address (the browser redacts it for the page), an option, a method, paid.
  async happy(event, play) {
    await settle(play, "changeShippingAddress", event.changeShippingAddress(address));
    await settle(play, "changeShippingOption", event.changeShippingOption("express"));
    await settle(play, "changePaymentMethod",
      event.changePaymentMethod(event.methodData[0].supportedMethods, amex));
    return response(event, "4242424242424242", "express");
  },
  // A card the bank declines: the merchant answers retry.
  async retry(event, play) {
    await settle(play, "changeShippingAddress", event.changeShippingAddress(address));
    return response(event, "4000000000000002", "ground");
  },
  // The merchant answers the option change with a negative total.
  async invalid(event, play) {
    await settle(play, "changeShippingAddress", event.changeShippingAddress(address));
    await settle(play, "changeShippingOption", event.changeShippingOption("express"));
    return response(event, "4242424242424242", "express");
  },
  // The customer closes the payment app after choosing an address: the app rejects.
  async cancel(event, play) {
    await settle(play, "changeShippingAddress", event.changeShippingAddress(address));
    await report(play, { step: "close" });
    throw new Error("the customer closed the payment app");
  },
};

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
// The page's request.abort() asks the payment app first; it agrees.
self.addEventListener("abortpayment", (event) => {
  event.respondWith(report("abortpayment", { step: "abortpayment" }).then(() => true));
});
self.addEventListener("paymentrequest", (event) => {
  const play = event.methodData[0].data.play;
  event.respondWith((async () => {
    await report(play, { step: "paymentrequest", total: event.total, shippingOptions: event.shippingOptions ?? null });
    try {
      const answer = await plays[play](event, play);
      await report(play, { step: "respond", response: answer });
      return answer;
    } catch (error) {
      await report(play, { step: "respond", rejected: error.name, message: error.message });
      throw error;
    }
  })());
});
