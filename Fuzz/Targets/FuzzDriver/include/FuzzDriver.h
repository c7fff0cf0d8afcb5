// libFuzzer's entry point for programs that have their own main (LLVM 13 and later).
// SwiftPM links every executable with its module's own entry point as `main`, so the fuzz
// targets call the driver from there instead of linking libFuzzer's main.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
