import Foundation

/// A JSON encoder for the two things the bot encodes on every update: the chat's session blob and
/// the Bot API request bodies. Foundation's `JSONEncoder` builds a tree of boxed values and then
/// writes it out, which was a fifth of an update's time; this one writes bytes as `encode(to:)`
/// calls arrive, relying on what synthesized `Codable` always does — a value's containers are
/// finished before its parent writes its next key.
///
/// Output is JSON that `JSONDecoder` reads back to the same value, written like `JSONEncoder`'s
/// defaults (`/` escaped, integral doubles without ".0", dates as seconds since 2001) except that
/// keys come in declaration order rather than `JSONEncoder`'s per-process hash order.
public struct StreamingJSONEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let writer = JSONByteWriter()
        try writer.encodeValue(value, depth: 0)
        writer.closeDeeper(than: 0)
        return Data(writer.bytes)
    }
}

public enum StreamingJSONError: Error, CustomStringConvertible {
    case notFinite(Double)
    case unsupported(String)
    public var description: String {
        switch self {
        case .notFinite(let d): return "cannot write \(d) as JSON"
        case .unsupported(let what): return "the streaming JSON encoder does not support \(what)"
        }
    }
}

/// The shared output and the stack of open objects and arrays (depth 1 is the outermost).
final class JSONByteWriter {
    // Unchecked exclusivity: every append to a class's array is otherwise a dynamic access check
    // (a thread-local access set, begin and end). Safe here: a writer belongs to one
    // encode on one thread, and no access to these arrays calls back into the writer.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// For each open container: its closing byte and whether it has an element yet.
    @exclusivity(unchecked) var open: [(closer: UInt8, hasElement: Bool)] = []

    init() { bytes.reserveCapacity(512) }

    /// Closes every container deeper than `depth`: a sibling or parent is writing now.
    @inline(__always) func closeDeeper(than depth: Int) {
        while open.count > depth { bytes.append(open.removeLast().closer) }
    }

    /// Starts the next element of the container at `depth` (its comma, and its key if any).
    @inline(__always) func element(at depth: Int, key: String?) {
        closeDeeper(than: depth)
        if depth > 0 {
            if open[depth - 1].hasElement { bytes.append(UInt8(ascii: ",")) }
            open[depth - 1].hasElement = true
        }
        if let key {
            string(key)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    func openContainer(_ opener: UInt8, _ closer: UInt8) {
        bytes.append(opener)
        open.append((closer, false))
    }

    /// Writes any value whose element (comma, key) is already written, at nesting `depth`.
    func encodeValue<T: Encodable>(_ value: T, depth: Int) throws {
        // Type identity, not `as?` casts: a cast to each primitive in turn cost more than the write.
        if T.self == String.self { return string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return integer(unsafeBitCast(value, to: Int.self)) }
        if T.self == Int64.self { return integer(unsafeBitCast(value, to: Int64.self)) }
        if T.self == Bool.self { return literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false") }
        if T.self == Double.self { return try double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Date.self { return try double(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate) }
        // Lists of ids and of indices (a quiz's questions and answer orders), written as
        // `Array.encode(to:)` would, element by element through the generic unkeyed container
        // (a tenth of a session's encoding).
        if T.self == [String].self {
            return list(unsafeBitCast(value, to: [String].self), depth: depth) { self.string($0) }
        }
        if T.self == [Int].self { return list(unsafeBitCast(value, to: [Int].self), depth: depth) { self.integer($0) } }
        // JSONEncoder has its own strategies for these (base64, absolute strings, numbers): not needed here.
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self || T.self == Float.self {
            throw StreamingJSONError.unsupported("\(T.self)")
        }
        let before = bytes.count
        try value.encode(to: ByteEncoder(writer: self, depth: depth))
        // A value that opened no container at all is an empty object, as JSONEncoder writes it.
        if bytes.count == before { literal("{}") }
    }

    /// An array at nesting `depth`, left open as `ByteEncoder.unkeyedContainer()` leaves it.
    @inline(__always) private func list<E>(_ elements: [E], depth: Int, _ write: (E) -> Void) {
        closeDeeper(than: depth)
        openContainer(UInt8(ascii: "["), UInt8(ascii: "]"))
        for e in elements {
            element(at: depth + 1, key: nil)
            write(e)
        }
    }

    @inline(__always) func literal(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    func integer<I: BinaryInteger>(_ i: I) {
        // `integer(small)` is the Int overload below (without it this would call itself).
        if let small = Int(exactly: i) { return integer(small) }
        bytes.append(contentsOf: String(i).utf8)
    }

    /// Digits written straight into the output (a `String` per number was most of writing one).
    func integer(_ i: Int) {
        if i >= 0 && i < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: i))
            return
        }
        if i == .min {
            bytes.append(contentsOf: String(i).utf8)
            return
        }
        var n = i.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var at = 20
            repeat {
                at -= 1
                digits[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
                n /= 10
            } while n > 0
            if i < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[at..<20]))
        }
    }

    func double(_ d: Double) throws {
        guard d.isFinite else { throw StreamingJSONError.notFinite(d) }
        var s = d.description
        if s.hasSuffix(".0") { s.removeLast(2) }
        bytes.append(contentsOf: s.utf8)
    }

    func string(_ s: String) {
        // Read as one contiguous UTF-8 buffer (a native string already is): a byte loop over
        // `String.UTF8View` pays for the view's iterator at every byte.
        var s = s
        s.withUTF8 { appendQuoted($0) }
    }

    /// `"…"` with JSON's escapes, copying the runs between escaped bytes whole. Escapes `/` as
    /// `\/`, as Foundation's JSONEncoder does, so bodies read the same as before.
    private func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in utf8.indices {
            let b = utf8[i]
            guard b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b == UInt8(ascii: "/") else {
                continue
            }
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(b)
            case 0x0A: literal("\\n")
            case 0x0D: literal("\\r")
            case 0x09: literal("\\t")
            case 0x08: literal("\\b")
            case 0x0C: literal("\\f")
            default:
                literal("\\u00")
                bytes.append(Self.hexDigits[Int(b >> 4)])
                bytes.append(Self.hexDigits[Int(b & 0xF)])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// The `Encoder` a value sees: its containers write at `depth + 1`.
struct ByteEncoder: Encoder {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.closeDeeper(than: depth)
        writer.openContainer(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(KeyedByteContainer<Key>(writer: writer, depth: depth + 1))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.closeDeeper(than: depth)
        writer.openContainer(UInt8(ascii: "["), UInt8(ascii: "]"))
        return UnkeyedByteContainer(writer: writer, depth: depth + 1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleByteContainer(writer: writer, depth: depth)
    }
}

struct KeyedByteContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        writer.literal("null")
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        writer.literal(value ? "true" : "false")
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        writer.string(value)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        try writer.double(value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        writer.integer(value)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        writer.integer(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        writer.element(at: depth, key: key.stringValue)
        try writer.encodeValue(value, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        writer.element(at: depth, key: key.stringValue)
        return ByteEncoder(writer: writer, depth: depth).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.element(at: depth, key: key.stringValue)
        return ByteEncoder(writer: writer, depth: depth).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { fatalError("StreamingJSONEncoder: superEncoder is not supported") }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        fatalError("StreamingJSONEncoder: superEncoder is not supported")
    }
}

struct UnkeyedByteContainer: UnkeyedEncodingContainer {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() throws {
        count += 1
        writer.element(at: depth, key: nil)
        writer.literal("null")
    }
    mutating func encode(_ value: Bool) throws {
        count += 1
        writer.element(at: depth, key: nil)
        writer.literal(value ? "true" : "false")
    }
    mutating func encode(_ value: String) throws {
        count += 1
        writer.element(at: depth, key: nil)
        writer.string(value)
    }
    mutating func encode(_ value: Double) throws {
        count += 1
        writer.element(at: depth, key: nil)
        try writer.double(value)
    }
    mutating func encode(_ value: Int) throws {
        count += 1
        writer.element(at: depth, key: nil)
        writer.integer(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        writer.element(at: depth, key: nil)
        try writer.encodeValue(value, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        count += 1
        writer.element(at: depth, key: nil)
        return ByteEncoder(writer: writer, depth: depth).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        writer.element(at: depth, key: nil)
        return ByteEncoder(writer: writer, depth: depth).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { fatalError("StreamingJSONEncoder: superEncoder is not supported") }
}

/// A value that is one primitive (a raw-value enum, a Date's seconds): written where it stands.
struct SingleByteContainer: SingleValueEncodingContainer {
    let writer: JSONByteWriter
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws {
        writer.closeDeeper(than: depth)
        writer.literal("null")
    }
    mutating func encode(_ value: Bool) throws {
        writer.closeDeeper(than: depth)
        writer.literal(value ? "true" : "false")
    }
    mutating func encode(_ value: String) throws {
        writer.closeDeeper(than: depth)
        writer.string(value)
    }
    mutating func encode(_ value: Double) throws {
        writer.closeDeeper(than: depth)
        try writer.double(value)
    }
    mutating func encode(_ value: Int) throws {
        writer.closeDeeper(than: depth)
        writer.integer(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        writer.closeDeeper(than: depth)
        try writer.encodeValue(value, depth: depth)
    }
}

/// JSON written field by field, for the request bodies sent with nearly every update (a message
/// and its keyboard): the bytes `StreamingJSONEncoder` writes for the same value (the tests compare
/// them), without the trip through `Codable`'s boxed containers — that trip was a tenth of an
/// update. Keys go in the order they are written, so write them in declaration order.
public final class JSONFieldWriter {
    private let writer = JSONByteWriter()

    public init() {}

    /// A whole body: one object, its fields written by `fields`.
    public static func object(_ fields: (JSONFieldWriter) -> Void) -> Data {
        let j = JSONFieldWriter()
        j.object { fields(j) }
        return j.data
    }

    /// An object: as the whole body, an array element (`key` nil) or a field.
    public func object(_ key: String? = nil, _ fields: () -> Void) {
        container(key, UInt8(ascii: "{"), UInt8(ascii: "}"), fields)
    }
    public func array(_ key: String? = nil, _ elements: () -> Void) {
        container(key, UInt8(ascii: "["), UInt8(ascii: "]"), elements)
    }

    public func string(_ key: String?, _ value: String) {
        writer.element(at: writer.open.count, key: key)
        writer.string(value)
    }
    public func int(_ key: String?, _ value: Int64) {
        writer.element(at: writer.open.count, key: key)
        writer.integer(value)
    }
    public func bool(_ key: String?, _ value: Bool) {
        writer.element(at: writer.open.count, key: key)
        writer.literal(value ? "true" : "false")
    }

    public var data: Data { Data(writer.bytes) }

    private func container(_ key: String?, _ opener: UInt8, _ closer: UInt8, _ body: () -> Void) {
        let depth = writer.open.count
        writer.element(at: depth, key: key)
        writer.openContainer(opener, closer)
        body()
        writer.closeDeeper(than: depth)
    }
}
