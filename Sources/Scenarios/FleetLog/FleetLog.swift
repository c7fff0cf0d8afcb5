import JSON
import TripModel

/// A Fleet Engine Cloud Logging export read as the API calls it recorded, in time order and
/// in the REST API's spellings, ready to replay against tripshare. Both export shapes are
/// read (a `rawLogs` array in an object, or a bare array; lowercase or camelCase keys).
/// Nothing is dropped silently: entry types that are not calls we replay, and fields we do
/// not model (such as the opaque `...Handle` values), are counted.
public struct FleetLog: Sendable {
    /// A recorded API call.
    public enum Call: Sendable {
        case createVehicle(provider: String, id: String, vehicle: Vehicle)
        case updateVehicle(provider: String, id: String, vehicle: Vehicle, mask: FieldMask)
        case createTrip(provider: String, id: String, trip: Trip)
        case updateTrip(provider: String, id: String, trip: Trip, mask: FieldMask)
    }

    /// One recorded call with Fleet Engine's response (REST spellings).
    public struct Entry: Sendable {
        /// When Fleet Engine logged it.
        package var time: Timestamp
        /// The call.
        public var call: Call
        /// Fleet Engine's response, normalized like the request; nil when not logged.
        package var response: JSONValue?
    }

    /// The calls, oldest first.
    public var entries: [Entry]
    /// Log entries of other types (`@type` → count): not replayed.
    package var skippedEntryTypes: [String: Int]
    /// Fields present in the log that the API does not model (path → count).
    package var droppedFields: [String: Int]
    /// How often a location was taken from `rawLocation` because the log held only a handle.
    package var locationsFromRaw: Int

    /// Reads an export; throws INVALID_ARGUMENT when it is not one.
    public static func parse(_ bytes: some Collection<UInt8>) throws(StatusError) -> FleetLog {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw .invalid("log", error.description) }
        let rawEntries: [JSONValue]
        switch document {
        case .array(let entries): rawEntries = entries
        case .object:
            guard case .array(let entries)? = document["rawLogs"] ?? document["rawlogs"] else {
                throw .invalid("log", "expected a 'rawLogs' array or an array of log entries")
            }
            rawEntries = entries
        default: throw .invalid("log", "expected a JSON object or array")
        }
        var reader = Reader()
        var entries: [Entry] = []
        for (i, raw) in rawEntries.enumerated() {
            if let entry = try reader.entry(raw, index: i) { entries.append(entry) }
        }
        entries.sort { $0.time < $1.time }
        return FleetLog(
            entries: entries, skippedEntryTypes: reader.skipped, droppedFields: reader.dropped,
            locationsFromRaw: reader.locationsFromRaw)
    }

    private struct Reader {
        var skipped: [String: Int] = [:]
        var dropped: [String: Int] = [:]
        var locationsFromRaw = 0

        mutating func entry(_ raw: JSONValue, index: Int) throws(StatusError) -> Entry? {
            let path = "log.rawLogs[\(index)]"
            guard let payload = raw["jsonPayload"] ?? raw["jsonpayload"],
                case .string(let type)? = payload["@type"]
            else {
                skipped["(no jsonPayload)", default: 0] += 1
                return nil
            }
            guard case .string(let timeText)? = raw["timestamp"], let time = Timestamp(rfc3339: timeText) else {
                throw .invalid("\(path).timestamp", "missing or not an RFC 3339 time")
            }
            let kind = type.split(separator: ".").last.map(String.init) ?? type
            guard let request = payload["request"] else { throw .invalid("\(path).jsonPayload.request", "missing") }
            let response = payload["response"]
            func string(_ keys: String...) -> String? {
                for key in keys { if case .string(let s)? = request[key] { return s } }
                return nil
            }
            let mask = FieldMask(string("updateMask", "updatemask") ?? "")
            switch kind {
            case "CreateVehicleLog", "UpdateVehicleLog":
                let body = request["vehicle"] ?? .object([])
                let vehicle: Vehicle = try decode(body, .vehicle, root: "\(path).request.vehicle")
                guard let id = string("vehicleId", "vehicleid") ?? lastComponent(vehicle.name) else {
                    throw .invalid("\(path).request.vehicleId", "missing")
                }
                let provider = providerOf(vehicle.name) ?? "default"
                let normalizedResponse = response.map { normalize($0, .vehicle, path: "response.vehicle") }
                let call: Call =
                    kind == "CreateVehicleLog"
                    ? .createVehicle(provider: provider, id: id, vehicle: vehicle)
                    : .updateVehicle(provider: provider, id: id, vehicle: vehicle, mask: mask)
                return Entry(time: time, call: call, response: normalizedResponse)
            case "CreateTripLog", "UpdateTripLog":
                let body = request["trip"] ?? .object([])
                let trip: Trip = try decode(body, .trip, root: "\(path).request.trip")
                guard let id = string("tripId", "tripid") ?? lastComponent(trip.name) else {
                    throw .invalid("\(path).request.tripId", "missing")
                }
                let provider =
                    providerOf(trip.name) ?? providerOf(response.flatMap { if case .string(let s)? = $0["name"] { s } else { nil } } ?? "")
                    ?? "default"
                let normalizedResponse = response.map { normalize($0, .trip, path: "response.trip") }
                let call: Call =
                    kind == "CreateTripLog"
                    ? .createTrip(provider: provider, id: id, trip: trip)
                    : .updateTrip(provider: provider, id: id, trip: trip, mask: mask)
                return Entry(time: time, call: call, response: normalizedResponse)
            default:
                skipped[kind, default: 0] += 1
                return nil
            }
        }

        mutating func decode<T: Decodable>(_ value: JSONValue, _ kind: FleetLogSchema.Kind, root: String) throws(StatusError) -> T {
            let rest = normalize(value, kind, path: kind == .vehicle ? "vehicle" : "trip")
            do {
                return try StrictJSONDecoder().decode(T.self, from: rest, root: root)
            } catch {
                throw StatusError(error)
            }
        }

        /// Renames fields and enum values to the REST spellings, dropping (and counting) what
        /// the API does not model.
        mutating func normalize(_ value: JSONValue, _ kind: FleetLogSchema.Kind, path: String) -> JSONValue {
            guard case .object(let members) = value else { return value }
            let fields = FleetLogSchema.fields(kind)
            var out: [(key: String, value: JSONValue)] = []
            for member in members {
                guard let field = fields[member.key.lowercased()] else {
                    dropped["\(path).\(member.key)", default: 0] += 1
                    continue
                }
                guard let converted = convert(member.value, field.value, path: "\(path).\(field.name)") else {
                    dropped["\(path).\(member.key)", default: 0] += 1
                    continue
                }
                if !out.contains(where: { $0.key == field.name }) { out.append((field.name, converted)) }
            }
            if kind == .location, !out.contains(where: { $0.key == "location" }),
                let raw = out.first(where: { $0.key == "rawLocation" })?.value
            {
                out.insert(("location", raw), at: 0)
                locationsFromRaw += 1
            }
            return .object(out)
        }

        mutating func convert(_ value: JSONValue, _ shape: FleetLogSchema.Value, path: String) -> JSONValue? {
            switch shape {
            case .scalar, .raw: return value
            case .object(let kind):
                let object = normalize(value, kind, path: path)
                // A place given only as an opaque handle is no place at all.
                if kind == .terminal, object["point"] == nil { return nil }
                return object
            case .objects(let kind):
                guard case .array(let elements) = value else { return nil }
                return .array(
                    elements.compactMap { element in
                        let object = normalize(element, kind, path: path)
                        return kind == .terminal && object["point"] == nil ? nil : object
                    })
            case .enumeration(let prefix, let renames):
                guard case .string(let text) = value else { return nil }
                return Self.enumValue(text, prefix: prefix, renames: renames).map(JSONValue.string)
            case .enumerations(let prefix, let renames):
                guard case .array(let elements) = value else { return nil }
                return .array(
                    elements.compactMap { element in
                        guard case .string(let text) = element else { return nil }
                        return Self.enumValue(text, prefix: prefix, renames: renames).map(JSONValue.string)
                    })
            }
        }

        static func enumValue(_ text: String, prefix: String, renames: [String: String]) -> String? {
            if let renamed = renames[text] { return renamed }
            let stripped = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
            return stripped.hasSuffix("UNSPECIFIED") || stripped.hasPrefix("UNKNOWN") ? nil : stripped
        }

        func lastComponent(_ name: String) -> String? {
            name.isEmpty ? nil : ResourceName.lastComponent(of: name)
        }

        func providerOf(_ name: String) -> String? {
            let parts = name.split(separator: "/")
            return parts.count >= 2 && parts[0] == "providers" ? String(parts[1]) : nil
        }
    }
}
