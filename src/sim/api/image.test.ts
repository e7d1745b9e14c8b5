import { describe, expect, it } from 'vitest';
import { parseImageName } from './image.ts';

describe('parseImageName', () => {
  // Cases from k8s pkg/util/parsers/parsers_test.go TestParseImageName.
  it.each([
    ['docker.io/library/busybox', 'docker.io/library/busybox', 'latest', ''],
    ['docker.io/busybox', 'docker.io/library/busybox', 'latest', ''],
    ['busybox', 'docker.io/library/busybox', 'latest', ''],
    ['nginx:1.14.2', 'docker.io/library/nginx', '1.14.2', ''],
    ['nginx:latest', 'docker.io/library/nginx', 'latest', ''],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io/pause', '3.9', ''],
    ['localhost:5000/app', 'localhost:5000/app', 'latest', ''],
    ['gcr.io/test/test:12345', 'gcr.io/test/test', '12345', ''],
    ['busybox@sha256:' + 'a'.repeat(64), 'docker.io/library/busybox', '', 'sha256:' + 'a'.repeat(64)],
    ['busybox:1.36@sha256:' + 'b'.repeat(64), 'docker.io/library/busybox', '1.36', 'sha256:' + 'b'.repeat(64)],
  ])('%s', (image, repository, tag, digest) => {
    expect(parseImageName(image)).toEqual({ ok: true, value: { repository, tag, digest } });
  });

  it.each([
    ['Nginx', 'couldn\'t parse image name "Nginx": invalid reference format: repository name must be lowercase'],
    ['nginx:', 'couldn\'t parse image name "nginx:": invalid reference format'],
    ['', 'couldn\'t parse image name "": invalid reference format'],
    ['a'.repeat(64), `couldn't parse image name "${'a'.repeat(64)}": invalid repository name (${'a'.repeat(64)}), cannot specify 64-byte hexadecimal strings`],
    ['busybox@sha256:abc', 'couldn\'t parse image name "busybox@sha256:abc": invalid reference format'],
    ['busybox@md5:' + 'a'.repeat(32), `couldn't parse image name "busybox@md5:${'a'.repeat(32)}": unsupported digest algorithm`],
  ])('rejects %j', (image, error) => {
    expect(parseImageName(image)).toEqual({ ok: false, error });
  });
});
