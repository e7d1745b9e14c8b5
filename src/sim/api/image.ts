// Container image references: `nginx`, `nginx:1.14.2`, `registry.k8s.io/pause:3.9`,
// `busybox@sha256:<64 hex>`. Parsing decides the default imagePullPolicy (a missing tag means
// `latest`) and gives the kubelet the repository it pulls.
// Models k8s pkg/util/parsers/parsers.go (ParseImageName) over the docker/distribution reference
// grammar (ParseNormalizedNamed: docker.io and library/ are implied).

import { fail, ok, type Result } from './result.ts';
import { goQuote } from '../go/strconv.ts';

export interface ImageName {
  /** Fully qualified repository: `docker.io/library/nginx`. */
  readonly repository: string;
  /** The tag, `latest` when neither tag nor digest is given, `''` for a digest-only reference. */
  readonly tag: string;
  /** `sha256:…` or `''`. */
  readonly digest: string;
}

const alphaNumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]*)';
const nameComponent = `${alphaNumeric}(?:${separator}${alphaNumeric})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `${domainComponent}(?:\\.${domainComponent})*(?::[0-9]+)?`;
const tagPattern = '[\\w][\\w.-]{0,127}';
const digestPattern = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const reference = new RegExp(`^((?:${domain}/)?${nameComponent}(?:/${nameComponent})*)(?::(${tagPattern}))?(?:@(${digestPattern}))?$`);
const digestLengths: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/**
 * Splits `[domain/]rest` as docker's splitDockerDomain does: a first part without `.` or `:` that
 * is not `localhost` (and is lower case) is not a domain, so docker.io and `library/` are implied.
 */
function splitDockerDomain(s: string): [string, string] {
  const i = s.indexOf('/');
  let dom: string;
  let remainder: string;
  if (i < 0 || (!/[.:]/.test(s.slice(0, i)) && s.slice(0, i) !== 'localhost' && s.slice(0, i).toLowerCase() === s.slice(0, i))) {
    [dom, remainder] = ['docker.io', s];
  } else {
    [dom, remainder] = [s.slice(0, i), s.slice(i + 1)];
  }
  if (dom === 'index.docker.io') dom = 'docker.io';
  if (dom === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  return [dom, remainder];
}

/** parsers.ParseImageName: the repository, tag and digest, or why the reference is invalid. */
export function parseImageName(image: string): Result<ImageName> {
  const invalid = (why: string): Result<ImageName> => fail(`couldn't parse image name ${goQuote(image)}: ${why}`);
  if (/^[a-f0-9]{64}$/.test(image)) return invalid(`invalid repository name (${image}), cannot specify 64-byte hexadecimal strings`);
  const [dom, remainder] = splitDockerDomain(image);
  const tagSep = remainder.indexOf(':');
  const remoteName = tagSep < 0 ? remainder : remainder.slice(0, tagSep);
  if (remoteName.toLowerCase() !== remoteName) return invalid('invalid reference format: repository name must be lowercase');
  const m = reference.exec(`${dom}/${remainder}`);
  if (m === null) return invalid('invalid reference format');
  const repository = m[1]!;
  if (repository.length > 255) return invalid('repository name must not be more than 255 characters');
  const digest = m[3] ?? '';
  if (digest !== '') {
    const [algorithm, hex] = digest.split(':') as [string, string];
    const length = digestLengths[algorithm];
    if (length === undefined) return invalid('unsupported digest algorithm');
    if (hex.length !== length || !/^[a-f0-9]+$/.test(hex)) return invalid('invalid checksum digest format');
  }
  const tag = m[2] ?? '';
  return ok({ repository, tag: tag === '' && digest === '' ? 'latest' : tag, digest });
}
