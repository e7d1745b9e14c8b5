// Container validation: names, images, ports, env, volume mounts, pull policy, resources, probes and
// lifecycle handlers of a pod's containers and init containers, with upstream's texts.
// Models validateContainers, validateInitContainers, validateContainerCommon, validateProbe and
// ValidateResourceRequirements in k8s pkg/apis/core/validation/validation.go.

import { fieldError, type FieldError, type FieldPath } from '../field.ts';
import { compareQuantities, parseQuantity, quantityMilliValue, quantityString, type Quantity } from '../quantity.ts';
import type { Container, IntOrString, Probe, ResourceRequirements } from '../types/index.ts';
import { isEnvVarName, isNegativeErrorMsg, isValidPortName, isValidPortNum, validateDNS1123Label, validateNonnegativeField } from './names.ts';

function validateContainerPorts(c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (c.ports ?? []).forEach((port, i) => {
    const idx = path.index(i);
    if (port.name) {
      const msgs = isValidPortName(port.name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(fieldError.invalid(idx.child('name'), port.name, msg));
      else if (names.has(port.name)) errs.push(fieldError.duplicate(idx.child('name'), port.name));
      else names.add(port.name);
    }
    if (!port.containerPort) errs.push(fieldError.required(idx.child('containerPort')));
    else for (const msg of isValidPortNum(port.containerPort)) errs.push(fieldError.invalid(idx.child('containerPort'), port.containerPort, msg));
    if (port.hostPort) for (const msg of isValidPortNum(port.hostPort)) errs.push(fieldError.invalid(idx.child('hostPort'), port.hostPort, msg));
    if (!port.protocol) errs.push(fieldError.required(idx.child('protocol')));
    else if (!['SCTP', 'TCP', 'UDP'].includes(port.protocol)) errs.push(fieldError.notSupported(idx.child('protocol'), port.protocol, ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

function validateEnv(c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (c.env ?? []).forEach((ev, i) => {
    const idx = path.index(i);
    if (!ev.name) errs.push(fieldError.required(idx.child('name')));
    else for (const msg of isEnvVarName(ev.name)) errs.push(fieldError.invalid(idx.child('name'), ev.name, msg));
  });
  return errs;
}

function validateVolumeMounts(c: Container, volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const idx = path.index(i);
    if (!m.name) errs.push(fieldError.required(idx.child('name')));
    if (!volumes.has(m.name)) errs.push(fieldError.notFound(idx.child('name'), m.name));
    if (!m.mountPath) errs.push(fieldError.required(idx.child('mountPath')));
    if (mountPoints.has(m.mountPath)) errs.push(fieldError.invalid(idx.child('mountPath'), m.mountPath, 'must be unique'));
    mountPoints.add(m.mountPath);
  });
  return errs;
}

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

function validateResourceName(name: string, path: FieldPath): FieldError[] {
  if (!name.includes('/')) {
    return standardContainerResources.has(name) || name.startsWith('hugepages-') ? [] : [fieldError.invalid(path, name, 'must be a standard resource for containers')];
  }
  if (!isNativeResource(name) && name.startsWith('requests.')) return [fieldError.invalid(path, name, "doesn't follow extended resource name standard")];
  return [];
}

function validateResourceQuantity(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.unscaled < 0n) errs.push(fieldError.invalid(path, quantityString(q), isNegativeErrorMsg));
  if (!isNativeResource(name) && quantityMilliValue(q) % 1000n !== 0n) errs.push(fieldError.invalid(path, quantityString(q), 'must be an integer'));
  return errs;
}

/** ValidateResourceRequirements: known names, non-negative quantities, requests ≤ limits. */
function validateResources(r: ResourceRequirements | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const limits = new Map<string, Quantity>();
  for (const [name, text] of Object.entries(r?.limits ?? {})) {
    const p = path.child('limits').key(name);
    errs.push(...validateResourceName(name, p));
    const q = parseQuantity(text);
    if (q.ok) {
      limits.set(name, q.value);
      errs.push(...validateResourceQuantity(name, q.value, p));
    }
  }
  for (const [name, text] of Object.entries(r?.requests ?? {})) {
    const p = path.child('requests').key(name);
    errs.push(...validateResourceName(name, p));
    const q = parseQuantity(text);
    if (!q.ok) continue;
    errs.push(...validateResourceQuantity(name, q.value, p));
    const limit = limits.get(name);
    const overcommit = isNativeResource(name) && !name.startsWith('hugepages-');
    if (limit !== undefined) {
      const cmp = compareQuantities(q.value, limit);
      if (cmp !== 0 && !overcommit) {
        errs.push(fieldError.invalid(path.child('requests'), quantityString(q.value), `must be equal to ${name} limit of ${quantityString(limit)}`));
      } else if (cmp > 0) {
        errs.push(fieldError.invalid(path.child('requests'), quantityString(q.value), `must be less than or equal to ${name} limit of ${quantityString(limit)}`));
      }
    } else if (!overcommit) {
      errs.push(fieldError.required(path.child('limits'), 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

function validatePortNumOrName(port: IntOrString, path: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((msg) => fieldError.invalid(path, port, msg));
  return isValidPortName(port).map((msg) => fieldError.invalid(path, port, msg));
}

function validateProbe(probe: Probe, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let handlers = 0;
  const handler = (name: 'exec' | 'httpGet' | 'tcpSocket' | 'grpc', check: () => FieldError[]): void => {
    if (probe[name] === undefined) return;
    if (handlers > 0) errs.push(fieldError.forbidden(path.child(name), 'may not specify more than 1 handler type'));
    else {
      handlers++;
      errs.push(...check());
    }
  };
  handler('exec', () => ((probe.exec?.command ?? []).length === 0 ? [fieldError.required(path.child('exec', 'command'))] : []));
  handler('httpGet', () => {
    const h = probe.httpGet!;
    const e: FieldError[] = [];
    if (!h.path) e.push(fieldError.required(path.child('httpGet', 'path')));
    e.push(...validatePortNumOrName(h.port, path.child('httpGet', 'port')));
    if (h.scheme !== 'HTTP' && h.scheme !== 'HTTPS') e.push(fieldError.notSupported(path.child('httpGet', 'scheme'), h.scheme ?? '', ['HTTP', 'HTTPS']));
    return e;
  });
  handler('tcpSocket', () => validatePortNumOrName(probe.tcpSocket!.port, path.child('tcpSocket', 'port')));
  handler('grpc', () => validatePortNumOrName(probe.grpc!.port, path.child('grpc', 'port')));
  if (handlers === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegativeField(probe[f], path.child(f)));
  }
  if (probe.terminationGracePeriodSeconds !== undefined && probe.terminationGracePeriodSeconds <= 0) {
    errs.push(fieldError.invalid(path.child('terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  return errs;
}

function validateProbes(c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (c.livenessProbe !== undefined) {
    errs.push(...validateProbe(c.livenessProbe, path.child('livenessProbe')));
    if ((c.livenessProbe.successThreshold ?? 0) !== 1) errs.push(fieldError.invalid(path.child('livenessProbe', 'successThreshold'), c.livenessProbe.successThreshold ?? 0, 'must be 1'));
  }
  if (c.readinessProbe !== undefined) {
    errs.push(...validateProbe(c.readinessProbe, path.child('readinessProbe')));
    if (c.readinessProbe.terminationGracePeriodSeconds !== undefined) {
      errs.push(fieldError.invalid(path.child('readinessProbe', 'terminationGracePeriodSeconds'), c.readinessProbe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    }
  }
  if (c.startupProbe !== undefined) {
    errs.push(...validateProbe(c.startupProbe, path.child('startupProbe')));
    if ((c.startupProbe.successThreshold ?? 0) !== 1) errs.push(fieldError.invalid(path.child('startupProbe', 'successThreshold'), c.startupProbe.successThreshold ?? 0, 'must be 1'));
  }
  return errs;
}

/** validateContainerCommon: what every container must satisfy. */
function validateContainerCommon(c: Container, volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(fieldError.required(path.child('name')));
  else errs.push(...validateDNS1123Label(c.name, path.child('name')));
  if (!c.image) errs.push(fieldError.required(path.child('image')));
  switch (c.terminationMessagePolicy) {
    case 'File': case 'FallbackToLogsOnError': break;
    case undefined: case '' as never: errs.push(fieldError.required(path.child('terminationMessagePolicy'))); break;
    default: errs.push(fieldError.notSupported(path.child('terminationMessagePolicy'), c.terminationMessagePolicy, ['File', 'FallbackToLogsOnError']));
  }
  errs.push(...validateContainerPorts(c, path.child('ports')));
  errs.push(...validateEnv(c, path.child('env')));
  errs.push(...validateVolumeMounts(c, volumes, path.child('volumeMounts')));
  switch (c.imagePullPolicy) {
    case 'Always': case 'IfNotPresent': case 'Never': break;
    case undefined: case '' as never: errs.push(fieldError.required(path.child('imagePullPolicy'))); break;
    default: errs.push(fieldError.notSupported(path.child('imagePullPolicy'), c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
  }
  errs.push(...validateResources(c.resources, path.child('resources')));
  return errs;
}

/** Host ports must be unique per protocol and host IP (`TCP//8080`). */
function checkHostPortConflicts(containers: readonly Container[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => (c.ports ?? []).forEach((p, pi) => {
    if (!p.hostPort) return;
    const key = `${p.protocol ?? ''}/${p.hostIP ?? ''}/${p.hostPort}`;
    if (seen.has(key)) errs.push(fieldError.duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
    else seen.add(key);
  }));
  return errs;
}

export function validateContainers(containers: readonly Container[] | undefined, volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  if (containers === undefined || containers.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const idx = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, idx));
    if (names.has(c.name)) errs.push(fieldError.duplicate(idx.child('name'), c.name));
    else names.add(c.name);
    errs.push(...validateProbes(c, idx));
    if (c.restartPolicy !== undefined) errs.push(fieldError.forbidden(idx.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

export function validateInitContainers(init: readonly Container[] | undefined, regular: readonly Container[] | undefined, volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((regular ?? []).map((c) => c.name));
  (init ?? []).forEach((c, i) => {
    const idx = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, idx));
    const restartAlways = c.restartPolicy === 'Always';
    if (c.restartPolicy !== undefined && !restartAlways) errs.push(fieldError.notSupported(idx.child('restartPolicy'), c.restartPolicy, ['Always']));
    if (names.has(c.name)) errs.push(fieldError.duplicate(idx.child('name'), c.name));
    else if (c.name) names.add(c.name);
    errs.push(...checkHostPortConflicts([c], path));
    if (restartAlways) {
      errs.push(...validateProbes(c, idx));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[f] !== undefined) errs.push(fieldError.forbidden(idx.child(f), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}
