#!/usr/bin/env python3
"""Copies etcd's v3 API protos from an etcd checkout at a tag and strips what only steers Go code generation
(gogoproto options) and the HTTP gateway (google.api.http), so @grpc/proto-loader loads them without imports.
Usage: scripts/strip-etcd-protos.py <etcd git dir> <tag> <out dir>   (e.g. v3.4.23 protos/etcd-v3.4.23)"""
import os, re, subprocess, sys

FILES = ['etcdserver/etcdserverpb/rpc.proto', 'mvcc/mvccpb/kv.proto', 'auth/authpb/auth.proto']

def strip_http_options(s):
    out, i = [], 0
    while True:
        j = s.find('option (google.api.http)', i)
        if j < 0:
            out.append(s[i:]); return ''.join(out)
        k = j
        while k > 0 and s[k - 1] in ' \t': k -= 1
        if k > 0 and s[k - 1] == '\n': k -= 1
        out.append(s[i:k])
        depth, p = 0, s.index('{', j)
        while True:
            if s[p] == '{': depth += 1
            elif s[p] == '}':
                depth -= 1
                if depth == 0: break
            p += 1
        i = s.index(';', p) + 1

def strip(s):
    s = re.sub(r'import "(gogoproto/gogo|google/api/annotations)\.proto";\n', '', s)
    s = re.sub(r'option \(gogoproto\.[a-z_]+\) = [a-z]+;\n', '', s)
    s = re.sub(r'\s*\[\(gogoproto\.[^\]]*\]', '', s)
    s = strip_http_options(s)
    return re.sub(r'\{\s*\n\s*\}', '{}', s)

git_dir, tag, out = sys.argv[1:4]
for f in FILES:
    text = subprocess.run(['git', '-C', git_dir, 'show', f'{tag}:{f}'], check=True, capture_output=True, text=True).stdout
    path = os.path.join(out, 'etcd', f)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, 'w').write(strip(text))
