#ifndef PROSPECTS_DEFLATE_SHIM_H
#define PROSPECTS_DEFLATE_SHIM_H

/// libdeflate (libdeflate-dev): gzip in one call, as `Gzip` (HTTPServer) compresses responses with it.
#include <libdeflate.h>

#endif
