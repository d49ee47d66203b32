#!/bin/sh
# Regenerates the committed PNG fixtures: real files from real tools (qrencode, ImageMagick), for the flavours
# libpng's simplified write API cannot produce (interlacing, palette + tRNS + gAMA, sub-8-bit depths).
# Tests only read the committed files; they never run these tools. Run from anywhere: sh make-fixtures.sh
set -eu
cd "$(dirname "$0")"
payload="$(printf 'Zoë Müller\nzoe@example.com')"

# qrencode's own output: 1-bit palette with tRNS and pHYs, 3 px per module.
qrencode -l M -s 3 -m 4 -o qrencode-palette-1bit.png "$payload"

# 1 px per module: zbar finds nothing until the image is upscaled.
qrencode -l M -s 1 -m 4 -o qrencode-1px-module.png "$payload"

# Adam7-interlaced 8-bit RGB, tinted so the RGB → gray conversion matters.
convert qrencode-palette-1bit.png -fill '#f0e0c0' -opaque white -interlace PNG -define png:color-type=2 \
    -strip interlaced-rgb8.png

# Adam7-interlaced 16-bit gray.
convert qrencode-palette-1bit.png -colorspace Gray -interlace PNG -define png:color-type=0 \
    -define png:bit-depth=16 -strip interlaced-gray16.png

# 8-bit palette, white made fully transparent (tRNS), with a gAMA chunk: must be composited on white.
# PNG8: forces a palette; the excluded chunks would only make the file depend on the clock and the tool.
convert qrencode-palette-1bit.png -transparent white -set gamma 0.45455 \
    -define png:exclude-chunks=date,time,bKGD,cHRM,pHYs,tEXt,zTXt,iTXt PNG8:palette-trns-gama.png

# A blurred version 7 code (3 px a module, σ 1.2, JPEG quality 87), cut from photo 2 of Scripts/bench-photos' 12 MP
# set, which Scripts/make_photo.c draws from its seed. Only when that corpus is there (Scripts/bench-photos makes it).
photo=${PHOTOS:-../../../.bench/photos}/12mp/jpg/photo-002.jpg
if [ -f "$photo" ]; then
    convert "$photo" -crop 260x260+930+330 +repage -colorspace Gray -depth 8 -define png:color-type=0 -strip \
        blurred-v7-photo-crop.png
fi
