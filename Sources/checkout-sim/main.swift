import CheckoutSimulator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let code = await CheckoutSimCommand.main(Array(CommandLine.arguments.dropFirst()))
exit(code)
