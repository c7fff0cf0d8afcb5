// What the Driver SDK reports about the phone (Fleet Engine `DeviceSettings`, `BatteryInfo`):
// input only in Fleet Engine; kept with the vehicle and returned, so an operator can see a
// driver's phone running out of battery or throttling its location.

/// The driver's device: power saving, screen and battery.
package struct DeviceSettings: Codable, Hashable, Sendable {
    /// How location behaves when battery saver is on.
    package var locationPowerSaveMode: LocationPowerSaveMode?
    /// Whether battery saver is on.
    package var isPowerSaveMode: Bool?
    /// Whether the device is interactive (screen on).
    package var isInteractive: Bool?
    /// The battery's state.
    package var batteryInfo: BatteryInfo?

    /// Creates settings.
    package init(
        locationPowerSaveMode: LocationPowerSaveMode? = nil, isPowerSaveMode: Bool? = nil, isInteractive: Bool? = nil,
        batteryInfo: BatteryInfo? = nil
    ) {
        self.locationPowerSaveMode = locationPowerSaveMode
        self.isPowerSaveMode = isPowerSaveMode
        self.isInteractive = isInteractive
        self.batteryInfo = batteryInfo
    }
}

/// The device's battery.
package struct BatteryInfo: Codable, Hashable, Sendable {
    /// Charging, discharging, full...
    package var batteryStatus: BatteryStatus?
    /// What it is plugged into.
    package var powerSource: PowerSource?
    /// Charge left, 0–100 (a float on the wire).
    package var batteryPercentage: Float?

    /// Creates battery information.
    package init(batteryStatus: BatteryStatus? = nil, powerSource: PowerSource? = nil, batteryPercentage: Float? = nil) {
        self.batteryStatus = batteryStatus
        self.powerSource = powerSource
        self.batteryPercentage = batteryPercentage
    }
}

/// How the device's location features behave when battery saver is on (Android's modes).
package enum LocationPowerSaveMode: String, WireEnum {
    case noChange = "LOCATION_MODE_NO_CHANGE"
    case gpsDisabledWhenScreenOff = "LOCATION_MODE_GPS_DISABLED_WHEN_SCREEN_OFF"
    case allDisabledWhenScreenOff = "LOCATION_MODE_ALL_DISABLED_WHEN_SCREEN_OFF"
    case foregroundOnly = "LOCATION_MODE_FOREGROUND_ONLY"
    case throttleRequestsWhenScreenOff = "LOCATION_MODE_THROTTLE_REQUESTS_WHEN_SCREEN_OFF"

    package static var unsetName: String? { "UNKNOWN_LOCATION_POWER_SAVE_MODE" }
}

/// The battery's state.
package enum BatteryStatus: String, WireEnum {
    case charging = "BATTERY_STATUS_CHARGING"
    case discharging = "BATTERY_STATUS_DISCHARGING"
    case full = "BATTERY_STATUS_FULL"
    case notCharging = "BATTERY_STATUS_NOT_CHARGING"
    case powerLow = "BATTERY_STATUS_POWER_LOW"

    package static var unsetName: String? { "UNKNOWN_BATTERY_STATUS" }
}

/// What charges the battery.
package enum PowerSource: String, WireEnum {
    case ac = "POWER_SOURCE_AC"
    case usb = "POWER_SOURCE_USB"
    case wireless = "POWER_SOURCE_WIRELESS"
    case unplugged = "POWER_SOURCE_UNPLUGGED"

    package static var unsetName: String? { "UNKNOWN_POWER_SOURCE" }
}
