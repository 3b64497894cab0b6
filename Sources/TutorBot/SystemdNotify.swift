import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's notification protocol without libsystemd: one datagram to the unix socket named in
/// $NOTIFY_SOCKET ("@name" is the abstract namespace). Does nothing when not run by systemd.
/// The bot says READY=1 after its first good poll and WATCHDOG=1 after each later one, so a bot
/// whose polling hangs stops petting the watchdog and systemd restarts it (WatchdogSec=).
public struct SystemdNotify: Sendable {
    let socketPath: String?

    public init(socketPath: String?) {
        self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var isActive: Bool { socketPath != nil }

    /// Sends `state` ("READY=1", "WATCHDOG=1", "STATUS=…"); returns false if it could not.
    @discardableResult
    public func notify(_ state: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        let abstract = path.first == UInt8(ascii: "@")
        if abstract { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (abstract ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, message.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
        return sent == message.count
    }
}
