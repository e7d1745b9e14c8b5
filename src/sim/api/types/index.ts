// The object types of every served resource.
export type * from './apps.ts';
export type * from './autoscaling.ts';
export type * from './coordination.ts';
export type * from './core.ts';
export type * from './meta.ts';
export type * from './rbac.ts';
export type * from './service.ts';
export type * from './workloads.ts';
