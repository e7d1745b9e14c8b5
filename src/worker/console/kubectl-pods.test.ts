// `kubectl logs` and `kubectl exec` in the console, against a whole simulated cluster.

import { describe, expect, it } from 'vitest';
import { consoleOnCluster } from './testing.ts';

const setup = () => consoleOnCluster({ seed: 'console-pods', nodes: 2 }, 3_000);

const pod = (name: string, containers: string, restart = 'Always') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  restartPolicy: ${restart}
  containers:
${containers}`;

describe('kubectl logs and exec in the console', () => {
  it('prints a container\'s log, with --tail and the errors kubectl prints', () => {
    const { cluster, run } = setup();
    expect(run('kubectl logs web').stderr).toBe('Error from server (NotFound): pods "web" not found\n');
    run('kubectl apply -f -', pod('web', '  - name: nginx\n    image: nginx:1.25.3\n  - name: side\n    image: busybox:1.36\n    command: ["sh", "-c", "echo side car; sleep 3600"]\n'));
    // Two pulls, one after the other.
    cluster.engine.runFor(10_000);
    const log = run('kubectl logs web');
    expect(log.stderr).toBe('Defaulted container "nginx" out of: nginx, side\n');
    expect(log.stdout.split('\n')[0]).toBe('/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration');
    expect(log.exitCode).toBe(0);
    expect(run('kubectl logs web -c side')).toMatchObject({ stdout: 'side car\n', stderr: '', exitCode: 0 });
    expect(run('kubectl logs web side --tail=0')).toMatchObject({ stdout: '', exitCode: 0 });
    expect(run('kubectl logs web -c nope').stderr).toBe('Error from server (BadRequest): container nope is not valid for pod web\n');
    expect(run('kubectl logs web -c side -p').stderr).toBe('Error from server (BadRequest): previous terminated container "side" in pod "web" not found\n');
  });

  it('follows a log with -f until Ctrl-C', () => {
    const { cluster, session, run, start, output } = setup();
    run('kubectl apply -f -', pod('ticker', '  - name: c\n    image: busybox:1.36\n    command: ["sh", "-c", "while true; do echo tick; sleep 1; done"]\n'));
    cluster.engine.runFor(5_000);
    const id = start('kubectl logs -f ticker');
    cluster.engine.runFor(3_000);
    const partial = output(id);
    expect(partial.exitCode).toBeUndefined();
    const before = partial.stdout.split('\n').length;
    cluster.engine.runFor(2_000);
    expect(output(id).stdout.split('\n').length).toBeGreaterThan(0);
    session.interrupt(id);
    const done = output(id);
    expect(done.exitCode).toBe(130);
    expect(before).toBeGreaterThan(3);
  });

  it('runs a command with exec, with its exit code', () => {
    const { cluster, run } = setup();
    run('kubectl apply -f -', pod('web', '  - name: nginx\n    image: nginx:1.14.2\n'));
    // Scheduled, pulled and started (the image pull takes its modelled time).
    cluster.engine.runUntilIdle();
    expect(run('kubectl exec web -- hostname')).toMatchObject({ stdout: 'web\n', stderr: '', exitCode: 0 });
    expect(run('kubectl exec web -- ls /nope')).toMatchObject({ stderr: 'ls: cannot access \'/nope\': No such file or directory\ncommand terminated with exit code 2\n', exitCode: 2 });
    expect(run('kubectl exec -it web -- sh').stderr).toContain('interactive sessions (-i, -t) are not modelled');
    expect(run('kubectl exec web').stderr).toBe('error: you must specify at least one command for the container\n');
    expect(run('kubectl exec web -- wget -qO- localhost')).toMatchObject({ exitCode: 126 });
  });

  it('reports a completed pod as kubectl does, and runs it to completion', () => {
    const { cluster, run } = setup();
    run('kubectl apply -f -', pod('once', '  - name: c\n    image: busybox\n    command: ["sh", "-c", "echo done"]\n', 'Never'));
    cluster.engine.runFor(5_000);
    expect(run('kubectl logs once')).toMatchObject({ stdout: 'done\n', exitCode: 0 });
    expect(run('kubectl exec once -- ls').stderr).toBe('error: cannot exec into a container in a completed pod; current phase is Succeeded\n');
    expect(run('kubectl get pod once').stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\nonce\s+0\/1\s+Completed\s+0\s+/);
  });
});

describe('crane in the console', () => {
  it('lists the modelled registry: repositories, then a repository\'s tags', () => {
    const { run } = setup();
    const catalog = run('crane catalog docker.io');
    expect(catalog.stdout.split('\n')).toEqual(expect.arrayContaining(['library/nginx', 'library/busybox', 'library/redis', 'library/httpd']));
    expect(run('crane ls nginx').stdout).toContain('1.14.2\n');
    expect(run('crane ls nosuchimage')).toMatchObject({ exitCode: 1 });
  });
});
