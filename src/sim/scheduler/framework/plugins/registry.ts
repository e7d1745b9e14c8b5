// The default profile of kube-scheduler 1.28: which plugin is enabled at which extension point, in
// which order, and each Score plugin's weight (for the plugins Podflow models).
// Models pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins) and
// pkg/scheduler/framework/plugins/registry.go.

import type { Binding } from '../../../api/types/core.ts';
import type { ResourceClient } from '../../../client/index.ts';
import type { Plugins } from '../interface.ts';
import { defaultBinder } from './defaultbinder.ts';
import { defaultPreemption } from './defaultpreemption.ts';
import { imageLocality } from './imagelocality.ts';
import { nodeAffinity } from './nodeaffinity.ts';
import { nodeName } from './nodename.ts';
import { nodePorts } from './nodeports.ts';
import { balancedAllocation } from './noderesources/balanced-allocation.ts';
import { nodeResourcesFit } from './noderesources/fit.ts';
import { nodeUnschedulable } from './nodeunschedulable.ts';
import { podTopologySpread } from './podtopologyspread.ts';
import { taintToleration } from './tainttoleration.ts';

/** The default plugins, binding through `bindings`. Reserve, Permit and PreBind have only VolumeBinding upstream (not modelled). */
export function defaultPlugins(bindings: ResourceClient<Binding>): Plugins {
  return {
    preFilter: [nodePorts, nodeResourcesFit],
    filter: [nodeUnschedulable, nodeName, taintToleration, nodeAffinity, nodePorts, nodeResourcesFit],
    postFilter: [defaultPreemption],
    preScore: [taintToleration, nodeAffinity, nodeResourcesFit, podTopologySpread, balancedAllocation, imageLocality],
    score: [
      { plugin: taintToleration, weight: 3 },
      { plugin: nodeAffinity, weight: 2 },
      { plugin: nodeResourcesFit, weight: 1 },
      { plugin: podTopologySpread, weight: 2 },
      { plugin: balancedAllocation, weight: 1 },
      { plugin: imageLocality, weight: 1 },
    ],
    reserve: [],
    permit: [],
    preBind: [],
    bind: [defaultBinder(bindings)],
  };
}
