import { describe, expect, it } from 'vitest';
import { complete } from './complete.ts';

const keys = [
  '/registry/deployments/default/nginx-deployment',
  '/registry/pods/default/nginx-deployment-7c5ddbdf54-abcde',
  '/registry/pods/default/nginx-deployment-7c5ddbdf54-fghij',
  '/registry/pods/kube-system/coredns-1',
  '/registry/minions/node-1',
];

describe('console completion', () => {
  it('completes the tool, the verb and the resource type', () => {
    expect(complete('kub', keys).line).toBe('kubectl ');
    expect(complete('kubectl desc', keys).line).toBe('kubectl describe ');
    expect(complete('kubectl get depl', keys).line).toBe('kubectl get deploy');
    expect(complete('kubectl get replicas', keys).line).toBe('kubectl get replicaset');
    expect(complete('kubectl rollout st', keys).line).toBe('kubectl rollout status ');
  });

  it('completes names of existing objects in the namespace, listing them when ambiguous', () => {
    expect(complete('kubectl get deploy ng', keys).line).toBe('kubectl get deploy nginx-deployment ');
    expect(complete('kubectl describe po ng', keys)).toEqual({
      line: 'kubectl describe po nginx-deployment-7c5ddbdf54-',
      candidates: ['nginx-deployment-7c5ddbdf54-abcde', 'nginx-deployment-7c5ddbdf54-fghij'],
    });
    expect(complete('kubectl get po -n kube-system c', keys).line).toBe('kubectl get po -n kube-system coredns-1 ');
    expect(complete('kubectl set image deployment/ng', keys).line).toBe('kubectl set image deployment/nginx-deployment ');
    expect(complete('kubectl get no n', keys).line).toBe('kubectl get no node-1 ');
  });

  it('completes the files -f can read', () => {
    const files = ['nginx.yml', 'replicaset.yaml', 'user-service.yaml', 'user-service-deployment.yaml'];
    expect(complete('kubectl create -f rep', keys, files).line).toBe('kubectl create -f replicaset.yaml ');
    expect(complete('kubectl apply --filename user', keys, files)).toEqual({ line: 'kubectl apply --filename user-service', candidates: ['user-service-deployment.yaml', 'user-service.yaml'] });
    expect(complete('kubectl create -f rep', keys).candidates).toEqual([]);
  });

  it('completes etcd key prefixes for etcdctl', () => {
    expect(complete('etcdctl get /registry/depl', keys).line).toBe('etcdctl get /registry/deployments/');
  });
});
