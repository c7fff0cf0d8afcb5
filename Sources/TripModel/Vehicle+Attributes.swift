extension Vehicle {
    /// Fleet Engine's UpdateVehicleAttributes: each given attribute replaces the one with its
    /// key or is added after the others; the rest stay. The result must still be valid
    /// (at most 100 attributes, one value each).
    package mutating func mergeAttributes(_ update: [Attribute]) throws(StatusError) {
        if update.isEmpty { throw .invalid("attributes", "required field is missing; name at least one attribute") }
        try Check.attributes(update, "attributes")
        var merged = attributes
        for attribute in update {
            if let i = merged.firstIndex(where: { $0.key == attribute.key }) {
                merged[i] = attribute
            } else {
                merged.append(attribute)
            }
        }
        try Check.count(merged, "attributes", max: Limits.maximumAttributes)
        attributes = merged
    }
}
