// Fleet Engine's ReportBillableTrip: a provider tells which trips are billable, once each.
// We bill nobody; the reports are kept for the operator (`tripshare billing export`), so
// a provider moving off Fleet Engine keeps the record its contracts ask for.

import JSON

/// The body of a `billableTrips/{id}:report` (Fleet Engine `ReportBillableTripRequest`).
package struct BillableTripReport: Hashable, Sendable {
    /// The CLDR region code of the country where the trip took place ("US"); required.
    package var countryCode: String?
    /// Where the request was issued from.
    package var platform: BillingPlatformIdentifier?
    /// IDs directly related to the trip (other trips of the same ride, say).
    package var relatedIds: [String]
    /// The Fleet Engine solution the trip belongs to.
    package var solutionType: BillableSolutionType?

    /// Creates a report.
    package init(
        countryCode: String? = nil, platform: BillingPlatformIdentifier? = nil, relatedIds: [String] = [],
        solutionType: BillableSolutionType? = nil
    ) {
        self.countryCode = countryCode
        self.platform = platform
        self.relatedIds = relatedIds
        self.solutionType = solutionType
    }

    /// Checks what Fleet Engine requires: a country, bounded related IDs.
    package func validate() throws(StatusError) {
        guard let countryCode else { throw .invalid("countryCode", "required field is missing") }
        try Check.text(countryCode, "countryCode", characters: 3, bytes: 3)
        try Check.count(relatedIds, "relatedIds", max: Limits.maximumShortList)
        for (i, id) in relatedIds.enumerated() {
            try Check.text(id, "relatedIds[\(i)]", characters: Limits.maximumAttributeLength, bytes: Limits.maximumAttributeBytes)
        }
    }
}

extension BillableTripReport: Codable {
    enum CodingKeys: String, CodingKey { case countryCode, platform, relatedIds, solutionType }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        countryCode = try c.decodeIfSet(String.self, forKey: .countryCode)
        platform = try c.decodeIfSet(BillingPlatformIdentifier.self, forKey: .platform)
        relatedIds = try c.decodeIfSet([String].self, forKey: .relatedIds) ?? []
        solutionType = try c.decodeIfSet(BillableSolutionType.self, forKey: .solutionType)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfSet(countryCode, forKey: .countryCode)
        try c.encodeIfSet(platform, forKey: .platform)
        if !relatedIds.isEmpty { try c.encode(relatedIds, forKey: .relatedIds) }
        try c.encodeIfSet(solutionType, forKey: .solutionType)
    }
}

/// A billable trip as recorded: which trip, when it was first reported, and the report.
public struct BillableTripRecord: Codable, Hashable, Sendable {
    /// `providers/{provider}/billableTrips/{tripId}`.
    public var name: String
    /// When the first report arrived (later ones change nothing).
    package var reportTime: Timestamp
    /// The first report.
    package var report: BillableTripReport

    /// Creates a record.
    package init(name: String, reportTime: Timestamp, report: BillableTripReport) {
        self.name = name
        self.reportTime = reportTime
        self.report = report
    }
}

/// Where a billable trip's request was issued from (Fleet Engine `BillingPlatformIdentifier`).
package enum BillingPlatformIdentifier: String, WireEnum {
    case server = "SERVER"
    case web = "WEB"
    case android = "ANDROID"
    case ios = "IOS"
    case others = "OTHERS"

    package static var unsetName: String? { "BILLING_PLATFORM_IDENTIFIER_UNSPECIFIED" }
}

/// The Fleet Engine solution a billable trip belongs to (`ReportBillableTripRequest.SolutionType`).
package enum BillableSolutionType: String, WireEnum {
    case onDemandRidesharingAndDeliveries = "ON_DEMAND_RIDESHARING_AND_DELIVERIES"

    package static var unsetName: String? { "SOLUTION_TYPE_UNSPECIFIED" }
}
