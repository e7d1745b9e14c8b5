// Validation of Services, Endpoints, EndpointSlices and PriorityClasses: the rules a learner meets first
// (names, ports, types, NodePort on a ClusterIP Service, clusterIP immutable once set).
// Models k8s pkg/apis/core/validation/validation.go (ValidateService, validateServicePort,
// ValidateServiceUpdate, validateServiceClusterIPsRelatedFields, ValidateEndpoints),
// pkg/apis/discovery/validation/validation.go (ValidateEndpointSlice) and
// pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass). Not every rule is modelled:
// dual-stack families, load-balancer source ranges and topology hints are accepted as given.

import { FieldPath, fieldError, goStringSlice, type FieldError } from '../field.ts';
import type { Endpoints, EndpointSlice, PriorityClass, Service } from '../types/index.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './meta.ts';
import { isValidIP, isValidPortNum, nameIsDNS1035Label, nameIsDNSSubdomain } from './names.ts';

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const protocols = ['SCTP', 'TCP', 'UDP'];

export function validateService(svc: Service): FieldError[] {
  const errs = validateObjectMeta(svc.metadata, true, nameIsDNS1035Label);
  const spec = svc.spec ?? {};
  const specPath = FieldPath.of('spec');
  const type = spec.type ?? 'ClusterIP';
  if (!serviceTypes.includes(type)) errs.push(fieldError.notSupported(specPath.child('type'), type, serviceTypes));
  const headless = spec.clusterIP === 'None';
  const ports = spec.ports ?? [];
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(fieldError.required(specPath.child('ports')));
  const seen = new Set<string>();
  ports.forEach((port, i) => {
    const p = specPath.child('ports').index(i);
    if (ports.length > 1 && !port.name) errs.push(fieldError.required(p.child('name')));
    else if (port.name) {
      if (seen.has(port.name)) errs.push(fieldError.duplicate(p.child('name'), port.name));
      seen.add(port.name);
    }
    for (const msg of isValidPortNum(port.port)) errs.push(fieldError.invalid(p.child('port'), port.port, msg));
    if (port.protocol !== undefined && !protocols.includes(port.protocol)) errs.push(fieldError.notSupported(p.child('protocol'), port.protocol, protocols));
    if (typeof port.targetPort === 'number' && port.targetPort !== 0) {
      for (const msg of isValidPortNum(port.targetPort)) errs.push(fieldError.invalid(p.child('targetPort'), port.targetPort, msg));
    }
    if (type === 'ClusterIP' && (port.nodePort ?? 0) !== 0) errs.push(fieldError.forbidden(p.child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
  });
  if (spec.clusterIP !== undefined && spec.clusterIP !== '' && spec.clusterIP !== 'None') {
    for (const msg of isValidIP(spec.clusterIP)) errs.push(fieldError.invalid(specPath.child('clusterIPs').index(0), spec.clusterIP, msg));
  }
  if (type === 'ExternalName' && !spec.externalName) errs.push(fieldError.required(specPath.child('externalName')));
  return errs;
}

export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  const oldIPs = old.spec?.clusterIPs ?? [];
  const newIPs = svc.spec?.clusterIPs ?? [];
  // validateServiceClusterIPsRelatedFields: the primary ClusterIP may not change once set (unless the type moves to ExternalName).
  if ((svc.spec?.type ?? 'ClusterIP') !== 'ExternalName' && oldIPs.length > 0 && newIPs[0] !== oldIPs[0]) {
    errs.push(fieldError.invalid(FieldPath.of('spec', 'clusterIPs').index(0), goStringSlice(newIPs), 'may not change once set'));
  }
  return [...errs, ...validateService(svc)];
}

export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs = validateObjectMeta(ep.metadata, true, nameIsDNSSubdomain);
  (ep.subsets ?? []).forEach((ss, i) => {
    const p = FieldPath.of('subsets').index(i);
    (ss.addresses ?? []).forEach((a, j) => {
      for (const msg of isValidIP(a.ip)) errs.push(fieldError.invalid(p.child('addresses').index(j).child('ip'), a.ip, msg));
    });
    (ss.ports ?? []).forEach((port, j) => {
      for (const msg of isValidPortNum(port.port)) errs.push(fieldError.invalid(p.child('ports').index(j).child('port'), port.port, msg));
    });
  });
  return errs;
}

export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs = validateObjectMeta(slice.metadata, true, nameIsDNSSubdomain);
  const types = ['FQDN', 'IPv4', 'IPv6'];
  if (!types.includes(slice.addressType)) errs.push(fieldError.notSupported(FieldPath.of('addressType'), slice.addressType, types));
  return errs;
}

export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs = validateObjectMeta(pc.metadata, false, nameIsDNSSubdomain);
  const name = pc.metadata.name ?? '';
  if (name.startsWith('system-') && !['system-cluster-critical', 'system-node-critical'].includes(name)) {
    errs.push(fieldError.forbidden(FieldPath.of('metadata', 'name'), 'priority class names with \'system-\' prefix are reserved for system use only'));
  }
  if (pc.value > 1_000_000_000 && !name.startsWith('system-')) {
    errs.push(fieldError.forbidden(FieldPath.of('value'), 'maximum allowed value of a user defined priority is 1000000000'));
  }
  return errs;
}

export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs = validateObjectMetaUpdate(pc.metadata, old.metadata);
  if (pc.value !== old.value) errs.push(fieldError.forbidden(FieldPath.of('value'), 'may not be changed in an update.'));
  return errs;
}
