import CheckoutWebRelay
import Foundation
import Synchronization

/// The harness's web server in front of the relays: the page (docs/relay.md's W3C code), the
/// payment app that plays the customer (a payment method manifest, a web app manifest, an icon and
/// a service worker), and `POST /pay/events` into the relay of the visitor's shop, with the caller
/// taken from the cookie the front set when it served the page.
///
/// | Route | Answer |
/// | --- | --- |
/// | `GET /?shop=<name>&play=<scenario>` | The page; sets the `visitor` cookie, bound to the shop. |
/// | `GET /pay/details` | The shop's `PaymentDetailsInit`. |
/// | `GET`, `HEAD /pay` | The payment method: a `Link` to its manifest. |
/// | `GET /pay/payment-manifest.json`, `/pay/app.json`, `/pay/sw.js`, `/pay/icon.png` | The payment app. |
/// | `POST /pay/events` | The relay's answer to the page's event. |
/// | `POST /harness/report`, `GET /harness/reports` | What the payment app saw, for the driver. |
final class HarnessFront: Sendable {
    private let shops: [String: HarnessShop]
    private let snippet: String
    private let web: URL
    private let origin: String
    /// Each visitor's shop, by the cookie's value.
    private let visitors = Mutex<[String: String]>([:])
    /// The payment app's reports, as JSON texts, in the order they came.
    private let reports = Mutex<[String]>([])

    init(shops: [HarnessShop], snippet: String, web: URL, origin: String) {
        self.shops = Dictionary(uniqueKeysWithValues: shops.map { ($0.name, $0) })
        self.snippet = snippet
        self.web = web
        self.origin = origin
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/"):
            return page(request)
        case ("GET", "/pay/details"):
            guard let shop = shop(of: request) else { return .text(400, "no visitor cookie: load the page first") }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: shop.details)
        case ("GET", "/pay"), ("HEAD", "/pay"):
            var response = HTTPResponse.text(200, "the harness's payment method")
            response.headers.append(("Link", "<\(origin)/pay/payment-manifest.json>; rel=\"payment-method-manifest\""))
            return response
        case ("GET", "/pay/payment-manifest.json"):
            return file("payment-manifest.json", type: "application/json")
        case ("GET", "/pay/app.json"):
            return file("app.json", type: "application/manifest+json")
        case ("GET", "/pay/sw.js"):
            return file("sw.js", type: "text/javascript")
        case ("GET", "/pay/icon.png"):
            return file("icon.png", type: "image/png")
        case ("POST", "/pay/events"):
            guard let caller = request.cookies["visitor"], let shop = shop(of: request) else {
                return .text(400, "no visitor cookie: load the page first")
            }
            let reply = await shop.handle(request.body, caller: caller)
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: reply)
        case ("POST", "/harness/report"):
            let report = String(decoding: request.body, as: UTF8.self)
            reports.withLock { $0.append(report) }
            return HTTPResponse(status: 204)
        case ("GET", "/harness/reports"):
            let all = reports.withLock { "[" + $0.joined(separator: ",") + "]" }
            return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(all.utf8))
        default:
            return .text(404, "no route for \(request.method) \(request.path)")
        }
    }

    private func shop(of request: HTTPRequest) -> HarnessShop? {
        guard let visitor = request.cookies["visitor"], let name = visitors.withLock({ $0[visitor] }) else {
            return nil
        }
        return shops[name]
    }

    /// The page, with docs/relay.md's code inside its pay button's handler; a new visitor each load.
    private func page(_ request: HTTPRequest) -> HTTPResponse {
        guard let name = request.query["shop"], shops[name] != nil else {
            return .text(
                404, "no shop \((request.query["shop"] ?? "").debugDescription): one of \(shops.keys.sorted())")
        }
        guard let template = try? String(contentsOf: web.appendingPathComponent("page.html"), encoding: .utf8) else {
            return .text(404, "page.html is missing from \(web.path)")
        }
        let visitor = SessionID.random()
        visitors.withLock { $0[visitor] = name }
        let html = template.replacingOccurrences(of: "/* docs/relay.md */", with: snippet)
            .replacingOccurrences(of: "{{origin}}", with: origin)
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Set-Cookie", "visitor=\(visitor); Path=/; HttpOnly; SameSite=Strict"),
            ],
            body: Data(html.utf8))
    }

    /// A file of the web folder, `{{origin}}` replaced in text files.
    private func file(_ name: String, type: String) -> HTTPResponse {
        guard var data = FileManager.default.contents(atPath: web.appendingPathComponent(name).path) else {
            return .text(404, "\(name) is missing from \(web.path)")
        }
        if type != "image/png" {
            data = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "{{origin}}", with: origin).utf8)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", type)], body: data)
    }
}
