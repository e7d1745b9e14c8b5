// The Service REST's allocation around the generic store: before a Service is created its ClusterIP
// (the one asked for, or a random free one from the upper part of the range) and its NodePorts are taken
// from the bitmaps stored in etcd; if the create fails they are given back; after a delete they are
// released. ExternalName Services take nothing; headless ones (`clusterIP: None`) take no IP.
// Models k8s pkg/registry/core/service/storage/alloc.go (allocateCreate, initIPFamilyFields for a
// single-stack IPv4 cluster, allocClusterIPs, allocNodePorts, releaseAllocatedResources) and
// storage.go (beginCreate, afterDelete). Not modelled: dual stack, type changes on update that need a
// new allocation, healthCheckNodePort.

import { newInvalid } from '../api/errors.ts';
import { FieldPath, fieldError, goStringSlice, type FieldError } from '../api/field.ts';
import type { Service } from '../api/types/service.ts';
import type { Co } from '../engine/index.ts';
import type { RegistryContext, StoreHooks } from './registry/generic-store.ts';
import { serviceNodePortRange, type ClusterIPAllocator, type StoredRangeAllocator } from './service-allocators.ts';

export class ServiceAllocations {
  constructor(readonly ips: ClusterIPAllocator, readonly ports: StoredRangeAllocator) {}

  hooks(): StoreHooks {
    return {
      beginCreate: (ctx, obj) => this.beginCreate(ctx, obj as Service),
      afterDelete: (ctx, obj) => this.release(ctx, obj as Service),
    };
  }

  private *beginCreate(ctx: RegistryContext, svc: Service): Co<(stored: boolean) => Co<void>> {
    const taken: { ip?: number; ports: number[] } = { ports: [] };
    const rollback = function* (this: ServiceAllocations, stored: boolean): Co<void> {
      if (stored) return;
      if (taken.ip !== undefined) yield* this.releaseIP(taken.ip);
      for (const p of taken.ports) yield* this.releasePort(p);
    }.bind(this);
    if (ctx.dryRun) return rollback;
    const spec = svc.spec ?? (svc.spec = {});
    const type = spec.type ?? 'ClusterIP';
    const name = svc.metadata.name ?? '';
    const invalid = (errs: FieldError[]) => newInvalid({ group: '', kind: 'Service' }, name, errs);
    try {
      if (type !== 'ExternalName') {
        // initIPFamilyFields on a single-stack IPv4 cluster.
        spec.ipFamilyPolicy ??= 'SingleStack';
        if ((spec.ipFamilies ?? []).length === 0) spec.ipFamilies = ['IPv4'];
        if (spec.clusterIP === 'None' || spec.clusterIPs?.[0] === 'None') {
          spec.clusterIP = 'None';
          spec.clusterIPs = ['None'];
        } else {
          const asked = spec.clusterIP || spec.clusterIPs?.[0] || '';
          const offset = asked === '' ? null : this.ips.offsetOf(asked);
          const path = FieldPath.of('spec', 'clusterIPs');
          if (asked !== '' && offset === null) {
            throw invalid([fieldError.invalid(path, goStringSlice([asked]),
              `failed to allocate IP ${asked}: the provided IP (${asked}) is not in the valid range. The range of valid IPs is ${this.ips.cidr}`)]);
          }
          const got = offset === null
            ? yield* this.ips.store.update((b) => b.allocateNext(ctx.rng), (r) => r !== null)
            : ((yield* this.ips.store.update((b) => b.allocate(offset), (r) => r)) ? offset : null);
          if (got === null) {
            throw invalid([fieldError.invalid(path, goStringSlice(asked === '' ? [] : [asked]),
              asked === '' ? 'failed to allocate a serviceIP: range is full' : `failed to allocate IP ${asked}: provided IP is already allocated`)]);
          }
          taken.ip = got;
          const ip = this.ips.ipAt(got);
          spec.clusterIP = ip;
          spec.clusterIPs = [ip];
        }
      }
      if (type === 'NodePort' || type === 'LoadBalancer') {
        const { base, size } = serviceNodePortRange;
        const ports = spec.ports ?? [];
        for (let i = 0; i < ports.length; i++) {
          const port = ports[i]!;
          const path = FieldPath.of('spec', 'ports').index(i).child('nodePort');
          if (port.nodePort) {
            const off = port.nodePort - base;
            if (off < 0 || off >= size) {
              throw invalid([fieldError.invalid(path, port.nodePort,
                `provided port is not in the valid range. The range of valid ports is ${base}-${base + size - 1}`)]);
            }
            if (!(yield* this.ports.update((b) => b.allocate(off), (r) => r))) throw invalid([fieldError.invalid(path, port.nodePort, 'provided port is already allocated')]);
            taken.ports.push(off);
          } else {
            const off = yield* this.ports.update((b) => b.allocateNext(ctx.rng), (r) => r !== null);
            if (off === null) throw invalid([fieldError.invalid(path, 0, 'failed to allocate a nodePort: range is full')]);
            taken.ports.push(off);
            port.nodePort = base + off;
          }
        }
      }
    } catch (err) {
      yield* rollback(false);
      throw err;
    }
    return rollback;
  }

  private *releaseIP(offset: number): Co<void> {
    yield* this.ips.store.update((b) => {
      const had = b.has(offset);
      b.release(offset);
      return had;
    }, (had) => had);
  }

  private *releasePort(offset: number): Co<void> {
    yield* this.ports.update((b) => {
      const had = b.has(offset);
      b.release(offset);
      return had;
    }, (had) => had);
  }

  /** releaseAllocatedResources after a delete. */
  private *release(_ctx: RegistryContext, svc: Service): Co<void> {
    const spec = svc.spec ?? {};
    const ip = spec.clusterIPs?.[0] ?? spec.clusterIP;
    if (ip && ip !== 'None') {
      const off = this.ips.offsetOf(ip);
      if (off !== null) yield* this.releaseIP(off);
    }
    for (const port of spec.ports ?? []) {
      if (port.nodePort) yield* this.releasePort(port.nodePort - serviceNodePortRange.base);
    }
  }
}

