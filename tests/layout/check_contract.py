#!/usr/bin/env python3
"""The API contract of engine/include/ossa/ossa.h, checked on every public header.

Each OSSA_API prototype (multi-line ones too), each caller-filled struct and each #define is
read from engine/include/ossa/*.h and held to these rules:

  status-err   a function returning ossa_status takes `ossa_error *err` last (the builder's
               calls after ossa_builder_create excepted, as ossa.h says)
  err-status   a function taking an `ossa_error *` returns ossa_status (the record's own calls,
               ossa_error_*, excepted)
  capacity     a non-const pointer to numbers or text (an output array) is followed, itself or
               after the group of arrays beside it, by its capacity: `capacity`, `X_capacity`
               or `X_floats`; in a job struct or another struct of caller buffers the same holds
               for fields. Pointers to one value (SINGLE_VALUES) are not arrays.
  input-size   a const pointer to numbers or bytes (an input array) has its count next to it,
               before or after its group: count, size, capacity, X_count, X_size, X_capacity,
               X_floats
  not-found    a look-up answers OSSA_NOT_FOUND: a function whose comment says what it answers
               when there is nothing (-1, "when none", "when absent", "when unknown", "when
               inactive", "false when out of range") returns uint32_t and names OSSA_NOT_FOUND,
               and every other #define of 0xffffffff is OSSA_NOT_FOUND
  status-kind  an argument a call cannot take is OSSA_ERR_INVALID_ARGUMENT: a comment pairing
               OSSA_ERR_RANGE or OSSA_ERR_VALUE with an index out of range, a count above a cap
               or a negative or non-finite number breaks it
  no-failure   a call that does not return ossa_status has no precondition a caller can break
               (its comment says no "must")
  wrap-name    every parameter and field of type ossa_wrap is named `wrap`
  options      ossa_load_*, ossa_write_* and ossa_export_gltf / _glb_stream take a
               `const ossa_X_options *`
  logger       the one callback type for messages is ossa_log_fn: no other typedef of
               void (*)(void *, const char *)
  job          for every ossa_X_job struct, ossa_X_job_validate and ossa_X_job_run exist, take
               (const ossa_X_job *, ossa_error *) and return ossa_status; no other call takes a
               job and returns a status, and none takes a job to fill it

A deviation that exists today is listed in contract_allowlist.txt (name, rule, reason). The
test fails on a deviation not listed, and on a listed one that no longer deviates, so the list
only shrinks. Before the headers it checks itself on a small header that breaks every rule.

Usage: check_contract.py SOURCE_ROOT
"""
import os
import re
import sys

SCALARS = {'float', 'double', 'char', 'int', 'unsigned', 'int8_t', 'uint8_t', 'int16_t',
           'uint16_t', 'int32_t', 'uint32_t', 'int64_t', 'uint64_t', 'size_t', 'bool'}
INTEGERS = {'int', 'unsigned', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'int32_t',
            'int64_t', 'size_t'}
# Pointers to one value the call writes (not arrays): function -> parameter names.
SINGLE_VALUES = {
    'ossa_vertex_track_locate': {'frame_a', 'frame_b', 'fraction'},
    'ossa_skin_mesh_traffic': {'read_bytes', 'write_bytes'},
    'ossa_file_read': {'size'},
    'ossa_instance_fading': {'from'},
}
# Structs whose output arrays the caller provides, besides every ossa_X_job.
BUFFER_STRUCTS = {'ossa_instance_span', 'ossa_reference_pose'}
RULES = ('status-err', 'err-status', 'capacity', 'input-size', 'not-found', 'status-kind',
         'no-failure', 'wrap-name', 'options', 'logger', 'job')

CAPACITY_NAME = re.compile(r'^(capacity|\w+_capacity|\w+_floats)$')
COUNT_NAME = re.compile(r'^(count|size|capacity|\w+_count|\w+_size|\w+_capacity|\w+_floats)$')
NOT_FOUND_TEXT = re.compile(r'-1 when|-1 for|when (absent|none|unknown|inactive|not found)|'
                            r'false when out of range|\(\) when none')
WRONG_KIND = re.compile(r'OSSA_ERR_(RANGE|VALUE)\b[^.;]*?\b(out of range|negative|non-finite|'
                        r'not finite|above \d)')
SENTINEL = re.compile(r'^\s*#\s*define\s+(\w+)\s+(.*?)\s*$', re.M)


def blank_comments(text):
    """text with every comment replaced by spaces (newlines kept), and the comments' spans."""
    out, spans, i = [], [], 0
    while i < len(text):
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = len(text) if j < 0 else j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = len(text) if j < 0 else j
        else:
            out.append(text[i])
            i += 1
            continue
        spans.append((i, j))
        out.append(re.sub(r'[^\n]', ' ', text[i:j]))
        i = j
    return ''.join(out), spans


def split_top(s, sep=','):
    parts, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def parse_decl(decl):
    """'const float *t' -> (type, name, is_fixed_array); type normalised ('const float *')."""
    decl = ' '.join(decl.split())
    fixed = False
    m = re.search(r'\[[^\]]*\]$', decl)
    if m:
        fixed = True
        decl = decl[:m.start()].strip()
    m = re.match(r'^(.*?)(\w+)$', decl)
    if not m:
        return decl, '', fixed
    typ = re.sub(r'\s*\*\s*', ' *', m.group(1)).strip()
    typ = re.sub(r'\* \*', '**', typ)
    return typ, m.group(2), fixed


def scalar_pointer(typ):
    """('const'|'', base) for a pointer to one level of a scalar or void, else None."""
    m = re.match(r'^(const )?(\w+) \*$', typ)
    if not m or (m.group(2) not in SCALARS and m.group(2) != 'void'):
        return None
    return (m.group(1) or '').strip(), m.group(2)


def doc_before(text, spans, start):
    """The comment right above start, or inherited from the previous declaration when no blank
    line separates them."""
    for (a, b) in reversed(spans):
        if b <= start:
            if text[b:start].strip() == '' and text[b:start].count('\n') <= 1:
                return text[a:b]
            break
    return None


class Header:
    def __init__(self, name, text):
        self.name = name
        self.text = text
        self.code, self.spans = blank_comments(text)
        self.functions = []   # (name, ret, params, doc)
        self.structs = {}     # name -> [(type, name)]
        self.typedef_fns = [] # (name, ret, params)
        self.defines = []     # (name, value)
        self._parse()

    def _parse(self):
        code, text = self.code, self.text
        prev = None
        for m in re.finditer(r'\bOSSA_API\b(.*?);', code, re.S):
            if m.group(0).startswith('OSSA_API __attribute__') or '#' in m.group(1):
                continue
            body = ' '.join(m.group(1).split())
            fm = re.match(r'^(.*?)\b(\w+)\s*\((.*)\)$', body)
            if not fm:
                continue
            ret = re.sub(r'\s*\*\s*', ' *', fm.group(1)).strip()
            params = [] if fm.group(3).strip() in ('', 'void') else \
                [parse_decl(p) for p in split_top(fm.group(3))]
            doc = doc_before(text, self.spans, m.start())
            if doc is None and prev is not None and prev[2] == ret:
                gap = code[prev[0]:m.start()]
                if gap.strip() == '' and gap.count('\n') <= 1:
                    doc = prev[1]
            trail = re.match(r'[ \t]*(/\*.*?\*/)', text[m.end():], re.S)
            if doc is None and trail:
                doc = trail.group(1)
            self.functions.append((fm.group(2), ret, params, doc or ''))
            prev = (m.end(), doc, ret)
        for m in re.finditer(r'typedef\s+struct\s+(\w+)\s*\{(.*?)\}\s*(\w+)\s*;', code, re.S):
            fields = []
            for stmt in m.group(2).split(';'):
                stmt = ' '.join(stmt.split())
                if not stmt:
                    continue
                parts = split_top(stmt)
                first = parse_decl(parts[0])
                base = re.sub(r'[\s*]+$', '', first[0])
                fields.append(first)
                fields.extend(parse_decl(base + ' ' + part) for part in parts[1:])
            self.structs[m.group(3)] = fields
        for m in re.finditer(r'typedef\s+(\w[\w\s\*]*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*?)\)\s*;',
                             code, re.S):
            params = [parse_decl(p) for p in split_top(' '.join(m.group(3).split()))]
            self.typedef_fns.append((m.group(2), m.group(1).strip(), params))
        for m in SENTINEL.finditer(code):
            self.defines.append((m.group(1), m.group(2)))


def check_arrays(owner, items, single, deviations, rule_out='capacity', rule_in='input-size'):
    """items: [(type, name, fixed)] in order (parameters or fields)."""
    def is_array(k):
        typ, name, fixed = items[k]
        sp = scalar_pointer(typ)
        if fixed or not sp or name in single or name in ('err', 'user', 'ctx'):
            return None
        if sp[0] == '' and sp[1] == 'void':
            return None   # an untyped block (ossa_builder_alloc's out_ptr)
        if sp[0] == 'const' and sp[1] == 'char':
            return None   # a string
        return 'in' if sp[0] == 'const' else 'out'
    k = 0
    while k < len(items):
        kind = is_array(k)
        if not kind:
            k += 1
            continue
        j = k
        kinds = set()
        while j < len(items) and is_array(j):
            kinds.add(is_array(j))
            j += 1
        after = items[j] if j < len(items) else None
        before = items[k - 1] if k > 0 else None

        def names_count(item, pattern):
            return item is not None and item[0] in INTEGERS and pattern.match(item[1])
        if 'out' in kinds and not names_count(after, CAPACITY_NAME):
            deviations.add((owner, rule_out))
        if kinds == {'in'} and not (names_count(after, COUNT_NAME) or
                                    names_count(before, COUNT_NAME)):
            deviations.add((owner, rule_in))
        k = j


def check(headers):
    """The set of (name, rule) deviations over a list of Header."""
    dev = set()
    functions = {f[0]: f for h in headers for f in h.functions}
    structs = {n: s for h in headers for n, s in h.structs.items()}
    for name, ret, params, doc in functions.values():
        types = [p[0] for p in params]
        builder_variant = name.startswith('ossa_builder_') and name != 'ossa_builder_create'
        if ret == 'ossa_status' and not builder_variant and \
                (not params or params[-1][0] != 'ossa_error *' or params[-1][1] != 'err'):
            dev.add((name, 'status-err'))
        if 'ossa_error *' in types and ret != 'ossa_status' and not name.startswith('ossa_error_'):
            dev.add((name, 'err-status'))
        check_arrays(name, params, SINGLE_VALUES.get(name, set()), dev)
        if NOT_FOUND_TEXT.search(doc) and '*' not in ret and ret != 'ossa_status' and \
                (ret != 'uint32_t' or 'OSSA_NOT_FOUND' not in doc):
            dev.add((name, 'not-found'))
        if ret == 'ossa_status' and WRONG_KIND.search(' '.join(doc.split())):
            dev.add((name, 'status-kind'))
        if ret != 'ossa_status' and re.search(r'\bmust\b', doc):
            dev.add((name, 'no-failure'))
        for typ, pname, _ in params:
            if typ == 'ossa_wrap' and pname != 'wrap':
                dev.add((name, 'wrap-name'))
        if re.match(r'^ossa_(load_|write_|export_gltf$|export_glb_stream$)', name) and \
                not any(re.match(r'^const ossa_\w*options \*$', t) for t in types):
            dev.add((name, 'options'))
        for typ in types:
            jm = re.match(r'^(const )?(ossa_\w+_job) \*$', typ)
            if not jm or jm.group(2) not in structs:
                continue
            job = jm.group(2)
            if not jm.group(1):
                dev.add((name, 'job'))
            elif ret == 'ossa_status' and name not in (job + '_validate', job + '_run'):
                dev.add((name, 'job'))
    for sname, fields in structs.items():
        for typ, fname, _ in fields:
            if typ == 'ossa_wrap' and fname != 'wrap':
                dev.add((sname, 'wrap-name'))
        if sname.endswith('_job'):
            for suffix in ('_validate', '_run'):
                f = functions.get(sname + suffix)
                if not f or f[1] != 'ossa_status' or \
                        [p[0] for p in f[2]] != ['const %s *' % sname, 'ossa_error *']:
                    dev.add((sname, 'job'))
        if sname.endswith('_job') or sname in BUFFER_STRUCTS:
            check_arrays(sname, fields, set(), dev)
    for h in headers:
        for tname, ret, params in h.typedef_fns:
            if ret == 'void' and [p[0] for p in params] == ['void *', 'const char *'] and \
                    tname != 'ossa_log_fn':
                dev.add((tname, 'logger'))
        for dname, value in h.defines:
            if dname != 'OSSA_NOT_FOUND' and \
                    re.match(r'^\(?(0xffffffffu?|UINT32_MAX)\)?$', value, re.I):
                dev.add((dname, 'not-found'))
    return dev


# A header that breaks every rule once, and the deviations the checker must find in it.
BAD_HEADER = r'''
typedef void (*bad_warn_fn)(void *user, const char *message);
#define BAD_NONE 0xffffffffu
typedef struct ossa_bad_job { float *out; int n; ossa_wrap mode; } ossa_bad_job;
OSSA_API ossa_status ossa_bad_job_run(const ossa_bad_job *job, ossa_error *err);
OSSA_API ossa_status ossa_bad_parallel(void *pool, const ossa_bad_job *job, ossa_error *err);
OSSA_API void ossa_bad_job_init(ossa_bad_job *job, float *out);
OSSA_API ossa_status ossa_bad_err_first(ossa_error *err,
                                        int x);
OSSA_API int ossa_bad_err_value(int x, ossa_error *err);
OSSA_API ossa_status ossa_bad_fill(float *out, float *out2, uint32_t size, ossa_error *err);
OSSA_API void ossa_bad_read(const float *positions);
/* -1 when absent. */
OSSA_API int32_t ossa_bad_find(const char *name);
/* OSSA_ERR_RANGE for a clip out of range. */
OSSA_API ossa_status ossa_bad_play(uint32_t clip, ossa_error *err);
/* pose->bone_count must equal the skeleton's. */
OSSA_API void ossa_bad_rest(void *pose);

OSSA_API float ossa_bad_time(float t, ossa_wrap mode);
OSSA_API ossa_status ossa_load_bad(const char *path, float scale, void **out, ossa_error *err);
'''
BAD_EXPECTED = {
    ('bad_warn_fn', 'logger'), ('BAD_NONE', 'not-found'), ('ossa_bad_job', 'job'),
    ('ossa_bad_job', 'capacity'), ('ossa_bad_job', 'wrap-name'), ('ossa_bad_parallel', 'job'),
    ('ossa_bad_job_init', 'job'), ('ossa_bad_job_init', 'capacity'),
    ('ossa_bad_err_first', 'status-err'), ('ossa_bad_err_value', 'err-status'),
    ('ossa_bad_fill', 'capacity'), ('ossa_bad_read', 'input-size'), ('ossa_bad_find', 'not-found'),
    ('ossa_bad_play', 'status-kind'), ('ossa_bad_rest', 'no-failure'),
    ('ossa_bad_time', 'wrap-name'), ('ossa_load_bad', 'options'),
}
GOOD_HEADER = r'''
typedef void (*ossa_log_fn)(void *user, const char *message);
#define OSSA_NOT_FOUND UINT32_MAX
typedef struct ossa_good_job {
    const float *in;
    uint32_t count;
    float *out_a, *out_b;
    uint32_t out_capacity;
    ossa_wrap wrap;
} ossa_good_job;
OSSA_API ossa_status ossa_good_job_validate(const ossa_good_job *job, ossa_error *err);
OSSA_API ossa_status ossa_good_job_run(const ossa_good_job *job,
                                       ossa_error *err);
/* OSSA_NOT_FOUND when none. */
OSSA_API uint32_t ossa_good_find(const char *name);
/* OSSA_ERR_INVALID_ARGUMENT for a clip out of range. */
OSSA_API ossa_status ossa_good_fill(uint32_t clip, ossa_wrap wrap, float *t, float *r,
                                    uint32_t bone_capacity, float m[3], ossa_error *err);
OSSA_API ossa_status ossa_load_good(const char *path, const ossa_load_options *opt,
                                    void **out, ossa_error *err);
OSSA_API ossa_job_kind ossa_good_job_kind(const ossa_good_job *job);
'''


def self_test():
    bad = check([Header('bad.h', BAD_HEADER)])
    good = check([Header('good.h', GOOD_HEADER)])
    ok = True
    if bad != BAD_EXPECTED:
        print('self-test: the bad header gives %s; missed %s' %
              (sorted(bad - BAD_EXPECTED), sorted(BAD_EXPECTED - bad)))
        ok = False
    if good:
        print('self-test: the good header gives %s' % sorted(good))
        ok = False
    return ok


def read_allowlist(path):
    entries, errors = {}, []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            m = re.match(r'^(\w+)\s+([\w-]+)\s+(\S.*)$', line)
            if not m or m.group(2) not in RULES:
                errors.append('%s:%d: want "name rule reason"' % (path, n))
                continue
            entries[(m.group(1), m.group(2))] = m.group(3)
    return entries, errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    if not self_test():
        return 1
    inc = os.path.join(root, 'engine', 'include', 'ossa')
    headers = []
    for fn in sorted(os.listdir(inc)):
        if fn.endswith('.h'):
            with open(os.path.join(inc, fn), encoding='utf-8') as f:
                headers.append(Header(fn, f.read()))
    found = check(headers)
    here = os.path.dirname(os.path.abspath(__file__))
    allowed, errors = read_allowlist(os.path.join(here, 'contract_allowlist.txt'))
    for e in errors:
        print(e)
    for name, rule in sorted(found - set(allowed)):
        print('deviation: %s breaks %s (ossa.h states the contract)' % (name, rule))
    for name, rule in sorted(set(allowed) - found):
        print('allowlist: %s no longer breaks %s: remove its line' % (name, rule))
    n_fn = sum(len(h.functions) for h in headers)
    bad = errors or found != set(allowed)
    print('%d headers, %d functions, %d allowlisted deviations%s' %
          (len(headers), n_fn, len(allowed), ': FAIL' if bad else ''))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
