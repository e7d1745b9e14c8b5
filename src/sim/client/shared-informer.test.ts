import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types/core.ts';
import type { Status } from '../api/types/meta.ts';
import { Engine } from '../engine/index.ts';
import { FakeApiserver } from './fake-apiserver.ts';
import { RestClient } from './rest-client.ts';
import { DeletedFinalStateUnknown, SharedIndexInformer } from './shared-informer.ts';
import { ClientTestComponent } from './testing.ts';
import type { ReflectorOptions } from './reflector.ts';

const pod = (name: string, rv: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', resourceVersion: rv }, spec: { containers: [] },
});
const podList = (rv: string, items: Pod[], cont?: string) => ({
  status: 200, headers: {}, body: { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: rv, ...(cont ? { continue: cont } : {}) }, items },
});
const expired = (message: string): Status => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Expired', code: 410,
});

function setup(options: ReflectorOptions = {}) {
  const engine = new Engine({ seed: 'informer' });
  const server = engine.add(new FakeApiserver());
  const component = engine.add(new ClientTestComponent('kube-controller-manager'));
  engine.link('kube-controller-manager', 'kube-apiserver', { latency: 2 });
  const informer = new SharedIndexInformer<Pod>(component.host, new RestClient(component.host, 't').resource<Pod>('pods'), options);
  const seen: string[] = [];
  informer.addEventHandler({
    onAdd: (p, initial) => seen.push(`add ${p.metadata.name}@${p.metadata.resourceVersion}${initial ? ' (initial)' : ''}`),
    onUpdate: (o, n) => seen.push(`update ${o.metadata.resourceVersion}→${n.metadata.resourceVersion}`),
    onDelete: (p) => seen.push(p instanceof DeletedFinalStateUnknown ? `tombstone ${p.key}` : `delete ${p.metadata.name}`),
  });
  /** Runs until idle, then long enough for a first backoff (< 1.6 s, a background timer) and what follows. */
  const settle = () => {
    engine.runUntilIdle();
    engine.runFor(2_000);
  };
  return { engine, server, component, informer, seen, settle };
}

describe('Reflector and SharedIndexInformer (scripted apiserver)', () => {
  it('lists with RV 0 and limit 500, then watches from the list RV with bookmarks and a timeout in [300, 600) s', () => {
    const { server, informer, seen, settle } = setup();
    server.onList = () => podList('10', [pod('a', '7')]);
    informer.run();
    settle();
    expect(informer.hasSynced()).toBe(true);
    expect(seen).toEqual(['add a@7 (initial)']);
    const [list, watch] = server.log();
    expect(list).toBe('GET /api/v1/pods?limit=500&resourceVersion=0');
    expect(watch).toMatch(/^GET \/api\/v1\/pods\?allowWatchBookmarks=true&resourceVersion=10&timeoutSeconds=(\d+)&watch=true$/);
    const timeout = Number(server.watches[0]!.query.get('timeoutSeconds'));
    expect(timeout).toBeGreaterThanOrEqual(300);
    expect(timeout).toBeLessThan(600);
  });

  it('applies watch events, advances the RV on bookmarks, and re-watches from it when the watch times out', () => {
    const { engine, server, informer, seen, settle } = setup();
    server.onList = () => podList('10', []);
    informer.run();
    settle();
    server.emit({ type: 'ADDED', object: pod('a', '11') });
    server.emit({ type: 'MODIFIED', object: pod('a', '12') });
    server.emit({ type: 'ADDED', object: pod('b', '13') });
    server.emit({ type: 'DELETED', object: pod('b', '14') });
    server.emit({ type: 'DELETED', object: pod('never-seen', '15') });
    server.emit({ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '20' } } });
    settle();
    expect(seen).toEqual(['add a@11', 'update 11→12', 'add b@13', 'delete b']);
    expect(informer.reflector.lastSyncRV).toBe('20');
    expect(informer.list('default').map((p) => p.metadata.name)).toEqual(['a']);

    engine.runFor(2000);
    server.end();
    settle();
    expect(server.watches).toHaveLength(2);
    expect(server.watches[1]!.query.get('resourceVersion')).toBe('20');
    expect(informer.reflector.listCount).toBe(1);
  });

  it('relists after a 410 Expired watch error, with the last RV and no limit, after an 800–1600 ms backoff', () => {
    const { engine, server, informer, seen, settle } = setup();
    server.onList = () => podList('10', [pod('a', '5'), pod('b', '6')]);
    informer.run();
    settle();
    server.emit({ type: 'MODIFIED', object: pod('a', '12') });
    settle();
    seen.length = 0;
    server.onList = () => podList('30', [pod('a', '25'), pod('c', '26')]);
    const errorAt = engine.now;
    server.emit({ type: 'ERROR', object: expired('too old resource version: 12 (20)') });
    settle();
    expect(server.watches[0]!.cancelled).toBe(true);
    const relist = server.requests[2]!;
    expect(server.log()[2]).toBe('GET /api/v1/pods?resourceVersion=12');
    const wait = relist.sentAt - errorAt;
    expect(wait).toBeGreaterThanOrEqual(800);
    expect(wait).toBeLessThan(1600 + 10);
    expect(seen).toEqual(['update 12→25', 'add c@26', 'tombstone default/b']);
    expect(server.watches[1]!.query.get('resourceVersion')).toBe('30');
  });

  it('falls back to a consistent list (RV "") when a list at its RV is Expired', () => {
    const { server, informer, settle } = setup();
    let lists = 0;
    server.onList = (query) => {
      lists++;
      if (lists === 2) return { status: 410, headers: {}, body: expired('The resourceVersion for the provided list is too old.') };
      return podList(query.get('resourceVersion') === '' || !query.has('resourceVersion') ? '40' : '10', []);
    };
    informer.run();
    settle();
    server.emit({ type: 'ERROR', object: expired('too old') });
    settle();
    expect(server.log().filter((l) => !l.includes('watch=true'))).toEqual([
      'GET /api/v1/pods?limit=500&resourceVersion=0',
      'GET /api/v1/pods?resourceVersion=10',
      'GET /api/v1/pods?',
    ]);
    expect(server.watches.at(-1)!.query.get('resourceVersion')).toBe('40');
  });

  it('follows continue tokens without resourceVersion and keeps paging relists once the server paged', () => {
    const { server, informer, seen, settle } = setup();
    server.onList = (query) => query.get('continue') === 'tok'
      ? podList('99', [pod('b', '8')])
      : podList('10', [pod('a', '7')], 'tok');
    informer.run();
    settle();
    expect(server.log().slice(0, 2)).toEqual([
      'GET /api/v1/pods?limit=500&resourceVersion=0',
      'GET /api/v1/pods?continue=tok&limit=500',
    ]);
    expect(seen).toEqual(['add a@7 (initial)', 'add b@8 (initial)']);
    expect(server.watches[0]!.query.get('resourceVersion')).toBe('10');
    server.emit({ type: 'ERROR', object: expired('too old') });
    settle();
    expect(server.log().find((l, i) => i > 2 && !l.includes('watch=true'))).toBe('GET /api/v1/pods?limit=500&resourceVersion=10');
  });

  it('treats a watch that ends within a second without events as an error and relists', () => {
    const { engine, server, informer, settle } = setup();
    informer.run();
    engine.runUntilIdle();
    server.end();
    settle();
    expect(informer.reflector.listCount).toBe(2);
  });

  it('retries a watch refused with 429 after the backoff, without relisting', () => {
    const { server, informer, settle } = setup();
    let refusals = 1;
    server.onWatch = () => (refusals-- > 0
      ? { status: 429, headers: {}, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too many requests', reason: 'TooManyRequests', code: 429 } }
      : null);
    informer.run();
    settle();
    expect(informer.reflector.listCount).toBe(1);
    expect(server.log().filter((l) => l.includes('watch=true'))).toHaveLength(2);
    expect(server.watches).toHaveLength(1);
  });

  it('resyncs on a background timer: OnUpdate(obj, obj) for every cached object', () => {
    const { engine, server, informer, seen, settle } = setup({ resyncPeriod: 30_000 });
    server.onList = () => podList('10', [pod('a', '7')]);
    informer.run();
    settle();
    seen.length = 0;
    engine.runFor(61_000);
    expect(seen).toEqual(['update 7→7', 'update 7→7']);
  });

  it('replays the cache to a handler added after start', () => {
    const { server, informer, settle } = setup();
    server.onList = () => podList('10', [pod('a', '7')]);
    informer.run();
    settle();
    const late: string[] = [];
    informer.addEventHandler({ onAdd: (p, initial) => late.push(`${p.metadata.name} ${initial}`) });
    expect(late).toEqual(['a true']);
  });

  it('stop cancels the open watch, and a watch answered after stop is cancelled at once', () => {
    const { server, informer, settle } = setup();
    informer.run();
    settle();
    informer.stop();
    settle();
    expect(server.watches[0]!.cancelled).toBe(true);

    const second = setup();
    second.informer.run();
    second.engine.run({ until: second.engine.now + 5 });
    second.informer.stop();
    second.settle();
    expect(second.server.watches).toHaveLength(1);
    expect(second.server.watches[0]!.cancelled).toBe(true);
  });

  it('sends the namespace and selectors on every list and watch (a kubelet\'s spec.nodeName watch)', () => {
    const { server, informer, settle } = setup({ namespace: 'default', fieldSelector: 'spec.nodeName=node-1', labelSelector: 'app=web' });
    informer.run();
    settle();
    expect(server.log()[0]).toBe('GET /api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dnode-1&labelSelector=app%3Dweb&limit=500&resourceVersion=0');
    expect(server.log()[1]).toMatch(/^GET \/api\/v1\/namespaces\/default\/pods\?allowWatchBookmarks=true&fieldSelector=spec.nodeName%3Dnode-1&labelSelector=app%3Dweb&resourceVersion=1&timeoutSeconds=\d+&watch=true$/);
  });
});
