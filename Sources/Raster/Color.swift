// Colours in two distinct types so that straight and premultiplied values cannot be mixed:
// `Color` is straight (non-premultiplied) sRGB RGBA8 as users write it (`#RRGGBB[AA]`);
// `PremultipliedColor` is what the canvas stores and composites.

/// A straight (not premultiplied) sRGB colour with 8-bit channels.
public struct Color: Hashable, Sendable {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    package var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8
    /// Alpha, 0 (transparent) – 255 (opaque).
    package var alpha: UInt8

    /// A colour from its channels; alpha defaults to opaque.
    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (hex digits in either case); nil for anything else.
    package init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
        var channels: [UInt8] = []
        var index = 1
        while index < bytes.count {
            guard let high = Self.hexValue(bytes[index]), let low = Self.hexValue(bytes[index + 1]) else {
                return nil
            }
            channels.append(high << 4 | low)
            index += 2
        }
        self.init(
            red: channels[0], green: channels[1], blue: channels[2],
            alpha: channels.count == 4 ? channels[3] : 255)
    }

    /// `#RRGGBB` when opaque, `#RRGGBBAA` otherwise, upper-case hex digits.
    package var hex: String {
        var channels = [red, green, blue]
        if alpha != 255 { channels.append(alpha) }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = [UInt8(ascii: "#")]
        for channel in channels {
            out.append(digits[Int(channel >> 4)])
            out.append(digits[Int(channel & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The same colour premultiplied by its alpha (channels rounded to nearest).
    package var premultiplied: PremultipliedColor {
        PremultipliedColor(
            red: multiply(red, alpha), green: multiply(green, alpha),
            blue: multiply(blue, alpha), alpha: alpha)
    }

    /// This colour with its alpha multiplied by `opacity` (0–1, clamped).
    package func withOpacity(_ opacity: Double) -> Color {
        var copy = self
        copy.alpha = multiply(alpha, alphaByte(opacity))
        return copy
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Fully transparent (black).
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Color: CustomStringConvertible {
    /// The `hex` form.
    public var description: String { hex }
}

extension Color: Codable {
    /// Decodes from a `#RRGGBB` / `#RRGGBBAA` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = Color(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a colour as #RRGGBB or #RRGGBBAA, got \"\(text)\"")
        }
        self = color
    }

    /// Encodes as its `hex` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

/// A colour premultiplied by its alpha: every channel is at most `alpha`.
public struct PremultipliedColor: Hashable, Sendable {
    /// Red times alpha, 0–alpha.
    public var red: UInt8
    /// Green times alpha, 0–alpha.
    package var green: UInt8
    /// Blue times alpha, 0–alpha.
    public var blue: UInt8
    /// Alpha, 0–255.
    package var alpha: UInt8

    /// A premultiplied colour; channels above alpha are clamped to alpha.
    package init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = min(red, alpha)
        self.green = min(green, alpha)
        self.blue = min(blue, alpha)
        self.alpha = alpha
    }

    /// The straight colour (channels divided by alpha and rounded); transparent black for alpha 0.
    package var unpremultiplied: Color {
        guard alpha != 0 else { return .transparent }
        return Color(
            red: divide(red, alpha), green: divide(green, alpha),
            blue: divide(blue, alpha), alpha: alpha)
    }

    /// The colour packed as it lies in canvas memory: bytes R, G, B, A.
    var packed: UInt32 {
        UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24
    }

    /// Unpacks a canvas pixel.
    init(packed: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: packed), green: UInt8(truncatingIfNeeded: packed >> 8),
            blue: UInt8(truncatingIfNeeded: packed >> 16), alpha: UInt8(truncatingIfNeeded: packed >> 24))
    }
}

extension Color {
    /// The premultiplied source colour for painting this colour at an opacity, as Cairo makes
    /// it for pixman: channels and alpha premultiplied in doubles, rounded to 16 bits, then
    /// truncated to 8. Opaque colours at full opacity come out unchanged; translucent ones
    /// then blend exactly as Cairo blends them.
    func source(opacity: Double) -> PremultipliedColor {
        let alpha = Double(self.alpha) / 255 * (opacity.isNaN ? 0 : min(max(opacity, 0), 1))
        func short(_ value: Double) -> UInt8 { UInt8(UInt32(value * 65535 + 0.5) >> 8) }
        return PremultipliedColor(
            red: short(Double(red) / 255 * alpha), green: short(Double(green) / 255 * alpha),
            blue: short(Double(blue) / 255 * alpha), alpha: short(alpha))
    }
}

/// round(a·b / 255) exactly, as pixman and Cairo compute it.
@inline(__always)
func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    let t = UInt32(a) * UInt32(b) + 128
    return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
}

/// round(value·255 / alpha), clamped to 255; the inverse of premultiplication.
@inline(__always)
func divide(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
    let result = (UInt32(value) * 255 + UInt32(alpha) / 2) / UInt32(alpha)
    return UInt8(min(result, 255))
}

/// An opacity in 0–1 as an alpha byte (rounded, clamped; NaN counts as 0).
func alphaByte(_ opacity: Double) -> UInt8 {
    guard opacity > 0 else { return 0 }
    guard opacity < 1 else { return 255 }
    return UInt8((opacity * 255).rounded())
}
