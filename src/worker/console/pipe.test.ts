// The console's pipe: grep, head and wc -l filter a command's stdout line by line (as it streams), stderr
// passes, the last filter's status is the line's, and what a shell would refuse is refused as bash does.

import { describe, expect, it } from 'vitest';
import { nginxDeploymentYaml as nginx } from '../../sim/scenarios/manifests.ts';
import { parsePipeline, type Pipe } from './pipe.ts';
import { consoleOnCluster } from './testing.ts';

function pipeOf(line: string): Pipe {
  const parsed = parsePipeline(line);
  if (!('pipe' in parsed) || parsed.pipe === null) throw new Error(`no pipe in ${line}`);
  return parsed.pipe;
}

/** Feeds `chunks` as a command would print them; returns what the pipe printed and its status. */
function feed(line: string, ...chunks: string[]): { text: string; exitCode: number } {
  const pipe = pipeOf(line);
  let text = chunks.map((c) => pipe.write(c)).join('');
  const end = pipe.end();
  text += end.text;
  return { text, exitCode: end.exitCode };
}

const table = 'NAME        READY\nweb-1       1/1\nweb-2       0/1\nnginx-abc   1/1\n';

describe('the console pipe', () => {
  it('splits at unquoted | only', () => {
    expect(parsePipeline('kubectl get pods')).toEqual({ command: 'kubectl get pods', pipe: null });
    expect(parsePipeline("kubectl get pods -o jsonpath='{.a|b}'")).toMatchObject({ pipe: null });
    expect(parsePipeline('kubectl get pod|grep web')).toMatchObject({ command: 'kubectl get pod' });
  });

  it('grep keeps the matching lines, whole lines even when printed in pieces; -v, -i, -c, -w, -E, -F', () => {
    expect(feed('k | grep web', 'NAME  READY\nweb', '-1  1/1\nnginx 1/1\nweb-2 0/1')).toEqual({ text: 'web-1  1/1\nweb-2 0/1\n', exitCode: 0 });
    expect(feed('k | grep -v web', table).text).toBe('NAME        READY\nnginx-abc   1/1\n');
    expect(feed('k | grep -i NGINX', table).text).toBe('nginx-abc   1/1\n');
    expect(feed('k | grep -c 1/1', table)).toEqual({ text: '2\n', exitCode: 0 });
    expect(feed('k | grep -w web', table).text).toBe('web-1       1/1\nweb-2       0/1\n');
    expect(feed('k | grep -w we', table)).toEqual({ text: '', exitCode: 1 });
    // A basic expression's + and | are literal; -E makes them operators; -F takes the pattern as text.
    expect(feed('k | grep "web-1|nginx"', table)).toEqual({ text: '', exitCode: 1 });
    expect(feed('k | grep "web-1\\|nginx"', table).text).toBe('web-1       1/1\nnginx-abc   1/1\n');
    expect(feed('k | grep -E "web-1|nginx"', table).text).toBe('web-1       1/1\nnginx-abc   1/1\n');
    expect(feed('k | grep -F "."', 'a.b\nab\n').text).toBe('a.b\n');
    expect(feed('k | grep "^web-[0-9]"', table).text).toBe('web-1       1/1\nweb-2       0/1\n');
  });

  it('head and wc -l; filters chain in order', () => {
    expect(feed('k | head -2', table).text).toBe('NAME        READY\nweb-1       1/1\n');
    expect(feed('k | head -n 1', table).text).toBe('NAME        READY\n');
    expect(feed('k | wc -l', table).text).toBe('4\n');
    expect(feed('k | grep web | wc -l', table)).toEqual({ text: '2\n', exitCode: 0 });
    expect(feed('k | grep nope | wc -l', table)).toEqual({ text: '0\n', exitCode: 0 });
    expect(feed('k | grep -v NAME | head -1', table).text).toBe('web-1       1/1\n');
  });

  it('refuses what it does not model, as a shell would', () => {
    expect(parsePipeline('kubectl get pods |')).toEqual({ error: 'bash: syntax error near unexpected token `|\'\n', exitCode: 2 });
    expect(parsePipeline('kubectl get pods | sort')).toMatchObject({ error: 'sort: command not found (after | this console runs grep, head and wc -l)\n', exitCode: 127 });
    expect(parsePipeline('kubectl get pods | grep -z x')).toMatchObject({ exitCode: 2 });
  });
});

describe('a pipe after kubectl in the console', () => {
  it('seeds/004\'s `kubectl get pod|grep …`: only the matching rows, kubectl\'s stderr untouched, grep\'s status', () => {
    const { run } = consoleOnCluster({ seed: 'console-pipe', nodes: 2 });
    run('kubectl create -f -', nginx.replace('replicas: 1', 'replicas: 2'));
    const all = run('kubectl get pod');
    const rows = all.stdout.split('\n').filter((l) => l.startsWith('nginx-deployment-'));
    expect(rows).toHaveLength(2);
    const grepped = run('kubectl get pod|grep nginx-deployment');
    expect(grepped).toMatchObject({ stdout: rows.map((r) => `${r}\n`).join(''), stderr: '', exitCode: 0 });
    expect(run('kubectl get pod | grep -c Running')).toMatchObject({ stdout: '2\n', exitCode: 0 });
    // kubectl's error goes to the terminal, not through grep; grep saw no line, so the line's status is 1.
    expect(run('kubectl get pod nope | grep nope')).toMatchObject({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
    expect(run('kubectl get ns | wc -l')).toMatchObject({ stdout: '5\n', exitCode: 0 });
  });
});
