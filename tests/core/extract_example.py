#!/usr/bin/env python3
"""Writes the example program of ossa.h's opening comment to a C file, so that the test builds and
runs the very text a reader sees."""
import sys

src, out = sys.argv[1], sys.argv[2]
lines = open(src, encoding='utf-8').read().split('\n')
begin = lines.index(' * --- example begin ---')
end = lines.index(' * --- example end ---')
code = [l[3:] if l.startswith(' * ') else l[2:] for l in lines[begin + 1:end]]
if not code or not any('int main' in l for l in code):
    sys.exit('no example in ' + src)
open(out, 'w', encoding='utf-8').write('\n'.join(code) + '\n')
