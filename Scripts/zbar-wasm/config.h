/* What Debian's zbar sources need to build to WebAssembly for Scripts/build-zbar-wasm: QR codes only, iconv from
   emscripten's musl, no threads, no image files, no D-Bus. Stands in for the config.h zbar's configure writes. */
#define ENABLE_QRCODE 1
#define HAVE_ICONV 1
#define ICONV_CONST
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_ERRNO_H 1
#define NDEBUG 1
#define PACKAGE_NAME "zbar"
#define PACKAGE_VERSION "0.23.92"
#define VERSION "0.23.92"
#define ZBAR_VERSION_MAJOR 0
#define ZBAR_VERSION_MINOR 23
#define ZBAR_VERSION_PATCH 92
