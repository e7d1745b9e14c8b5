// The model's etcd as a real etcd v3 endpoint (`npm run apiserver -- --etcd-listen=127.0.0.1:PORT`): a gRPC
// server with etcd 3.4.23's service definitions (protos/etcd-v3.4.23) in front of the simulated member, so
// real etcdctl 3.4 and any etcd client can put, get, txn, watch, lease and compact against it.
//
// Every KV, Lease, Watch and Maintenance.Status call enters the simulation as a request of the caller's
// connection (`etcd-client/<ip:port>`, etcd-client.ts) through the host, which paces and logs it like
// kubectl's requests; the reply (or etcd's error: the gRPC status code and message of rpctypes) goes back to
// the caller. Streams: each Watch call is one watch stream of the model (its requests enter one by one, its
// responses are written as delivered, the stream is closed in the model when the call ends); each
// LeaseKeepAlive request is one modelled keepalive and its reply one stream message.
//
// What is served outside the simulation, from the member's identity (the model has no membership, alarm or
// auth store): Cluster.MemberList (the one member), Maintenance.Alarm's list (none raised), and the Auth calls
// of a member whose auth is off (no users, no roles; `user get`, `role get` and `auth enable` fail as etcd's
// do; adding users and roles is not modelled). Maintenance.Status is a serializable Range of `health` in the
// model (as the console's `etcdctl endpoint status`); raft index and applied index print the store's
// revision and the DB size is the console's estimate of bbolt's file. Everything else answers Unimplemented.
// Watch requests with `fragment` are served whole (the model never splits a response).
// Models etcdserver/api/v3rpc (grpc.go, key.go, watch.go, lease.go, member.go, maintenance.go, auth.go).

import * as grpc from '@grpc/grpc-js';
import type { Message } from '../../sim/engine/index.ts';
import { etcdKinds, type EtcdReply, type WatchStreamResponse } from '../../sim/etcd/server.ts';
import type { RangeResponse } from '../../sim/etcd/rpc.ts';
import { estimatedDbSize } from '../../sim/etcd/maintenance.ts';
import type { EtcdRequestKind, MessageMap } from '../../sim/messages/index.ts';
import type { ClusterHost } from '../cluster-host.ts';
import * as convert from '../etcd-proto/convert.ts';
import { etcdClientName } from './etcd-client.ts';

/** etcdserver's version as `endpoint status` shows it. */
const etcdVersion = '3.4.23';

interface Services {
  readonly KV: grpc.ServiceDefinition;
  readonly Watch: grpc.ServiceDefinition;
  readonly Lease: grpc.ServiceDefinition;
  readonly Cluster: grpc.ServiceDefinition;
  readonly Maintenance: grpc.ServiceDefinition;
  readonly Auth: grpc.ServiceDefinition;
}

/** The etcd v3 services as grpc-js definitions (decoding options: see etcd-proto/convert.ts). */
export function loadServices(): Services {
  const pkg = grpc.loadPackageDefinition(convert.loadEtcdProtos())['etcdserverpb'] as unknown as Record<keyof Services, { service: grpc.ServiceDefinition }>;
  return {
    KV: pkg.KV.service, Watch: pkg.Watch.service, Lease: pkg.Lease.service, Cluster: pkg.Cluster.service,
    Maintenance: pkg.Maintenance.service, Auth: pkg.Auth.service,
  };
}

type Call = grpc.ServerUnaryCall<convert.Wire, convert.Wire>;
type Callback = grpc.sendUnaryData<convert.Wire>;
type Stream = grpc.ServerDuplexStream<convert.Wire, convert.Wire>;

/** The caller's `ip:port` (grpc-js prints IPv6 peers in brackets, as Go's net.JoinHostPort does). */
function peerOf(call: { getPeer(): string }): string {
  return call.getPeer().replace(/^ipv[46]:/, '');
}

/** A gRPC status error as etcd sends it. */
function status(code: grpc.status, details: string): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata: new grpc.Metadata() });
}

export interface EtcdEndpointOptions {
  readonly host: ClusterHost;
  /** `ip:port`; port 0 picks a free one. */
  readonly listen: string;
}

export interface RunningEtcdEndpoint {
  /** The address it listens on, `ip:port`. */
  readonly address: string;
  close(): Promise<void>;
}

export async function startEtcdEndpoint(options: EtcdEndpointOptions): Promise<RunningEtcdEndpoint> {
  const { host } = options;
  const services = loadServices();
  const server = new grpc.Server({ 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 });
  const etcd = host.modelEtcd;
  let streams = 0;
  const streamPrefix = `grpc-${Date.now().toString(36)}-`;

  /** A unary call: the request enters the simulation as `kind`; its reply answers the caller. */
  const unary = <K extends EtcdRequestKind, R>(kind: K, toModel: (w: convert.Wire) => MessageMap[K], toWire: (r: R) => convert.Wire) =>
    (call: Call, callback: Callback): void => {
      host.submitEtcd({ client: etcdClientName(peerOf(call)), kind, payload: toModel(call.request) }, (reply) => {
        const answer = reply.payload as EtcdReply<R>;
        if (answer.ok) callback(null, toWire(answer.response));
        else callback(status(answer.error.code, answer.error.message));
      });
    };

  const memberId = etcd.identity.memberId;
  const header = (): convert.Wire => convert.headerToWire({ clusterId: etcd.identity.clusterId, memberId, revision: etcd.store.currentRev, raftTerm: etcd.identity.raftTerm });
  let clientURL = '';

  server.addService(services.KV, {
    Range: unary(etcdKinds.range, convert.rangeRequestFromWire, convert.rangeResponseToWire),
    Put: unary(etcdKinds.put, convert.putRequestFromWire, convert.putResponseToWire),
    DeleteRange: unary(etcdKinds.deleteRange, convert.deleteRangeRequestFromWire, convert.deleteRangeResponseToWire),
    Txn: unary(etcdKinds.txn, convert.txnRequestFromWire, convert.txnResponseToWire),
    Compact: unary(etcdKinds.compact, convert.compactionRequestFromWire, convert.headerOnlyToWire),
  });

  server.addService(services.Lease, {
    LeaseGrant: unary(etcdKinds.leaseGrant, convert.leaseGrantRequestFromWire, convert.leaseGrantResponseToWire),
    LeaseRevoke: unary(etcdKinds.leaseRevoke, convert.leaseIdRequestFromWire, convert.headerOnlyToWire),
    LeaseTimeToLive: unary(etcdKinds.leaseTimeToLive, convert.leaseTimeToLiveRequestFromWire, convert.leaseTimeToLiveResponseToWire),
    LeaseLeases: unary(etcdKinds.leaseLeases, () => ({}), convert.leaseLeasesResponseToWire),
    LeaseKeepAlive: (call: Stream) => {
      const client = etcdClientName(peerOf(call));
      call.on('data', (w: convert.Wire) => {
        host.submitEtcd({ client, kind: etcdKinds.leaseKeepAlive, payload: convert.leaseIdRequestFromWire(w) }, (reply) => {
          const answer = reply.payload as EtcdReply<Parameters<typeof convert.leaseKeepAliveResponseToWire>[0]>;
          if (answer.ok && !call.cancelled) call.write(convert.leaseKeepAliveResponseToWire(answer.response));
        });
      });
      call.on('end', () => call.end());
      call.on('error', () => undefined);
    },
  });

  server.addService(services.Watch, {
    Watch: (call: Stream) => {
      const client = etcdClientName(peerOf(call));
      const stream = `${streamPrefix}${++streams}`;
      const stop = host.onDelivery((m: Message) => {
        if (m.to !== client || m.kind !== etcdKinds.watchResponse) return;
        const { stream: name, response } = m.payload as WatchStreamResponse;
        if (name === stream && !call.cancelled) call.write(convert.watchResponseToWire(response));
      });
      let closed = false;
      const close = (): void => {
        if (closed) return;
        closed = true;
        stop();
        host.submitEtcd({ client, kind: etcdKinds.watchClose, payload: { stream } }, null);
      };
      call.on('data', (w: convert.Wire) => {
        host.submitEtcd({ client, kind: etcdKinds.watch, payload: { stream, request: convert.watchRequestFromWire(w) } }, null);
      });
      call.on('end', () => {
        close();
        call.end();
      });
      call.on('cancelled', close);
      call.on('error', close);
      call.on('close', close);
    },
  });

  server.addService(services.Maintenance, {
    Status: (call: Call, callback: Callback) => {
      host.submitEtcd({ client: etcdClientName(peerOf(call)), kind: etcdKinds.range, payload: { key: 'health', serializable: true } }, (reply) => {
        const answer = reply.payload as EtcdReply<RangeResponse>;
        if (!answer.ok) return callback(status(answer.error.code, answer.error.message));
        const h = answer.response.header;
        // Sizes read without rebuilding superseded values (the backend keeps them as deltas).
        const dbSize = estimatedDbSize((f) => etcd.store.backend.sizes(f));
        callback(null, {
          header: convert.headerToWire(h), version: etcdVersion, dbSize, leader: h.memberId, raftIndex: h.revision, raftTerm: h.raftTerm,
          raftAppliedIndex: h.revision, errors: [], dbSizeInUse: dbSize, isLearner: false,
        });
      });
    },
    // A member with no alarms raised: `alarm list` is empty; raising one is not modelled.
    Alarm: (call: Call, callback: Callback) => {
      if (call.request['action'] !== 'GET') return callback(status(grpc.status.UNIMPLEMENTED, 'The server does not implement the method Alarm'));
      callback(null, { header: header(), alarms: [] });
    },
  });

  server.addService(services.Cluster, {
    MemberList: (_call: Call, callback: Callback) => {
      callback(null, {
        header: header(),
        members: [{ ID: memberId, name: 'default', peerURLs: ['http://localhost:2380'], clientURLs: [clientURL], isLearner: false }],
      });
    },
  });

  server.addService(services.Auth, {
    UserList: (_call: Call, callback: Callback) => callback(null, { header: header(), users: [] }),
    RoleList: (_call: Call, callback: Callback) => callback(null, { header: header(), roles: [] }),
    UserGet: (_call: Call, callback: Callback) => callback(status(grpc.status.FAILED_PRECONDITION, 'etcdserver: user name not found')),
    RoleGet: (_call: Call, callback: Callback) => callback(status(grpc.status.FAILED_PRECONDITION, 'etcdserver: role name not found')),
    AuthDisable: (_call: Call, callback: Callback) => callback(null, { header: header() }),
    AuthEnable: (_call: Call, callback: Callback) => callback(status(grpc.status.FAILED_PRECONDITION, 'etcdserver: root user does not exist')),
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(options.listen, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  const hostPart = options.listen.slice(0, options.listen.lastIndexOf(':'));
  const address = `${hostPart}:${port}`;
  clientURL = `http://${address}`;
  return {
    address,
    close: () => new Promise<void>((resolve) => {
      server.tryShutdown(() => resolve());
      // Open watch and keepalive streams would hold a graceful shutdown forever.
      setTimeout(() => server.forceShutdown(), 1000).unref();
    }),
  };
}
