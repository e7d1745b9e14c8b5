// Authentication: who is asking. The simulated cluster has a fixed set of bearer tokens, one per
// identity the real control plane uses, plus a restricted user (`alice`, no bindings) for trying RBAC denials. A request with
// no token is `system:anonymous` (anonymous auth is on by default); an unknown token is 401.
// Impersonation (`kubectl --as`) happens after authentication and is itself authorized.
// Models k8s.io/apiserver/pkg/endpoints/filters/authentication.go and impersonation.go, with a
// static token authenticator (k8s.io/apiserver/pkg/authentication/token/tokenfile) over the cluster's
// credentials (src/sim/wire/credentials.ts).

import { builtinTokens } from '../../wire/credentials.ts';

export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

export const systemMasters = 'system:masters';
export const authenticatedGroup = 'system:authenticated';

export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

export const builtinUsers = {
  admin: { name: 'kubernetes-admin', groups: [systemMasters, authenticatedGroup] },
  /**
   * Deviation: the real kube-controller-manager runs each controller with its own service account's
   * token (--use-service-account-credentials, bound to the system:controller:* roles). The model's one
   * client stands for all of them, so it is in system:masters rather than switching identities.
   */
  controllerManager: { name: 'system:kube-controller-manager', groups: [systemMasters, authenticatedGroup] },
  scheduler: { name: 'system:kube-scheduler', groups: [authenticatedGroup] },
  /** A user with no roles of its own (system:basic-user, system:discovery and the public info only); scenarios bind it what they need. */
  restricted: { name: 'alice', groups: [authenticatedGroup] },
  kubelet: (node: string): UserInfo => ({ name: `system:node:${node}`, groups: ['system:nodes', authenticatedGroup] }),
} as const;

export class TokenAuthenticator {
  private readonly tokens = new Map<string, UserInfo>();

  constructor(nodes: readonly string[]) {
    this.tokens.set(builtinTokens.admin, builtinUsers.admin);
    this.tokens.set(builtinTokens.controllerManager, builtinUsers.controllerManager);
    this.tokens.set(builtinTokens.scheduler, builtinUsers.scheduler);
    this.tokens.set(builtinTokens.restricted, builtinUsers.restricted);
    for (const node of nodes) this.tokens.set(builtinTokens.kubelet(node), builtinUsers.kubelet(node));
  }

  /** The user, or null for a token nobody holds (the request then gets 401). */
  authenticate(authorization: string | undefined): UserInfo | null {
    if (authorization === undefined || authorization === '') return anonymousUser;
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match) return anonymousUser;
    return this.tokens.get(match[1]!) ?? null;
  }
}
