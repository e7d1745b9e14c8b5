// The client library (client-go analogue) for components that talk to kube-apiserver.

export { ClientComponent, type ClientHost, type TimerHandle } from './client-component.ts';
export { apiserverName, errorFromResponse, ResourceClient, RestClient } from './rest-client.ts';
export { Indexer, metaNamespaceKey, namespaceIndex, splitMetaNamespaceKey } from './store.ts';
export { DeletedFinalStateUnknown, SharedIndexInformer } from './shared-informer.ts';
export { controllerManagerResyncPeriod, SharedInformerFactory } from './shared-informer-factory.ts';
export { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from './rate-limiter.ts';
export { RateLimitingQueue, runWorkers, syncOrRequeue } from './workqueue.ts';
export { EventBroadcaster, EventRecorder } from './event-recorder.ts';
export { podType, typed, type Typed } from './object-reference.ts';
export { LeaderElector } from './leader-election.ts';
