// The client library (client-go analogue) for components that talk to kube-apiserver.

export { ClientComponent, type ClientHost, type TimerHandle, type WatchSink } from './client-component.ts';
export { ExponentialBackoffManager, reflectorBackoff, type BackoffParameters } from './backoff.ts';
export {
  apiserverName, clientVersion, defaultUserAgent, encodeListOptions, errorFromResponse, ResourceClient, RestClient,
  type DeleteOptions, type ListOptions, type PatchType, type Watch, type WriteOptions,
} from './rest-client.ts';
export { Indexer, metaNamespaceIndexFunc, metaNamespaceKey, namespaceIndex, splitMetaNamespaceKey, type IndexFunc } from './store.ts';
export {
  defaultPageSize, isExpiredError, isTooLargeResourceVersionError, minWatchTimeout, Reflector,
  type ReflectorOptions, type ReflectorStore,
} from './reflector.ts';
export { DeletedFinalStateUnknown, SharedIndexInformer, type ResourceEventHandler } from './shared-informer.ts';
export {
  controllerManagerResyncPeriod, SharedInformerFactory, type InformerSelectors, type SharedInformerFactoryOptions,
} from './shared-informer-factory.ts';
export {
  BucketRateLimiter, defaultControllerRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, type RateLimiter,
} from './rate-limiter.ts';
export { RateLimitingQueue, runWorkers } from './workqueue.ts';
export {
  EventBroadcaster, EventCorrelator, eventCorrelation, eventName, EventRecorder, getReference,
  type CorrelateResult, type EventSource, type EventType,
} from './event-recorder.ts';
export { LeaderElector, leaderElectionDefaults, type LeaderElectionConfig } from './leader-election.ts';
