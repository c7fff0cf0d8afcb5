import AccessTesting
import TripModel
import TripModelTesting

let secret = testTokenSecret
let epoch = ManualClock.testEpoch
