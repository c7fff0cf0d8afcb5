// libpng reports errors by longjmp; each entry point below sets its own jump target, turns
// the error into a code and message, and frees what it allocated, so callers see plain
// return values.
#include "PNGShim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int code;
    char *message;
    size_t message_size;
    // Output buffer for encoding.
    uint8_t *buffer;
    size_t size;
    size_t capacity;
    // Input cursor for decoding.
    const uint8_t *input;
    size_t input_size;
    size_t input_offset;
} shim_context;

static void set_message(shim_context *context, int code, const char *text) {
    context->code = code;
    if (context->message != NULL && context->message_size > 0) {
        snprintf(context->message, context->message_size, "%s", text);
    }
}

static void on_error(png_structp png, png_const_charp text) {
    shim_context *context = (shim_context *)png_get_error_ptr(png);
    // Keep a more specific code set earlier (truncation, size limits).
    if (context->code == TPS_PNG_OK) {
        set_message(context, TPS_PNG_ERROR_LIBPNG, text);
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void on_write(png_structp png, png_bytep data, size_t length) {
    shim_context *context = (shim_context *)png_get_io_ptr(png);
    if (context->size + length > context->capacity) {
        size_t capacity = context->capacity * 2;
        if (capacity < context->size + length) {
            capacity = context->size + length;
        }
        uint8_t *grown = realloc(context->buffer, capacity);
        if (grown == NULL) {
            set_message(context, TPS_PNG_ERROR_NO_MEMORY, "out of memory while encoding PNG");
            png_error(png, "out of memory");
        }
        context->buffer = grown;
        context->capacity = capacity;
    }
    memcpy(context->buffer + context->size, data, length);
    context->size += length;
}

static void on_flush(png_structp png) {
    (void)png;
}

int tps_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride,
                   int channels, int drop_alpha, int filters, int level, int strategy,
                   uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    shim_context context;
    memset(&context, 0, sizeof context);
    context.message = message;
    context.message_size = message_size;
    *out = NULL;
    *out_size = 0;
    if (pixels == NULL || width == 0 || height == 0 || (channels != 3 && channels != 4)
        || stride < (size_t)width * (size_t)channels) {
        set_message(&context, TPS_PNG_ERROR_ARGUMENT, "invalid image passed to the PNG encoder");
        return context.code;
    }
    context.capacity = (size_t)width * height / 8 + 1024;
    context.buffer = malloc(context.capacity);
    if (context.buffer == NULL) {
        set_message(&context, TPS_PNG_ERROR_NO_MEMORY, "out of memory while encoding PNG");
        return context.code;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        free(context.buffer);
        set_message(&context, TPS_PNG_ERROR_NO_MEMORY, "libpng could not allocate its state");
        return context.code;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(context.buffer);
        return context.code == TPS_PNG_OK ? TPS_PNG_ERROR_LIBPNG : context.code;
    }
    png_set_write_fn(png, &context, on_write, on_flush);
    int write_alpha = channels == 4 && !drop_alpha;
    png_set_IHDR(png, info, width, height, 8,
                 write_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_write_info(png, info);
    if (channels == 4 && drop_alpha) {
        png_set_filler(png, 0, PNG_FILLER_AFTER);
    }
    for (uint32_t row = 0; row < height; row++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)row * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = context.buffer;
    *out_size = context.size;
    return TPS_PNG_OK;
}

int tps_png_encode_gray1(const uint8_t *rows, uint32_t width, uint32_t height, size_t stride, int level,
                         uint8_t **out, size_t *out_size, char *message, size_t message_size) {
    shim_context context;
    memset(&context, 0, sizeof context);
    context.message = message;
    context.message_size = message_size;
    *out = NULL;
    *out_size = 0;
    if (rows == NULL || width == 0 || height == 0 || stride < ((size_t)width + 7) / 8) {
        set_message(&context, TPS_PNG_ERROR_ARGUMENT, "invalid 1-bit image passed to the PNG encoder");
        return context.code;
    }
    context.capacity = ((size_t)width + 7) / 8 * height / 4 + 1024;
    context.buffer = malloc(context.capacity);
    if (context.buffer == NULL) {
        set_message(&context, TPS_PNG_ERROR_NO_MEMORY, "out of memory while encoding PNG");
        return context.code;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        free(context.buffer);
        set_message(&context, TPS_PNG_ERROR_NO_MEMORY, "libpng could not allocate its state");
        return context.code;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(context.buffer);
        return context.code == TPS_PNG_OK ? TPS_PNG_ERROR_LIBPNG : context.code;
    }
    png_set_write_fn(png, &context, on_write, on_flush);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_compression_level(png, level);
    png_write_info(png, info);
    for (uint32_t row = 0; row < height; row++) {
        png_write_row(png, (png_const_bytep)(rows + (size_t)row * stride));
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = context.buffer;
    *out_size = context.size;
    return TPS_PNG_OK;
}

static void on_read(png_structp png, png_bytep data, size_t length) {
    shim_context *context = (shim_context *)png_get_io_ptr(png);
    if (context->input_size - context->input_offset < length) {
        set_message(context, TPS_PNG_ERROR_TRUNCATED, "PNG data ends before the image does (truncated file)");
        png_error(png, "truncated");
    }
    memcpy(data, context->input + context->input_offset, length);
    context->input_offset += length;
}

int tps_png_decode(const uint8_t *data, size_t size, uint32_t max_dimension, uint64_t max_pixels,
                   uint8_t **out, uint32_t *out_width, uint32_t *out_height,
                   char *message, size_t message_size) {
    shim_context context;
    memset(&context, 0, sizeof context);
    context.message = message;
    context.message_size = message_size;
    context.input = data;
    context.input_size = size;
    *out = NULL;
    *out_width = 0;
    *out_height = 0;
    if (data == NULL || size < 8 || png_sig_cmp(data, 0, 8) != 0) {
        set_message(&context, TPS_PNG_ERROR_NOT_PNG, "not a PNG file (signature missing)");
        return context.code;
    }
    // Check IHDR's dimensions ourselves first: libpng's own limit check only warns and then
    // fails with a generic "Invalid IHDR data".
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t width = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
        uint32_t height = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
        if (width > max_dimension || height > max_dimension || (uint64_t)width * height > max_pixels) {
            char text[160];
            snprintf(text, sizeof text, "PNG is %ux%u, over the limit of %u pixels a side and %llu pixels",
                     (unsigned)width, (unsigned)height, (unsigned)max_dimension, (unsigned long long)max_pixels);
            set_message(&context, TPS_PNG_ERROR_TOO_LARGE, text);
            return context.code;
        }
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_infop info = png == NULL ? NULL : png_create_info_struct(png);
    if (png == NULL || info == NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        set_message(&context, TPS_PNG_ERROR_NO_MEMORY, "libpng could not allocate its state");
        return context.code;
    }
    // Written between setjmp and a possible longjmp, so volatile.
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return context.code == TPS_PNG_OK ? TPS_PNG_ERROR_LIBPNG : context.code;
    }
    png_set_read_fn(png, &context, on_read);
    png_set_user_limits(png, max_dimension, max_dimension);
    png_read_info(png, info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &color_type, &interlace, NULL, NULL);
    if ((uint64_t)width * (uint64_t)height > max_pixels) {
        char text[160];
        snprintf(text, sizeof text, "PNG is %ux%u, more than the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)max_pixels);
        set_message(&context, TPS_PNG_ERROR_TOO_LARGE, text);
        png_error(png, "too large");
    }
    // Normalise every colour type to 8-bit RGBA.
    png_set_expand(png);
    png_set_strip_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)width * 4) {
        set_message(&context, TPS_PNG_ERROR_LIBPNG, "unexpected row layout after conversion to RGBA");
        png_error(png, "row layout");
    }
    pixels = malloc(rowbytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) {
        set_message(&context, TPS_PNG_ERROR_NO_MEMORY, "out of memory while decoding PNG");
        png_error(png, "out of memory");
    }
    for (png_uint_32 row = 0; row < height; row++) {
        rows[row] = pixels + (size_t)row * rowbytes;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *out = pixels;
    *out_width = width;
    *out_height = height;
    return TPS_PNG_OK;
}

void tps_png_free(void *pointer) {
    free(pointer);
}
