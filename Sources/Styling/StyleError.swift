import JSON
import TripModel

/// Why a style could not be read or applied: the JSON path at fault ("style.markers.
/// tripVehicle.icon", or the style's name when the whole document is at fault) and what was
/// wrong there.
public typealias StyleError = FieldError
