import { describe, expect, it } from 'vitest';
import type { Milestone } from '../../protocol/index.ts';
import { i18n, loadLanguage } from '../i18n/index.ts';
import { milestoneLabel, shortName } from './milestone-label.ts';

const base = { step: 40, messageId: 400, at: 1, components: ['kube-apiserver', 'etcd'] };
const pod = { resource: 'pods', kind: 'Pod', namespace: 'default', name: 'nginx-deployment-7f4d79f7d7-fxzwz' };

describe('milestone labels', () => {
  it('names the object, shortened to its owner\'s first word and random suffix for the column', async () => {
    expect(shortName('nginx-deployment-7f4d79f7d7-fxzwz')).toBe('nginx-…-fxzwz');
    expect(shortName('web')).toBe('web');
    const bound = { ...base, kind: 'podBound', object: pod, node: 'node-2', revision: 31 } as Milestone;
    await loadLanguage('zh');
    await i18n.changeLanguage('en');
    const t = i18n.getFixedT('en', 'sequence');
    expect(milestoneLabel(bound, t)).toBe('nginx-deployment-7f4d79f7d7-fxzwz bound to node-2');
    expect(milestoneLabel(bound, t, true)).toBe('nginx-…-fxzwz bound to node-2');
    expect(milestoneLabel(bound, i18n.getFixedT('zh', 'sequence'), true)).toBe('nginx-…-fxzwz 绑定到 node-2');
    const started = { ...base, kind: 'containerStep', object: pod, node: 'node-2', action: 'started', container: 'nginx', image: 'nginx:1.14.2' } as Milestone;
    expect(milestoneLabel(started, t, true)).toBe('nginx-…-fxzwz: started');
    const failed = { ...base, kind: 'requestFailed', client: 'user', status: 403, reason: 'Forbidden', message: '' } as Milestone;
    expect(milestoneLabel(failed, t)).toBe('403 Forbidden');
  });
});
