// The API object layer: the vocabulary every simulated component shares. Object types, the resource
// table and discovery, request routing, Status errors, names, quantities, defaulting, validation,
// selectors, timestamps. It depends on nothing but the engine's time and RNG types.

export type * from './types/index.ts';
export * from './decode.ts';
export * from './defaults.ts';
export * from './discovery.ts';
export * from './duration.ts';
export * from './errors.ts';
export * from './field.ts';
export * from './fields.ts';
export * from './gvk.ts';
export * from './image.ts';
export * from './json-patch.ts';
export * from './labels.ts';
export * from './manifest.ts';
export * from './merge-patch.ts';
export * from './names.ts';
export * from './printers.ts';
export * from './quantity.ts';
export * from './request-info.ts';
export * from './resources.ts';
export * from './result.ts';
export { goTypeName, hasStruct, parseType, structField, structFields, type SchemaField, type TypeNode } from './schema.ts';
export * from './strategic-merge-patch.ts';
export * from '../go/strconv.ts';
export * from './time.ts';
export * from './validation/index.ts';
export * from './validation/meta.ts';
export * from './validation/names.ts';
export * from './validation/options.ts';
export { validatePodSpec, validatePodTemplateSpec, updatablePodSpecFields } from './validation/pod.ts';
