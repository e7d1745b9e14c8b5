import { describe, expect, it } from 'vitest';
import type { ClusterMessageKind, ClusterMessages, TraceRecord } from '../../protocol/index.ts';
import { plainCaption } from './plain.ts';

let nextId = 1;
/** A record of kind `kind`: its payload typed by the model's message map, so a fixture cannot drift from it. */
function rec<K extends ClusterMessageKind>(kind: K, payload: ClusterMessages[K], over: Partial<TraceRecord> = {}): TraceRecord {
  const id = nextId++;
  return { step: id, id, from: 'kube-apiserver', to: 'kube-apiserver', kind, payload, sentAt: 0, deliverAt: 0, cause: null, replyTo: null, background: false, ...over };
}

describe('captions for a pod\'s log and exec', () => {
  const userLog = rec('http.request', { method: 'GET', path: '/api/v1/namespaces/default/pods/web/log', query: 'container=nginx&follow=true', headers: {} }, { from: 'user', to: 'kube-apiserver' });
  const toKubelet = rec('http.request', { method: 'POST', path: '/exec/default/web/nginx', query: 'command=ls&command=-l&output=1', headers: {} }, { to: 'kubelet/node-2' });

  it('says who asks whom, and that kube-apiserver passes the request on to the kubelet', () => {
    expect(plainCaption(userLog).en).toBe('kubectl asks kube-apiserver for the log of Pod web and keeps following it; kube-apiserver reads the Pod to find its node, then asks that node\'s kubelet');
    const passed = plainCaption(toKubelet);
    expect(passed.en).toBe('kube-apiserver does not keep logs or run commands: it passes the request on to the kubelet on node-2, whose server (port 10250) asks the container runtime for a command in container nginx of Pod web (ls -l)');
    expect(passed.zh).toContain('node-2 上的 kubelet');
  });

  it('tells the kubelet\'s answers and the stream\'s chunks apart', () => {
    const refused = rec('http.response', { status: 400, headers: {}, body: 'container "nginx" in pod "web" is waiting to start: ContainerCreating' }, { from: 'kubelet/node-2', to: 'kube-apiserver' });
    expect(plainCaption(refused, { request: toKubelet }).en).toBe('The kubelet on node-2 answers 400: container "nginx" in pod "web" is waiting to start: ContainerCreating');
    const chunk = rec('http.streamData', { channel: 2, data: 'nginx version: nginx/1.14.2\n' }, { from: 'kube-apiserver', to: 'user' });
    expect(plainCaption(chunk).en).toBe('kube-apiserver streams error output (stderr) to kubectl: nginx version: nginx/1.14.2');
    // The end of an exec's stream is not a watch's timeout.
    const userExec = rec('http.request', { method: 'POST', path: '/api/v1/namespaces/default/pods/web/exec', query: 'command=hostname', headers: {} }, { from: 'user', to: 'kube-apiserver' });
    const end = rec('http.watchEnd', { reason: 'timeout' }, { from: 'kube-apiserver', to: 'user' });
    expect(plainCaption(end, { request: userExec }).en).toBe('kube-apiserver ends the exec stream to kubectl: the command has finished');
    expect(plainCaption(end, { request: userLog }).en).toBe('kube-apiserver ends the stream to kubectl: the container stopped');
  });
});

describe('captions for kubectl get componentstatuses', () => {
  const list = rec('http.request', { method: 'GET', path: '/api/v1/componentstatuses', query: 'limit=500', headers: {} }, { from: 'user', to: 'kube-apiserver' });
  const probe = rec('http.request', { method: 'GET', path: '/healthz', query: '', headers: { host: '127.0.0.1:10259' } }, { to: 'kube-scheduler' });

  it('says nothing is stored, then names each probe and what its answer means', () => {
    expect(plainCaption(list).en).toMatch(/^kubectl asks kube-apiserver for the health of the control plane \(componentstatuses\): nothing of it is stored in etcd/);
    expect(plainCaption(probe).en).toBe('kube-apiserver probes kube-scheduler: GET https://127.0.0.1:10259/healthz, its health endpoint, for the componentstatuses read');
    const ok = rec('http.response', { status: 200, headers: {}, body: 'ok' }, { from: 'kube-scheduler', to: 'kube-apiserver' });
    expect(plainCaption(ok, { request: probe }).en).toBe("kube-scheduler answers kube-apiserver's probe: 200 ok, so it is listed Healthy");
    const etcd = rec('etcd.Range', { key: 'health' }, { to: 'etcd' });
    expect(plainCaption(etcd).en).toMatch(/^kube-apiserver probes etcd for componentstatuses \(etcd-0\): a read of the key health/);
    // A kubelet's own /healthz or an ordinary read keeps its caption.
    expect(plainCaption(rec('etcd.Range', { key: '/registry/pods/default/web' }, { to: 'etcd' })).en).not.toContain('probe');
  });
});
