#ifndef PROSPECTS_HEIF_SHIM_H
#define PROSPECTS_HEIF_SHIM_H

/// libheif's API, as QRDecoding calls it. The functions QRDecoding uses are defined in heif_loader.c, which loads
/// libheif (and with it its decoders: libde265, dav1d, aom, x265) on the first call, not at process start-up:
/// their relocations and static initialisers cost every `prospects` process, HEIF or not, about half of its
/// start-up instructions.
#include <libheif/heif.h>

#endif
