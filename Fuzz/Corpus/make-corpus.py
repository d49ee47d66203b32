#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (small files, committed). Run from anywhere; rerunning is harmless.

FuzzPayloadParser: byte 0 picks a format prefix (0-4, see its main.swift); 0xFF means none, the payload follows.
FuzzPNGDecoder: the PNGs of SampleImages/ and the decoder test fixtures.
FuzzImportReaders: CSV and JSON Lines lists, good and bad.
"""
import hashlib, os, shutil, glob

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

def put(target, data):
    folder = os.path.join(here, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)

NONE = b"\xff"
payloads = [
    "Paul Hudson\npaul@hackingwithswift.com",
    "Zoë Müller\r\nzoe.muller@example.com\r\n",
    "李小龙\nli.xiaolong@example.cn",
    "\ufeffPaul Hudson\npaul@example.com",
    "  Paul Hudson  \n\tpaul@example.com \t",
    "Paul Hudson <paul@example.com>",
    "\"Hudson, Paul\" <paul@example.com>",
    "MECARD:N:Hudson,Paul;TEL:+15550100;EMAIL:paul@example.com;ORG:Acme\\; Inc;;",
    "MECARD:\r\nN:Hudson,Paul;\r\nEMAIL:paul@example.com;\r\n;",
    "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Hudson;Paul;;;\r\nFN:Paul Hudson\r\nORG:Acme\r\nTEL;TYPE=CELL:+1 555 0100\r\n"
    "EMAIL;TYPE=INTERNET:paul@example.com\r\nEND:VCARD\r\n",
    "BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB M=C3=BCller\nEMAIL:zoe@example.de\nEND:VCARD",
    "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Bj\r\n \xf6rn \xd8deg\xe5rd\r\nEMAIL:bjorn@example.no\r\nEND:VCARD\r\n",
    "MATMSG:TO:paul@example.com;SUB:Hello;BODY:Hi;;",
    "mailto:Paul@Example.com?subject=hi",
    "mailto:paul@example.com,zoe@example.com",
    "https://user:secret@example.com/path?q=1",
    "WIFI:T:WPA;S:net;P:secret;;",
    "Paul\n\x1b]0;pwned\x07@example.com",
    "\x1b]52;c;aGVsbG8=\x07\np@example.com",
    "Paul \u202eoduH\npaul@example.com",
    "Pa\u200bul\npaul@example.com",
    "Раul Hudson\npaul@example.com",
    "Paul\x00Hudson\npaul@example.com",
    "Paul\nHudson\npaul@example.com",
    "Paul\n" + "a" * 64 + "@" + ".".join(["b" * 63] * 3) + ".com",
]
for text in payloads:
    put("FuzzPayloadParser", NONE + text.encode("utf-8", "surrogatepass"))
put("FuzzPayloadParser", NONE + b"Paul \xc3\x28\npaul@example.com")  # invalid UTF-8
put("FuzzPayloadParser", NONE + b"BEGIN:VCARD\r\nFN:Bj\xc3\r\n \xb6rn\r\nEMAIL:b@example.no\r\nEND:VCARD\r\n")
put("FuzzPayloadParser", NONE + b"Paul\n" + b"x" * 2953)
for selector, body in enumerate([b"N:Hudson,Paul;EMAIL:paul@example.com;;",
                                 b"FN:Paul Hudson\r\nEMAIL:paul@example.com\r\nEND:VCARD\r\n",
                                 b"TO:paul@example.com;;", b"paul@example.com",
                                 b"Paul\nEMAIL:paul@example.com\nEND:VCARD"]):
    put("FuzzPayloadParser", bytes([selector]) + body)

for png in sorted(glob.glob(os.path.join(root, "SampleImages", "*.png"))
                  + glob.glob(os.path.join(root, "Tests", "QRDecodingTests", "Fixtures", "*.png"))):
    with open(png, "rb") as f:
        data = f.read()
    if len(data) <= 64 * 1024:
        put("FuzzPNGDecoder", data)

lists = [
    b"name,email\nPaul Hudson,paul@example.com\n",
    b"\xef\xbb\xbfName,E-mail,Phone,Company,Contacted\r\n\"Hudson, Paul\",paul@example.com,+1 555,Acme,yes\r\n",
    b"First Name,Last Name,Email Address\nPaul,Hudson,paul@example.com\n\"Zo\xc3\xab\",\"M\"\"\xc3\xbcller\",zoe@example.de\n",
    b"name,email,notes\n'=SUM(A1),formula@example.com,\"multi\nline\"\nRobert'); DROP TABLE prospects;--,bobby@example.com,x\n",
    b"name,email\n\"unterminated,paul@example.com\n",
    b"name,email\nPaul,paul@example.com,extra\n\xff\xfe,bad@example.com\n",
    b'{"name":"Paul Hudson","email":"paul@example.com","contacted":true}\n',
    b'{"name":"Zo\\u00eb","emailAddress":"zoe@example.de","isContacted":0,"phone":null}\r\n\n{"name":1}\n[1,2]\nnot json\n',
    b'{"name":"\\u001b]52;c;eA==\\u0007","email":"x@example.com"}\n{"name":"Paul","email":"p@example.com","organization":"Acme"}',
    b"E-mail;Full name;Reminder\r\na@example.com;\"Hudson; Paul\";2026-12-01 14:30\r\n,,\r\nb@example.com;Bob;call next week\n",
    b'[\n {"Name":"Ann","EMAIL":"ann@example.com","Phone":5551234,"createdAt":"20240131T120000Z"}\n]\n',
]
for data in lists:
    put("FuzzImportReaders", data)

# FuzzGeometryPass: byte 0 odd = a drawn code (corner offsets in bytes 1-8, payload from byte 9), even = raw pixels.
drawn = [
    (bytes([1, 0, 0, 0, 0, 0, 0, 0, 0]), b"Paul Hudson\npaul@example.com"),  # straight on
    (bytes([1, 60, 20, 0, 40, 30, 0, 80, 10]), b"Zoe Muller\nzoe@example.com\n+41 44 668 18 00"),  # perspective
    (bytes([3, 200, 0, 255, 200, 0, 255, 10, 60]), b"MECARD:N:Hudson,Paul;EMAIL:paul@example.com;;"),  # shear
]
for header, payload in drawn:
    put("FuzzGeometryPass", header + payload)
put("FuzzGeometryPass", bytes([0, 20]) + bytes((x * 37 + y * 11) % 256 for y in range(48) for x in range(48)))

# FuzzModuleDecoder: byte 0 mod 3 = 0 a module grid (format stamped when byte 1 >= 128), 1 a libqrencode code of
# the payload (byte 1 mod 64 + 1 bytes from byte 2) with module flips after it, 2 raw data codewords.
put("FuzzModuleDecoder", bytes([0, 128 + 1, 0x0A]) + bytes((i * 73) % 256 for i in range(80)))
put("FuzzModuleDecoder", bytes([0, 128 + 4, 0x2B]) + bytes((i * 151 + 7) % 256 for i in range(200)))
put("FuzzModuleDecoder", bytes([1, 27]) + b"Paul Hudson\npaul@example.com")
put("FuzzModuleDecoder", bytes([1, 128 + 15]) + b"Zo\xc3\xab M\xc3\xbcller" + bytes([3, 4, 10, 12, 15, 9]))
put("FuzzModuleDecoder", bytes([2, 4]) + bytes([0x40, 0x54, 0x86, 0x56, 0xC6, 0xC6, 0xF0, 0xEC, 0x11]))
put("FuzzModuleDecoder", bytes([2, 1]) + bytes([0xD1, 0x03, 0x82, 0x5A, 0x40, 0x71, 0xA0, 0x00]))
put("FuzzModuleDecoder", bytes([2, 130]) + bytes([0x02, 0x08, 0x34, 0x1A, 0x7C, 0x00]))
