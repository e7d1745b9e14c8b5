// Reading the parts of a payload that have no type of their own: Kubernetes objects in HTTP bodies and
// watch events, timers' data. Each reader returns the field when it has the expected type, else
// undefined. Everything else a payload holds is read through its kind's type (src/protocol/messages.ts).

type Fields = Readonly<Record<string, unknown>>;

export function fields(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

export function text(value: unknown, name: string): string | undefined {
  const v = fields(value)?.[name];
  return typeof v === 'string' ? v : undefined;
}

export function count(value: unknown, name: string): number | undefined {
  const v = fields(value)?.[name];
  return typeof v === 'number' ? v : undefined;
}

export function flag(value: unknown, name: string): boolean | undefined {
  const v = fields(value)?.[name];
  return typeof v === 'boolean' ? v : undefined;
}

export function list(value: unknown, name: string): readonly unknown[] {
  const v = fields(value)?.[name];
  return Array.isArray(v) ? v : [];
}

export function child(value: unknown, ...path: string[]): unknown {
  let at: unknown = value;
  for (const name of path) at = fields(at)?.[name];
  return at;
}

/** `value` cut to `max` characters with an ellipsis. */
export function clip(value: string, max = 48): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** Starts an English sentence: `the kubelet…` → `The kubelet…`, `a watch…` → `A watch…`; names (etcd, kubectl) keep their case. */
export function cap(text: string): string {
  return /^(?:the|a|an) /.test(text) ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
}
