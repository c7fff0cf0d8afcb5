/// Which way a vehicle's remaining distance and time to its next stop were made (docs/estimates.md),
/// shown on the vehicle as `estimateMethod` (our extension of Fleet Engine's resource).
package enum EstimateMethod: String, WireEnum {
    /// The driver app sent them with this update.
    case driver = "DRIVER"
    /// The vehicle's navigator on its route with steps.
    case navigator = "NAVIGATOR"
    /// Estimated along the route segment the driver app sent.
    case routeSegment = "ROUTE_SEGMENT"
    /// The straight line to the stop times a detour factor, at a pace: no route segment.
    case straightLine = "STRAIGHT_LINE"
}
