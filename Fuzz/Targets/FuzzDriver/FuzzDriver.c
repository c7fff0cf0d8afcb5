// The declaration in include/FuzzDriver.h is all this module holds; SwiftPM wants a source.
#include "FuzzDriver.h"
