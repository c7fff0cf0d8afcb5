// CSS colour strings as MapLibre styles write them: #rgb, #rgba, #rrggbb, #rrggbbaa,
// rgb()/rgba() with numbers or percentages (comma or space separated, optional "/ alpha"),
// hsl()/hsla(), and the named colours of CSS Color Module Level 4 plus "transparent".
// Contract: anything else is nil, never a guess; channels round to the nearest 8-bit value.

import Foundation
import Raster

enum CSSColor {
    /// The colour a CSS colour string names, or nil.
    static func parse(_ text: String) -> Color? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("#") { return hex(trimmed) }
        if let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") {
            let function = String(trimmed[..<open]).trimmingCharacters(in: .whitespaces)
            let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            return functional(function, String(inner))
        }
        if trimmed == "transparent" { return .transparent }
        guard let value = named[trimmed] else { return nil }
        return Color(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    private static func hex(_ text: String) -> Color? {
        let digits = Array(text.utf8.dropFirst())
        guard digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else { return nil }
        func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }
        switch digits.count {
        case 3, 4:
            let channels = digits.map { value($0) * 17 }
            return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
        case 6, 8:
            var channels: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                channels.append(value(digits[index]) << 4 | value(digits[index + 1]))
            }
            return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : 255)
        default:
            return nil
        }
    }

    private static func functional(_ function: String, _ inner: String) -> Color? {
        // "r, g, b, a", "r g b / a" and "r g b" all split into the same arguments.
        let separators = CharacterSet(charactersIn: ", /")
        let arguments = inner.components(separatedBy: separators).filter { !$0.isEmpty }
        guard arguments.count == 3 || arguments.count == 4 else { return nil }
        var alpha = 1.0
        if arguments.count == 4 {
            guard let value = number(arguments[3], percentScale: 1) else { return nil }
            alpha = value
        }
        switch function {
        case "rgb", "rgba":
            var channels: [Double] = []
            for argument in arguments.prefix(3) {
                guard let value = number(argument, percentScale: 255) else { return nil }
                channels.append(value)
            }
            return color(channels[0] / 255, channels[1] / 255, channels[2] / 255, alpha)
        case "hsl", "hsla":
            guard let hue = number(arguments[0].replacingOccurrences(of: "deg", with: ""), percentScale: 360),
                arguments[1].hasSuffix("%"), arguments[2].hasSuffix("%"),
                let saturation = number(arguments[1], percentScale: 1),
                let lightness = number(arguments[2], percentScale: 1)
            else { return nil }
            let (r, g, b) = hslToRGB(hue: hue, saturation: saturation, lightness: lightness)
            return color(r, g, b, alpha)
        default:
            return nil
        }
    }

    /// A number, or a percentage scaled so that 100% is `percentScale`.
    private static func number(_ text: String, percentScale: Double) -> Double? {
        if text.hasSuffix("%") {
            return Double(text.dropLast()).map { $0 / 100 * percentScale }
        }
        return Double(text)
    }

    /// A colour from channels in 0–1, clamped.
    static func color(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double) -> Color? {
        guard red.isFinite, green.isFinite, blue.isFinite, alpha.isFinite else { return nil }
        func byte(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        return Color(red: byte(red), green: byte(green), blue: byte(blue), alpha: byte(alpha))
    }

    /// HSL (hue in degrees, saturation and lightness 0–1) to RGB 0–1, as CSS defines it.
    static func hslToRGB(hue: Double, saturation: Double, lightness: Double) -> (Double, Double, Double) {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
        let s = min(max(saturation, 0), 1)
        let l = min(max(lightness, 0), 1)
        let q = l <= 0.5 ? l * (1 + s) : l + s - l * s
        let p = 2 * l - q
        func channel(_ t: Double) -> Double {
            var t = t
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t < 1 / 6 { return p + (q - p) * 6 * t }
            if t < 1 / 2 { return q }
            if t < 2 / 3 { return p + (q - p) * (2 / 3 - t) * 6 }
            return p
        }
        return (channel(h + 1 / 3), channel(h), channel(h - 1 / 3))
    }

    /// CSS Color Module Level 4 named colours, as 0xRRGGBB.
    static let named: [String: UInt32] = [
        "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4, "azure": 0xF0FFFF,
        "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000, "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF,
        "blueviolet": 0x8A2BE2, "brown": 0xA52A2A, "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00,
        "chocolate": 0xD2691E, "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
        "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B, "darkgray": 0xA9A9A9,
        "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B, "darkmagenta": 0x8B008B,
        "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC, "darkred": 0x8B0000,
        "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B, "darkslategray": 0x2F4F4F,
        "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3, "deeppink": 0xFF1493,
        "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1E90FF, "firebrick": 0xB22222,
        "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22, "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC,
        "ghostwhite": 0xF8F8FF, "gold": 0xFFD700, "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000,
        "greenyellow": 0xADFF2F, "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C,
        "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA, "lavenderblush": 0xFFF0F5,
        "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6, "lightcoral": 0xF08080,
        "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3, "lightgreen": 0x90EE90,
        "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A, "lightseagreen": 0x20B2AA,
        "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899, "lightsteelblue": 0xB0C4DE,
        "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32, "linen": 0xFAF0E6, "magenta": 0xFF00FF,
        "maroon": 0x800000, "mediumaquamarine": 0x66CDAA, "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3,
        "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371, "mediumslateblue": 0x7B68EE,
        "mediumspringgreen": 0x00FA9A, "mediumturquoise": 0x48D1CC, "mediumvioletred": 0xC71585,
        "midnightblue": 0x191970, "mintcream": 0xF5FFFA, "mistyrose": 0xFFE4E1, "moccasin": 0xFFE4B5,
        "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6, "olive": 0x808000, "olivedrab": 0x6B8E23,
        "orange": 0xFFA500, "orangered": 0xFF4500, "orchid": 0xDA70D6, "palegoldenrod": 0xEEE8AA,
        "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE, "palevioletred": 0xDB7093, "papayawhip": 0xFFEFD5,
        "peachpuff": 0xFFDAB9, "peru": 0xCD853F, "pink": 0xFFC0CB, "plum": 0xDDA0DD, "powderblue": 0xB0E0E6,
        "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xFF0000, "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1,
        "saddlebrown": 0x8B4513, "salmon": 0xFA8072, "sandybrown": 0xF4A460, "seagreen": 0x2E8B57,
        "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB, "slateblue": 0x6A5ACD,
        "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA, "springgreen": 0x00FF7F,
        "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080, "thistle": 0xD8BFD8, "tomato": 0xFF6347,
        "turquoise": 0x40E0D0, "violet": 0xEE82EE, "wheat": 0xF5DEB3, "white": 0xFFFFFF, "whitesmoke": 0xF5F5F5,
        "yellow": 0xFFFF00, "yellowgreen": 0x9ACD32,
    ]
}
