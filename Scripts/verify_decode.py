#!/usr/bin/env python3
"""Counts exact payloads in `prospects decode --json` output against a corpus manifest.

usage: verify_decode.py MANIFEST.tsv DECODE.jsonl   (prints the number of files whose code text equals the payload)
The manifest's first column is the file name, the second the payload as hex (gen_corpus.sh's format).
"""
import json
import os
import sys

expected = {}
with open(sys.argv[1], encoding="utf-8") as manifest:
    for line in manifest:
        fields = line.rstrip("\n").split("\t")
        if len(fields) >= 2:
            expected[fields[0]] = bytes.fromhex(fields[1])

exact = set()
with open(sys.argv[2], encoding="utf-8") as output:
    for line in output:
        record = json.loads(line)
        name = os.path.basename(record.get("file", ""))
        if "text" in record and record["text"].encode("utf-8") == expected.get(name):
            exact.add(name)
print(len(exact))
