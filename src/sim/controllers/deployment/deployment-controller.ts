// The deployment controller (in progress).

import type { ControllerContext } from '../kube-controller-manager.ts';

export class DeploymentController {
  constructor(readonly ctx: ControllerContext) {}

  run(_workers: number): void {}
}
