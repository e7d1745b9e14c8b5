// The modelled container registry: the images a pull can find, with what each image's config says
// (entrypoint, cmd, environment, the files a learner may look at, the ports its server listens on).
// A reference is resolved as containerd resolves it on docker.io: an unknown repository is "pull
// access denied", a known repository with an unknown tag is "not found". Image references are checked
// first as the kubelet does (applyDefaultImageTag over the docker reference grammar): an upper-case or
// malformed reference never reaches the registry (InvalidImageName).
// Models pkg/kubelet/images/image_manager.go (EnsureImageExists, applyDefaultImageTag) and containerd
// 1.7's pull errors (remotes/docker/resolver.go) as CRI reports them.
//
// Not modelled: private registries and pull secrets, digests other than the ones shown, layers.

import { parseImageName } from '../api/image.ts';

/** What a container of the image does when run with the image's own entrypoint and cmd. */
export type ImageServer =
  /** An HTTP server on `port`: `/` and the listed paths answer 200, others 404. */
  | { readonly kind: 'http'; readonly port: number; readonly paths: readonly string[]; readonly product: 'nginx' | 'httpd' }
  /** A TCP server (accepts connections; no HTTP). */
  | { readonly kind: 'tcp'; readonly port: number; readonly product: 'redis' | 'mysql' | 'app' };

export interface ImageConfig {
  /** `docker.io/library/nginx`. */
  readonly repository: string;
  readonly tag: string;
  readonly entrypoint: readonly string[];
  readonly cmd: readonly string[];
  readonly env: readonly (readonly [string, string])[];
  /** The version a program prints (`nginx -v`, start-up lines). */
  readonly version: string;
  /** Files of the image a learner may `cat` or `ls`. */
  readonly files: Readonly<Record<string, string>>;
  readonly sizeBytes: number;
}

const path = ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'] as const;

const nginxIndex = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
    body {
        width: 35em;
        margin: 0 auto;
        font-family: Tahoma, Verdana, Arial, sans-serif;
    }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

/** The image's /etc/nginx/nginx.conf: `worker_processes auto` and `notice` in the images with entrypoint scripts (1.25+), `1` and `warn` before. */
const nginxConf = (modern: boolean): string => `
user  nginx;
worker_processes  ${modern ? 'auto' : '1'};

error_log  /var/log/nginx/error.log ${modern ? 'notice' : 'warn'};
pid        /var/run/nginx.pid;


events {
    worker_connections  1024;
}


http {
    include       /etc/nginx/mime.types;
    default_type  application/octet-stream;

    log_format  main  '$remote_addr - $remote_user [$time_local] "$request" '
                      '$status $body_bytes_sent "$http_referer" '
                      '"$http_user_agent" "$http_x_forwarded_for"';

    access_log  /var/log/nginx/access.log  main;

    sendfile        on;
    #tcp_nopush     on;

    keepalive_timeout  65;

    #gzip  on;

    include /etc/nginx/conf.d/*.conf;
}
`;

const debianRoot = ['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib64', 'media', 'mnt', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'tmp', 'usr', 'var'];
const busyboxRoot = ['bin', 'dev', 'etc', 'home', 'lib', 'lib64', 'proc', 'root', 'sys', 'tmp', 'usr', 'var'];

/** Directory listings are files whose content is their entries, one a line (`ls` prints them). */
function dir(entries: readonly string[]): string {
  return `${[...entries].sort().join('\n')}\n`;
}

function nginx(tag: string, version: string, env: readonly (readonly [string, string])[], entrypointScripts: boolean): ImageConfig {
  return {
    repository: 'docker.io/library/nginx', tag, version,
    entrypoint: entrypointScripts ? ['/docker-entrypoint.sh'] : [],
    cmd: ['nginx', '-g', 'daemon off;'],
    env: [path, ...env],
    files: {
      '/': dir(entrypointScripts ? [...debianRoot, 'docker-entrypoint.d', 'docker-entrypoint.sh'] : debianRoot),
      '/usr/share/nginx/html': dir(['50x.html', 'index.html']),
      '/usr/share/nginx/html/index.html': nginxIndex,
      '/etc/nginx': dir(['conf.d', 'fastcgi_params', 'mime.types', 'modules', 'nginx.conf', 'scgi_params', 'uwsgi_params']),
      '/etc/nginx/nginx.conf': nginxConf(entrypointScripts),
    },
    sizeBytes: entrypointScripts ? 67_250_000 : 44_710_000,
  };
}

function busybox(tag: string): ImageConfig {
  return {
    repository: 'docker.io/library/busybox', tag, version: '1.36.1', entrypoint: [], cmd: ['sh'], env: [path],
    files: { '/': dir(busyboxRoot) }, sizeBytes: 2_160_000,
  };
}

function server(repository: string, tag: string, version: string, cmd: readonly string[], entrypoint: readonly string[], sizeBytes: number): ImageConfig {
  return { repository, tag, version, entrypoint, cmd, env: [path], files: { '/': dir(debianRoot) }, sizeBytes };
}

/** The catalog: every repository and its tags (the tags of one repository in the order a registry lists them). */
export const imageCatalog: readonly ImageConfig[] = [
  nginx('1.14.2', '1.14.2', [['NGINX_VERSION', '1.14.2-1~stretch'], ['NJS_VERSION', '1.14.2.0.2.6-1~stretch']], false),
  nginx('1.15', '1.15.12', [['NGINX_VERSION', '1.15.12-1~stretch'], ['NJS_VERSION', '1.15.12.0.3.1-1~stretch']], false),
  nginx('1.16', '1.16.1', [['NGINX_VERSION', '1.16.1'], ['NJS_VERSION', '0.3.8'], ['PKG_RELEASE', '1~buster']], false),
  nginx('1.16.1', '1.16.1', [['NGINX_VERSION', '1.16.1'], ['NJS_VERSION', '0.3.8'], ['PKG_RELEASE', '1~buster']], false),
  nginx('1.25', '1.25.3', [['NGINX_VERSION', '1.25.3'], ['NJS_VERSION', '0.8.2'], ['PKG_RELEASE', '1~bookworm']], true),
  nginx('1.25.3', '1.25.3', [['NGINX_VERSION', '1.25.3'], ['NJS_VERSION', '0.8.2'], ['PKG_RELEASE', '1~bookworm']], true),
  nginx('1.26', '1.26.2', [['NGINX_VERSION', '1.26.2'], ['NJS_VERSION', '0.8.5'], ['NJS_RELEASE', '1~bookworm'], ['PKG_RELEASE', '1~bookworm']], true),
  nginx('1.26.2', '1.26.2', [['NGINX_VERSION', '1.26.2'], ['NJS_VERSION', '0.8.5'], ['NJS_RELEASE', '1~bookworm'], ['PKG_RELEASE', '1~bookworm']], true),
  nginx('1.27', '1.27.3', [['NGINX_VERSION', '1.27.3'], ['NJS_VERSION', '0.8.7'], ['NJS_RELEASE', '1~bookworm'], ['PKG_RELEASE', '1~bookworm'], ['DYNPKG_RELEASE', '1~bookworm']], true),
  nginx('latest', '1.27.3', [['NGINX_VERSION', '1.27.3'], ['NJS_VERSION', '0.8.7'], ['NJS_RELEASE', '1~bookworm'], ['PKG_RELEASE', '1~bookworm'], ['DYNPKG_RELEASE', '1~bookworm']], true),
  busybox('1.36'), busybox('1.36.1'), busybox('latest'),
  { ...busybox('3.20'), repository: 'docker.io/library/alpine', version: '3.20.3', cmd: ['/bin/sh'], sizeBytes: 3_620_000 },
  { ...busybox('latest'), repository: 'docker.io/library/alpine', version: '3.20.3', cmd: ['/bin/sh'], sizeBytes: 3_620_000 },
  server('docker.io/library/redis', '5.0', '5.0.14', ['redis-server'], ['docker-entrypoint.sh'], 41_370_000),
  server('docker.io/library/redis', '6.0', '6.0.20', ['redis-server'], ['docker-entrypoint.sh'], 40_180_000),
  server('docker.io/library/redis', '7.2', '7.2.6', ['redis-server'], ['docker-entrypoint.sh'], 40_010_000),
  server('docker.io/library/redis', 'latest', '7.4.1', ['redis-server'], ['docker-entrypoint.sh'], 45_080_000),
  server('docker.io/library/httpd', '2.4', '2.4.62', ['httpd-foreground'], [], 58_470_000),
  server('docker.io/library/httpd', 'latest', '2.4.62', ['httpd-foreground'], [], 58_470_000),
  server('registry.k8s.io/pause', '3.9', '3.9', ['/pause'], [], 321_520),
  // Seed 003's own images, built by the course and pushed here so its user-service Pod can start.
  server('docker.io/library/user', 'latest', '1.0', ['user-service'], [], 20_000_000),
  server('docker.io/library/mysql-for-user', 'latest', '5.7.44', ['mysqld'], ['docker-entrypoint.sh'], 150_000_000),
];

/** What each server image listens on, by repository. */
export const imageServers: Readonly<Record<string, ImageServer>> = {
  'docker.io/library/nginx': { kind: 'http', port: 80, paths: ['/', '/index.html', '/50x.html'], product: 'nginx' },
  'docker.io/library/httpd': { kind: 'http', port: 80, paths: ['/', '/index.html'], product: 'httpd' },
  'docker.io/library/redis': { kind: 'tcp', port: 6379, product: 'redis' },
  'docker.io/library/mysql-for-user': { kind: 'tcp', port: 3306, product: 'mysql' },
  'docker.io/library/user': { kind: 'tcp', port: 10086, product: 'app' },
};

/** applyDefaultImageTag: the reference with `:latest` when it has neither tag nor digest, or the kubelet's error. */
// Models pkg/kubelet/images/image_manager.go applyDefaultImageTag (dockerref.ParseNormalizedNamed).
export function applyDefaultImageTag(image: string): { ok: true; repository: string; tag: string } | { ok: false; message: string } {
  const parsed = parseImageName(image);
  if (!parsed.ok) {
    const why = parsed.error.replace(/^couldn't parse image name "[^"]*": /, '');
    return { ok: false, message: `Failed to apply default image tag "${image}": couldn't parse image reference "${image}": ${why}` };
  }
  return { ok: true, repository: parsed.value.repository, tag: parsed.value.tag };
}

/** The image a pull of `repository:tag` finds, or containerd's error as the CRI reports it. */
export function resolveImage(repository: string, tag: string): { ok: true; image: ImageConfig } | { ok: false; error: string } {
  const ref = `${repository}:${tag}`;
  const known = imageCatalog.filter((i) => i.repository === repository);
  const image = known.find((i) => i.tag === tag);
  if (image) return { ok: true, image };
  if (known.length === 0) {
    return {
      ok: false,
      error: `rpc error: code = Unknown desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`,
    };
  }
  return { ok: false, error: notFoundError(ref) };
}

/** containerd's answer when a tag does not exist (also what the unpullable-image fault gives). */
export function notFoundError(ref: string): string {
  return `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
}

/** The config of an image that is not in the catalog but already on the node (a test's preloaded image). */
export function localImage(repository: string, tag: string): ImageConfig {
  const byRepository = imageCatalog.find((i) => i.repository === repository);
  return byRepository ? { ...byRepository, tag } : server(repository, tag, tag, [], [], 50_000_000);
}
