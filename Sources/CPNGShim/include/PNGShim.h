// A C shim over libpng: every libpng call and its setjmp-based error handling stay in these
// functions, which return a status code and a message. Swift never sees a longjmp.
#ifndef TRIPSHARE_PNG_SHIM_H
#define TRIPSHARE_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

enum {
    TPS_PNG_OK = 0,
    TPS_PNG_ERROR_LIBPNG = 1,      // libpng reported an error (corrupt data, bad CRC, ...)
    TPS_PNG_ERROR_NOT_PNG = 2,     // the signature is missing
    TPS_PNG_ERROR_TRUNCATED = 3,   // the data ended before the image did
    TPS_PNG_ERROR_TOO_LARGE = 4,   // dimensions over the caller's limits
    TPS_PNG_ERROR_NO_MEMORY = 5,
    TPS_PNG_ERROR_ARGUMENT = 6,
};

/// Encodes 8-bit RGB (channels 3) or RGBA (channels 4) rows, `stride` bytes apart. With
/// channels 4 and `drop_alpha` set, the fourth byte of each pixel is skipped by libpng and
/// the file is RGB. `filters` is a mask of PNG_FILTER_* values, `level` a zlib level 0-9,
/// `strategy` a zlib strategy. On success `*out` holds a malloc'd buffer to release with
/// tps_png_free.
int tps_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                   int channels, int drop_alpha, int filters, int level, int strategy,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Encodes a 1-bit greyscale image: `rows` hold `height` rows of ceil(width / 8) bytes,
/// `stride` bytes apart, the leftmost pixel in the most significant bit, 1 white and 0
/// black. No filter (they cannot help 1-bit rows), zlib `level`. Output as tps_png_encode.
int tps_png_encode_gray1(const uint8_t *rows, uint32_t width, uint32_t height, size_t stride, int level,
                         uint8_t **out, size_t *out_size, char *message, size_t message_size);

/// Decodes any PNG libpng reads into straight (not premultiplied) RGBA8, rejecting images
/// wider or taller than `max_dimension` or with more than `max_pixels` pixels before any
/// pixel memory is allocated. On success `*out` holds width*height*4 malloc'd bytes.
int tps_png_decode(const uint8_t *data, size_t size, uint32_t max_dimension, uint64_t max_pixels,
                   uint8_t **out, uint32_t *out_width, uint32_t *out_height,
                   char *message, size_t message_size);

/// Releases a buffer returned by tps_png_encode or tps_png_decode.
void tps_png_free(void *pointer);

#endif
