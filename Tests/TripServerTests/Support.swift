// The API test kit (Harness, Client, Bodies, RestartableServer) is TripServerTesting; these are
// the two constants the suites here name most.

import AccessTesting
import TripModelTesting

/// The tests' token secret.
let secret = testTokenSecret
/// The tests' fixed "now".
let epoch = ManualClock.testEpoch
