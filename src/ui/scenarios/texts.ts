// The Scenarios panel's labels in the two languages of the captions.

import type { Language } from '../captions/captions.ts';
import type { StepStatus } from './run-state.ts';

export interface ScenarioTexts {
  readonly loading: string;
  readonly scenario: string;
  readonly source: string;
  readonly files: string;
  readonly steps: string;
  readonly controls: (title: string) => string;
  readonly runNext: string;
  readonly runAll: string;
  readonly stop: string;
  readonly startOver: string;
  readonly resetFirst: string;
  readonly mix: string;
  readonly inUse: (objects: number) => string;
  readonly nodes: (expected: number, actual: number) => string;
  readonly progress: (done: number, total: number) => string;
  readonly finished: (total: number) => string;
  readonly status: Record<StepStatus | 'next', string>;
}

export const scenarioTexts: Record<Language, ScenarioTexts> = {
  en: {
    loading: 'Waiting for the scenario catalog…',
    scenario: 'Scenario',
    source: 'From',
    files: 'Files',
    steps: 'Scenario steps',
    controls: (title) => `Run ${title}`,
    runNext: 'Run next step',
    runAll: 'Run all remaining steps',
    stop: 'Stop',
    startOver: 'Start over',
    resetFirst: 'Reset cluster first',
    mix: 'Run on this cluster anyway',
    inUse: (n) => (n > 0
      ? `This cluster already has ${n} object${n === 1 ? '' : 's'} (pods, ReplicaSets, Deployments…): the scenario's steps would mix with them.`
      : 'Commands were already run on this cluster: the scenario\'s steps would mix with what they did.'),
    nodes: (expected, actual) => `This scenario expects ${expected} worker nodes; the cluster has ${actual}.`,
    progress: (done, total) => `${done} of ${total} steps done`,
    finished: (total) => `All ${total} steps done`,
    status: { pending: '', next: 'next', running: 'running…', done: 'done', failed: 'failed' },
  },
  zh: {
    loading: '正在等待场景目录…',
    scenario: '场景',
    source: '出处',
    files: '文件',
    steps: '场景步骤',
    controls: (title) => `运行 ${title}`,
    runNext: '运行下一步',
    runAll: '运行剩余全部步骤',
    stop: '停止',
    startOver: '从头开始',
    resetFirst: '先重置集群',
    mix: '仍在当前集群上运行',
    inUse: (n) => (n > 0
      ? `当前集群已有 ${n} 个对象（Pod、ReplicaSet、Deployment…）：场景的步骤会与它们混在一起。`
      : '当前集群上已经执行过命令：场景的步骤会与其结果混在一起。'),
    nodes: (expected, actual) => `此场景需要 ${expected} 个工作节点，当前集群有 ${actual} 个。`,
    progress: (done, total) => `已完成 ${done} / ${total} 步`,
    finished: (total) => `全部 ${total} 步已完成`,
    status: { pending: '', next: '下一步', running: '运行中…', done: '完成', failed: '失败' },
  },
};
