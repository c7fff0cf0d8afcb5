import TestKit
import TripModel

let secret = testTokenSecret
let epoch = ManualClock.testEpoch
