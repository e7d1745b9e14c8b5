// `crane` in the page console: the catalog of Podflow's modelled registry, as go-containerregistry's
// crane prints it (`crane catalog docker.io` lists repositories, `crane ls nginx` a repository's tags).
// A pull of anything not listed fails on the kubelets (ErrImagePull, then ImagePullBackOff).
// Models github.com/google/go-containerregistry/cmd/crane (catalog, ls).

import { imageCatalog } from '../../sim/kubelet/image-registry.ts';

function repositoryOf(reference: string): string {
  const slash = reference.indexOf('/');
  const first = slash < 0 ? '' : reference.slice(0, slash);
  if (slash < 0) return `docker.io/library/${reference}`;
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost') return `docker.io/${reference}`;
  return reference.replace(/^index\.docker\.io\//, 'docker.io/');
}

/** Runs `crane …`; returns what it prints and its exit code. */
export function runCrane(args: readonly string[]): { stdout: string; stderr: string; exitCode: number } {
  const [verb, target] = args;
  if (verb === 'catalog') {
    const registry = target ?? '';
    const repositories = [...new Set(imageCatalog.map((i) => i.repository))]
      .filter((r) => registry === '' || r.startsWith(`${registry.replace(/^index\.docker\.io$/, 'docker.io')}/`))
      .map((r) => r.slice(r.indexOf('/') + 1));
    if (registry === '') return { stdout: '', stderr: 'Error: accepts 1 arg(s), received 0\n', exitCode: 1 };
    return { stdout: repositories.map((r) => `${r}\n`).join(''), stderr: '', exitCode: 0 };
  }
  if (verb === 'ls') {
    if (target === undefined) return { stdout: '', stderr: 'Error: accepts 1 arg(s), received 0\n', exitCode: 1 };
    const repository = repositoryOf(target.replace(/:[^/:]*$/, ''));
    const tags = imageCatalog.filter((i) => i.repository === repository).map((i) => i.tag);
    if (tags.length === 0) {
      return { stdout: '', stderr: `Error: reading tags for ${target}: GET https://index.docker.io/v2/${repository.replace(/^docker\.io\//, '')}/tags/list: UNAUTHORIZED: authentication required; [map[Action:pull Class: Name:${repository.replace(/^docker\.io\//, '')} Type:repository]]\n`, exitCode: 1 };
    }
    return { stdout: tags.map((t) => `${t}\n`).join(''), stderr: '', exitCode: 0 };
  }
  return {
    stdout: '', exitCode: 1,
    stderr: `${verb === undefined ? '' : `Error: unknown command "${verb}" for "crane"\n`}Podflow's crane lists its modelled registry: crane catalog docker.io, crane ls nginx (other crane commands are not modelled in Podflow)\n`,
  };
}
