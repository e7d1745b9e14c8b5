// The root-CA publisher: every namespace has a `kube-root-ca.crt` ConfigMap holding the cluster CA
// (key `ca.crt`), which projected service-account volumes mount. A missing one is created; one whose
// data or description was changed is put back.
// Models k8s pkg/controller/certificates/rootcacertpublisher/publisher.go (namespaceAdded/Updated,
// configMapUpdated/Deleted, syncNamespace with the kubernetes.io/description annotation; one worker).

import { isStatusError } from '../../api/errors.ts';
import type { ConfigMap, Namespace } from '../../api/types/core.ts';
import { DeletedFinalStateUnknown, RateLimitingQueue, runWorkers, syncOrRequeue, type ResourceClient, type SharedIndexInformer } from '../../client/index.ts';
import type { Co } from '../../engine/index.ts';
import type { ControllerContext } from '../kube-controller-manager.ts';

export const rootCACertConfigMapName = 'kube-root-ca.crt';
export const rootCACertDescription = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal '
  + 'service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/**
 * The cluster CA (`--root-ca-file`): a self-signed CN=kubernetes certificate made once for Podflow
 * (RSA 2048, valid from 2023-08-14T23:55:00Z for ten years, like kubeadm's); its private key was not kept.
 */
export const clusterCACertificate = [
  '-----BEGIN CERTIFICATE-----',
  'MIIC5zCCAc+gAwIBAgIBATANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDDAprdWJl',
  'cm5ldGVzMB4XDTIzMDgxNDIzNTUwMFoXDTMzMDgxMTIzNTUwMFowFTETMBEGA1UE',
  'AwwKa3ViZXJuZXRlczCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAL+C',
  'XFtsOYv5cyuRQcKZgT5TEXPvBekBaDZ4FKJ3D9Z13Zz0mau+XJ8XB6ZlKthdyX4r',
  '+a8kXArDgbqzqo2mBpBDNlG/bnKW8cRPCk7aDKseYeZi5dpEC8l7rYIe/ggTGd25',
  'o2Imqo0mRJTpZKiNi+H5DL4QKIXyD8MbPFGbv+flwHDAMSW1pwaeHjw3shmnx1q/',
  'cK5P8KcNsFO2ni/tZPmLqX1EaNqpV+jB9uvsoal1mQQsMxTHn9zgT+B49/43cde7',
  'Ae06doNBoXCqGiqm6lZUnK5BYmOAzBCYeH6Qqr1i8kmrlcY4XSeNry7QgNjmJAlp',
  'yGggccmj+77Yb18t4gkCAwEAAaNCMEAwDgYDVR0PAQH/BAQDAgKkMA8GA1UdEwEB',
  '/wQFMAMBAf8wHQYDVR0OBBYEFCIrAY0ffFmOjuKlnuIHwAkINZi9MA0GCSqGSIb3',
  'DQEBCwUAA4IBAQCDpga7SPTQw3ErHFlvTu05AxMAVhD6u7Muewi9jAxk8QurhSHY',
  'VifInqaal3wtC8q3KHyoAhpt1V7eOjfATYi/QyPEbq5WL73xbLwyuxCYvw6He1Lu',
  'AcwZTB/9HhoS1A4xIMMnUlHXblhmnBgXI5wMBH8QcPTIKI3baJe5vxX5/nx2Z37k',
  'qnGiKgMSWQcSywYLOYbyaLCkkpQyoQnHhTkdNfHLzycEiA4Gl5rBX25gaJ7a1QqQ',
  'XHY+IJ1iH87E5cEbcf1mKAtJXKt64+SLoAjEiHA97+0BCUTPSOQEJHTBUMLufpjr',
  'Y2fYTlBSYqg5/gGHs17ocrGVRpk1r3hCxy2J',
  '-----END CERTIFICATE-----',
].join('\n') + '\n';

export class RootCACertPublisher {
  readonly nsInformer: SharedIndexInformer<Namespace>;
  readonly cmInformer: SharedIndexInformer<ConfigMap>;
  readonly queue: RateLimitingQueue;
  private readonly configMaps: ResourceClient<ConfigMap>;

  constructor(private readonly ctx: ControllerContext, private readonly rootCA: string = clusterCACertificate) {
    this.nsInformer = ctx.informers.informerFor<Namespace>('namespaces');
    this.cmInformer = ctx.informers.informerFor<ConfigMap>('configmaps');
    this.configMaps = ctx.client.resource<ConfigMap>('configmaps');
    this.queue = new RateLimitingQueue(ctx.host, 'root_ca_cert_publisher');
    this.nsInformer.addEventHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    this.cmInformer.addEventHandler({
      onUpdate: (_old, cm) => this.configMapChanged(cm),
      onDelete: (obj) => this.configMapChanged(obj instanceof DeletedFinalStateUnknown ? obj.obj : obj),
    });
  }

  run(workers: number): void {
    runWorkers(this.ctx.host, this.queue, workers, (ns) => syncOrRequeue(this.queue, ns, (n) => this.syncNamespace(n)));
  }

  private configMapChanged(cm: ConfigMap): void {
    if (cm.metadata.name === rootCACertConfigMapName) this.queue.add(cm.metadata.namespace ?? '');
  }

  private *syncNamespace(namespace: string): Co<void> {
    const ns = this.nsInformer.get('', namespace);
    if (!ns || ns.metadata.deletionTimestamp) return;
    const data = { 'ca.crt': this.rootCA };
    const cm = this.cmInformer.get(namespace, rootCACertConfigMapName);
    try {
      if (!cm) {
        yield* this.configMaps.create(namespace, {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: rootCACertConfigMapName, annotations: { 'kubernetes.io/description': rootCACertDescription } },
          data,
        });
        return;
      }
      const described = cm.metadata.annotations?.['kubernetes.io/description'] === rootCACertDescription;
      if (cm.data?.['ca.crt'] === this.rootCA && Object.keys(cm.data).length === 1 && described) return;
      yield* this.configMaps.update({
        ...cm, data,
        metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, 'kubernetes.io/description': rootCACertDescription } },
      });
    } catch (err) {
      // AlreadyExists or NotFound: the informer is behind; Forbidden: the namespace is terminating.
      if (!isStatusError(err) || ![403, 404, 409].includes(err.status.code ?? 0)) throw err;
    }
  }
}
