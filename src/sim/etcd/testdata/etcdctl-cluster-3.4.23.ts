// Recorded from etcd 3.4.23 and etcdctl 3.4.23 (Debian), three members on loopback started by
// test/etcd/real-etcd-cluster.ts; after the put, members etcd-1 and etcd-2 were killed (SIGKILL).
// The transcript: each command, its exit status when not 0, its stdout and (when not empty) its stderr.

export const etcdctlClusterTranscript = `$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint status
OUT:
127.0.0.1:46339, 6236182d1270f2a9, 3.4.23, 20 kB, false, false, 2, 17, 17, 
127.0.0.1:44943, f877eb3ecd633bfc, 3.4.23, 20 kB, false, false, 2, 17, 17, 
127.0.0.1:43955, f398264aea98e364, 3.4.23, 20 kB, true, false, 2, 17, 17, 

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint status -w table
OUT:
+-----------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
|    ENDPOINT     |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |
+-----------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
| 127.0.0.1:46339 | 6236182d1270f2a9 |  3.4.23 |   20 kB |     false |      false |         2 |         17 |                 17 |        |
| 127.0.0.1:44943 | f877eb3ecd633bfc |  3.4.23 |   20 kB |     false |      false |         2 |         17 |                 17 |        |
| 127.0.0.1:43955 | f398264aea98e364 |  3.4.23 |   20 kB |      true |      false |         2 |         17 |                 17 |        |
+-----------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint status -w json
OUT:
[{"Endpoint":"127.0.0.1:46339","Status":{"header":{"cluster_id":1948581048772113625,"member_id":7076870446321300137,"revision":1,"raft_term":2},"version":"3.4.23","dbSize":20480,"leader":17552821650881831780,"raftIndex":17,"raftTerm":2,"raftAppliedIndex":17,"dbSizeInUse":16384}},{"Endpoint":"127.0.0.1:44943","Status":{"header":{"cluster_id":1948581048772113625,"member_id":17904037498601028604,"revision":1,"raft_term":2},"version":"3.4.23","dbSize":20480,"leader":17552821650881831780,"raftIndex":17,"raftTerm":2,"raftAppliedIndex":17,"dbSizeInUse":16384}},{"Endpoint":"127.0.0.1:43955","Status":{"header":{"cluster_id":1948581048772113625,"member_id":17552821650881831780,"revision":1,"raft_term":2},"version":"3.4.23","dbSize":20480,"leader":17552821650881831780,"raftIndex":17,"raftTerm":2,"raftAppliedIndex":17,"dbSizeInUse":16384}}]

$ etcdctl --endpoints 127.0.0.1:46339 endpoint status --cluster -w table
OUT:
+------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
|        ENDPOINT        |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS |
+------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+
| http://127.0.0.1:46339 | 6236182d1270f2a9 |  3.4.23 |   20 kB |     false |      false |         2 |         17 |                 17 |        |
| http://127.0.0.1:43955 | f398264aea98e364 |  3.4.23 |   20 kB |      true |      false |         2 |         17 |                 17 |        |
| http://127.0.0.1:44943 | f877eb3ecd633bfc |  3.4.23 |   20 kB |     false |      false |         2 |         17 |                 17 |        |
+------------------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+--------+

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint health
OUT:

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint health -w table
OUT:
+-----------------+--------+------------+-------+
|    ENDPOINT     | HEALTH |    TOOK    | ERROR |
+-----------------+--------+------------+-------+
| 127.0.0.1:43955 |   true | 4.216859ms |       |
| 127.0.0.1:46339 |   true | 5.235909ms |       |
| 127.0.0.1:44943 |   true | 5.342089ms |       |
+-----------------+--------+------------+-------+

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint health -w json
OUT:
[{"endpoint":"127.0.0.1:43955","health":true,"took":"2.294763ms"},{"endpoint":"127.0.0.1:46339","health":true,"took":"3.348871ms"},{"endpoint":"127.0.0.1:44943","health":true,"took":"4.082997ms"}]

$ etcdctl --endpoints 127.0.0.1:46339 endpoint health --cluster
OUT:

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 member list
OUT:
6236182d1270f2a9, started, etcd-1, http://127.0.0.1:38039, http://127.0.0.1:46339, false
f398264aea98e364, started, etcd-3, http://127.0.0.1:34915, http://127.0.0.1:43955, false
f877eb3ecd633bfc, started, etcd-2, http://127.0.0.1:38457, http://127.0.0.1:44943, false

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 member list -w table
OUT:
+------------------+---------+--------+------------------------+------------------------+------------+
|        ID        | STATUS  |  NAME  |       PEER ADDRS       |      CLIENT ADDRS      | IS LEARNER |
+------------------+---------+--------+------------------------+------------------------+------------+
| 6236182d1270f2a9 | started | etcd-1 | http://127.0.0.1:38039 | http://127.0.0.1:46339 |      false |
| f398264aea98e364 | started | etcd-3 | http://127.0.0.1:34915 | http://127.0.0.1:43955 |      false |
| f877eb3ecd633bfc | started | etcd-2 | http://127.0.0.1:38457 | http://127.0.0.1:44943 |      false |
+------------------+---------+--------+------------------------+------------------------+------------+

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 member list -w json
OUT:
{"header":{"cluster_id":1948581048772113625,"member_id":17904037498601028604,"raft_term":2},"members":[{"ID":7076870446321300137,"name":"etcd-1","peerURLs":["http://127.0.0.1:38039"],"clientURLs":["http://127.0.0.1:46339"]},{"ID":17552821650881831780,"name":"etcd-3","peerURLs":["http://127.0.0.1:34915"],"clientURLs":["http://127.0.0.1:43955"]},{"ID":17904037498601028604,"name":"etcd-2","peerURLs":["http://127.0.0.1:38457"],"clientURLs":["http://127.0.0.1:44943"]}]}

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 put a b -w json
OUT:
{"header":{"cluster_id":1948581048772113625,"member_id":17552821650881831780,"revision":2,"raft_term":2}}

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint status
EXIT 1
OUT:
127.0.0.1:43955, f398264aea98e364, 3.4.23, 20 kB, false, false, 2, 18, 18, etcdserver: no leader

ERR:
{"level":"warn","ts":"2026-11-28T09:59:52.221Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:46339","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:46339: connect: connection refused\\""}
Failed to get the status of endpoint 127.0.0.1:46339 (context deadline exceeded)
{"level":"warn","ts":"2026-11-28T09:59:57.223Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:44943","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:44943: connect: connection refused\\""}
Failed to get the status of endpoint 127.0.0.1:44943 (context deadline exceeded)

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint status -w table
EXIT 1
OUT:
+-----------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+-----------------------+
|    ENDPOINT     |        ID        | VERSION | DB SIZE | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX |        ERRORS         |
+-----------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+-----------------------+
| 127.0.0.1:43955 | f398264aea98e364 |  3.4.23 |   20 kB |     false |      false |         2 |         18 |                 18 | etcdserver: no leader |
+-----------------+------------------+---------+---------+-----------+------------+-----------+------------+--------------------+-----------------------+

ERR:
{"level":"warn","ts":"2026-11-28T10:00:02.243Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:46339","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:46339: connect: connection refused\\""}
Failed to get the status of endpoint 127.0.0.1:46339 (context deadline exceeded)
{"level":"warn","ts":"2026-11-28T10:00:07.244Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:44943","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:44943: connect: connection refused\\""}
Failed to get the status of endpoint 127.0.0.1:44943 (context deadline exceeded)

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint status -w json
EXIT 1
OUT:
[{"Endpoint":"127.0.0.1:43955","Status":{"header":{"cluster_id":1948581048772113625,"member_id":17552821650881831780,"revision":2,"raft_term":2},"version":"3.4.23","dbSize":20480,"raftIndex":18,"raftTerm":2,"raftAppliedIndex":18,"errors":["etcdserver: no leader"],"dbSizeInUse":16384}}]

ERR:
{"level":"warn","ts":"2026-11-28T10:00:12.267Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:46339","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:46339: connect: connection refused\\""}
Failed to get the status of endpoint 127.0.0.1:46339 (context deadline exceeded)
{"level":"warn","ts":"2026-11-28T10:00:17.272Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"passthrough:///127.0.0.1:44943","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"transport: Error while dialing dial tcp 127.0.0.1:44943: connect: connection refused\\""}
Failed to get the status of endpoint 127.0.0.1:44943 (context deadline exceeded)

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint health
EXIT 1
OUT:

ERR:
{"level":"warn","ts":"2026-11-28T10:00:22.292Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-b0dbe957-aeaa-4b83-92d9-2c072f9c2a27/127.0.0.1:43955","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}
{"level":"warn","ts":"2026-11-28T10:00:22.292Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-2eb73510-ecb6-4ada-88af-1550fbd0b5f8/127.0.0.1:44943","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure"}
{"level":"warn","ts":"2026-11-28T10:00:22.294Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-2cc3dee2-95ae-4724-9234-47e057b65335/127.0.0.1:46339","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure"}
127.0.0.1:43955 is unhealthy: failed to commit proposal: context deadline exceeded
127.0.0.1:44943 is unhealthy: failed to commit proposal: context deadline exceeded
127.0.0.1:46339 is unhealthy: failed to commit proposal: context deadline exceeded
Error: unhealthy cluster

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint health -w table
EXIT 1
OUT:
+-----------------+--------+--------------+--------------------------------+
|    ENDPOINT     | HEALTH |     TOOK     |             ERROR              |
+-----------------+--------+--------------+--------------------------------+
| 127.0.0.1:44943 |  false | 5.000621711s |      context deadline exceeded |
| 127.0.0.1:46339 |  false | 5.000772122s |      context deadline exceeded |
| 127.0.0.1:43955 |  false | 5.000885636s | rpc error: code = Unknown desc |
|                 |        |              |    = context deadline exceeded |
+-----------------+--------+--------------+--------------------------------+

ERR:
{"level":"warn","ts":"2026-11-28T10:00:27.315Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-4fd537f5-e865-4303-82bc-8bb97e9ac790/127.0.0.1:44943","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure"}
{"level":"warn","ts":"2026-11-28T10:00:27.315Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-6c4ef87e-a778-464b-90ec-a4b7ab1f3afd/127.0.0.1:46339","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure"}
{"level":"warn","ts":"2026-11-28T10:00:27.316Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-736bd434-9dcf-4ea4-b9c8-709bbfc4b181/127.0.0.1:43955","attempt":0,"error":"rpc error: code = Unknown desc = context deadline exceeded"}
Error: unhealthy cluster

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 endpoint health -w json
EXIT 1
OUT:
[{"endpoint":"127.0.0.1:43955","health":false,"took":"5.000265051s","error":"context deadline exceeded"},{"endpoint":"127.0.0.1:44943","health":false,"took":"5.000322028s","error":"context deadline exceeded"},{"endpoint":"127.0.0.1:46339","health":false,"took":"5.000330104s","error":"context deadline exceeded"}]

ERR:
{"level":"warn","ts":"2026-11-28T10:00:32.336Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-f363f621-30b8-42d0-b64c-4b4dff78a693/127.0.0.1:43955","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}
{"level":"warn","ts":"2026-11-28T10:00:32.337Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-905e7385-c6d7-4185-bedf-470db5316cd3/127.0.0.1:44943","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure"}
{"level":"warn","ts":"2026-11-28T10:00:32.337Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-d5c9475f-527a-40d6-93fe-e18fd72a87f3/127.0.0.1:46339","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: all SubConns are in TransientFailure"}
Error: unhealthy cluster

$ etcdctl --endpoints 127.0.0.1:46339,127.0.0.1:44943,127.0.0.1:43955 member list -w table
OUT:
+------------------+---------+--------+------------------------+------------------------+------------+
|        ID        | STATUS  |  NAME  |       PEER ADDRS       |      CLIENT ADDRS      | IS LEARNER |
+------------------+---------+--------+------------------------+------------------------+------------+
| 6236182d1270f2a9 | started | etcd-1 | http://127.0.0.1:38039 | http://127.0.0.1:46339 |      false |
| f398264aea98e364 | started | etcd-3 | http://127.0.0.1:34915 | http://127.0.0.1:43955 |      false |
| f877eb3ecd633bfc | started | etcd-2 | http://127.0.0.1:38457 | http://127.0.0.1:44943 |      false |
+------------------+---------+--------+------------------------+------------------------+------------+

$ etcdctl --endpoints 127.0.0.1:43955 --command-timeout 3s put x y
EXIT 1
OUT:

ERR:
{"level":"warn","ts":"2026-11-28T10:00:35.372Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-aa376b0b-5d57-4f04-ba5a-1d229496bd81/127.0.0.1:43955","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}
Error: context deadline exceeded

$ etcdctl --endpoints 127.0.0.1:43955 --command-timeout 3s get x
EXIT 1
OUT:

ERR:
{"level":"warn","ts":"2026-11-28T10:00:38.393Z","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed","target":"endpoint://client-284e0582-b9a5-451f-8f2a-801bef5c00ee/127.0.0.1:43955","attempt":0,"error":"rpc error: code = DeadlineExceeded desc = context deadline exceeded"}
Error: context deadline exceeded

$ etcdctl --endpoints 127.0.0.1:43955 get x --consistency s -w json
OUT:
{"header":{"cluster_id":1948581048772113625,"member_id":17552821650881831780,"revision":2,"raft_term":2}}

`;
