#!/usr/bin/env bash
# Regenerates SampleImages/ from the payloads below with Debian's qrencode and ImageMagick.
# The PNGs are committed; this script is the record of how each was made (run it to remake them).
# Needs: apt-get install -y qrencode imagemagick
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/SampleImages"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cd "$out"

code() { # code FILE PAYLOAD [qrencode options…]: a 1-bit palette PNG with tRNS, as qrencode writes it
    local file=$1 payload=$2
    shift 2
    printf '%s' "$payload" | qrencode -s 6 -m 4 "$@" -o "$file"
}

code 01-paul-hudson.png $'Paul Hudson\npaul@hackingwithswift.com'
code 02-zoe-muller.png $'Zoë Müller\nzoe.muller@example.com'
code 03-li-xiaolong.png $'李小龙\nli.xiaolong@example.cn'
code 04-bjorn-odegard.png $'Björn Ødegård\nbjorn@example.no'
code 05-paul-hudson-again.png $'Paul Hudson\nPAUL@HackingWithSwift.com'
code 06-one-line.png 'Just A Name'
code 07-three-lines.png $'Ann Example\nann@example.com\nextra line'
code 08-bad-email.png $'Bad Email\nnot-an-email'
code 09-url.png 'https://www.hackingwithswift.com/100/swiftui'
convert -size 240x160 xc:white -depth 8 -fill black -draw 'rectangle 20,20 220,60' -draw 'circle 120,110 140,130' \
    -define png:color-type=0 10-no-code.png
code "$tmp/corrupt.png" $'Corrupt File\ncorrupt@example.com'
head -c 150 "$tmp/corrupt.png" > 11-truncated.png
code "$tmp/ada.png" $'Ada Lovelace\nada@example.org'
code "$tmp/grace.png" $'Grace Hopper\ngrace@example.mil'
convert "$tmp/ada.png" "$tmp/grace.png" +append -define png:color-type=0 12-two-codes.png
code "$tmp/alan.png" $'Alan Turing\nalan@example.co.uk'
convert "$tmp/alan.png" -negate -define png:color-type=0 13-inverted.png
code "$tmp/katherine.png" $'Katherine Johnson\nkatherine@example.gov'
convert "$tmp/katherine.png" -colorspace Gray -depth 16 -define png:bit-depth=16 -define png:color-type=0 14-gray-16bit.png
code 15-palette.png $'Tim Berners-Lee\ntim@example.org'
code "$tmp/margaret.png" $'Margaret Hamilton\nmargaret@example.com'
convert "$tmp/margaret.png" -background 'rgb(205,190,160)' -gravity center -extent 420x380 -rotate 8 \
    -blur 0x0.6 -define png:color-type=2 16-rgb-rotated.png
code 17-crlf.png $'Linus Torvalds\r\nlinus@example.org\r\n'
code 18-mecard.png 'MECARD:N:Hopper,Grace;EMAIL:GRACE@example.mil;TEL:+1-555-0100;;'
code 19-vcard.png $'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Jürgen;;;\r\nFN:Jürgen Müller\r\nORG:Müller GmbH\r\nTEL;TYPE=work:+49 30 1234567\r\nEMAIL;TYPE=INTERNET:juergen@example.de\r\nEND:VCARD\r\n'
code 20-bidi-override.png $'Eve \u202Egro.live\neve@example.com'
code "$tmp/hedy.png" $'Hedy Lamarr\nhedy@example.net'
convert "$tmp/hedy.png" -alpha set -channel A -evaluate set 60% +channel -interlace PNG \
    -define png:color-type=6 21-rgba-interlaced.png
printf 'This is a text file, not a picture.\n' > 22-text-renamed.png
: > 23-empty.png
code 24-name-angle-email.png 'Hedy Lamarr <HEDY@example.net>'
echo "made $(ls "$out"/*.png | wc -l) images in $out"
