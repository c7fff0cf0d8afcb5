// The sun's elevation from NOAA's solar position equations (the NOAA Solar Calculator,
// after Meeus, "Astronomical Algorithms"): accurate to well under a minute of sunset time
// for dates within a few centuries of 2000, which is all a lighting switch needs.

import Foundation
import Geo

/// Where the sun is in the sky at a place and time.
package enum SolarPosition {
    /// The elevation at which the sun's upper edge touches a sea-level horizon, allowing
    /// for refraction: the standard definition of sunrise and sunset.
    package static let sunsetElevationDegrees = -0.833

    /// The sun's geometric elevation above the horizon in degrees (no refraction), from
    /// -90 to 90.
    package static func elevationDegrees(at location: LatLng, time: Date) -> Double {
        let rad = Double.pi / 180
        let julianDay = time.timeIntervalSince1970 / 86_400 + 2_440_587.5
        let t = (julianDay - 2_451_545) / 36_525 // Julian centuries since J2000.0

        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let m = meanAnomaly * rad
        let center =
            sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(2 * m) * (0.019993 - 0.000101 * t) + sin(3 * m) * 0.000289
        let trueLongitude = meanLongitude + center
        let omega = (125.04 - 1934.136 * t) * rad
        let apparentLongitude = (trueLongitude - 0.00569 - 0.00478 * sin(omega)) * rad
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = (meanObliquity + 0.00256 * cos(omega)) * rad
        let declination = asin(sin(obliquity) * sin(apparentLongitude))

        // Equation of time, in minutes.
        let y = tan(obliquity / 2) * tan(obliquity / 2)
        let l0 = meanLongitude * rad
        let eot =
            4 / rad
            * (y * sin(2 * l0) - 2 * eccentricity * sin(m)
                + 4 * eccentricity * y * sin(m) * cos(2 * l0) - 0.5 * y * y * sin(4 * l0)
                - 1.25 * eccentricity * eccentricity * sin(2 * m))

        let minutesOfDay = (time.timeIntervalSince1970 / 60).truncatingRemainder(dividingBy: 1_440)
        var trueSolarMinutes = (minutesOfDay + eot + 4 * location.longitude).truncatingRemainder(dividingBy: 1_440)
        if trueSolarMinutes < 0 { trueSolarMinutes += 1_440 }
        let hourAngle = (trueSolarMinutes / 4 - 180) * rad
        let latitude = location.latitude * rad
        let cosZenith = sin(latitude) * sin(declination) + cos(latitude) * cos(declination) * cos(hourAngle)
        return 90 - acos(max(-1, min(1, cosZenith))) / rad
    }

    /// `lowLight` while the sun is below the sunset elevation, `normal` otherwise.
    package static func lightingMode(at location: LatLng, time: Date) -> LightingMode {
        elevationDegrees(at: location, time: time) < sunsetElevationDegrees ? .lowLight : .normal
    }
}
