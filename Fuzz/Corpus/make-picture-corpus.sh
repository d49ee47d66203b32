#!/usr/bin/env bash
# Writes the seed corpora of the picture readers' fuzz targets (small real files, committed) with Debian's encoders
# (Scripts/install-dependencies --test): FuzzJPEGReader (baseline, progressive, gray, restart markers, arithmetic,
# CMYK, with EXIF orientation), FuzzWebPReader (lossy, lossless), FuzzHEIFReader (HEIC 8- and 10-bit, AVIF).
# Sources: small QR codes from SampleImages/. Rerunning is harmless (files are named by content).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$(dirname "$here")")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
put() {  # put TARGET FILE
    mkdir -p "$here/$1"
    cp "$2" "$here/$1/$(sha1sum "$2" | cut -c1-16)"
}
for source in 01-paul-hudson 06-one-line; do
    # Shrunk to about 1 pixel per module, so each seed is a few hundred bytes to a few KB.
    /usr/bin/convert "$root/SampleImages/$source.png" -filter point -resize 25% -type TrueColor "PNG24:$work/in.png"
    /usr/bin/convert "$work/in.png" "$work/in.ppm"
    cjpeg -quality 80 "$work/in.ppm" >"$work/a.jpg" && put FuzzJPEGReader "$work/a.jpg"
    cjpeg -progressive "$work/in.ppm" >"$work/b.jpg" && put FuzzJPEGReader "$work/b.jpg"
    cjpeg -grayscale -restart 1 "$work/in.ppm" >"$work/c.jpg" && put FuzzJPEGReader "$work/c.jpg"
    cjpeg -arithmetic "$work/in.ppm" >"$work/d.jpg" && put FuzzJPEGReader "$work/d.jpg"
    /usr/bin/convert "$work/in.png" -colorspace CMYK "$work/e.jpg" && put FuzzJPEGReader "$work/e.jpg"
    # An APP1 EXIF segment (little-endian TIFF, one tag: orientation 6) after the SOI of a.jpg.
    { printf '\xff\xd8\xff\xe1\x00\x22Exif\x00\x00II\x2a\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00'
      printf '\x06\x00\x00\x00\x00\x00\x00\x00'; tail -c +3 "$work/a.jpg"; } >"$work/f.jpg" && put FuzzJPEGReader "$work/f.jpg"
    cwebp -quiet -q 80 "$work/in.png" -o "$work/a.webp" && put FuzzWebPReader "$work/a.webp"
    cwebp -quiet -lossless "$work/in.png" -o "$work/b.webp" && put FuzzWebPReader "$work/b.webp"
    heif-enc -q 50 "$work/in.png" -o "$work/a.heic" >/dev/null && put FuzzHEIFReader "$work/a.heic"
    heif-enc -b 10 -q 50 "$work/in.png" -o "$work/b.heic" >/dev/null && put FuzzHEIFReader "$work/b.heic"
    heif-enc -A -q 50 "$work/in.png" -o "$work/c.avif" >/dev/null && put FuzzHEIFReader "$work/c.avif"
done
ls "$here/FuzzJPEGReader" "$here/FuzzWebPReader" "$here/FuzzHEIFReader" | grep -vc ':$' | xargs echo "seed files:"
