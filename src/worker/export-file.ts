// The export file and the share link of a saved cluster, and their validation. An import is checked
// against the schema below field by field before anything is stored; every violation is reported as an
// ImportError naming the field, so a hostile or broken file is refused with a clear message and changes
// nothing. (The check is written out here because the schema is small and the messages matter; the
// import is then replayed before it is stored — see saved-clusters.ts.)

import type { ClusterExportFile, FaultSpec, LoggableCommand, LoggedCommand } from '../protocol/index.ts';
import { clusterExportFormat, clusterExportVersion, importMaxBytes, maxNodes, shareFragmentKey, shareLinkMaxLength } from '../protocol/index.ts';

export class ImportError extends Error {
  override readonly name = 'ImportError';
}

/** Limits on what an import may hold (generous for real use, bounded against hostile files). */
export const importLimits = {
  nameLength: 200,
  seedLength: 200,
  commands: 100_000,
  headStep: 50_000_000,
  yamlLength: 1_000_000,
  payloadDepth: 32,
  stringLength: 1_000_000,
} as const;

export function exportFile(
  meta: { name: string; seed: string | number; nodes: number; storageMediaType?: 'protobuf' | 'json'; etcdMembers?: 1 | 3 | 5; created: number; headStep: number },
  log: readonly LoggedCommand[],
): ClusterExportFile {
  const { storageMediaType, etcdMembers, ...rest } = meta;
  return {
    format: clusterExportFormat, version: clusterExportVersion, ...rest,
    ...(storageMediaType === 'json' ? { storageMediaType } : {}), ...(etcdMembers === 3 || etcdMembers === 5 ? { etcdMembers } : {}), commands: log,
  };
}

/** Parses and validates an export file's text. */
export function parseExportFile(text: string): ClusterExportFile {
  if (typeof text !== 'string') throw new ImportError('import: expected text');
  if (text.length > importMaxBytes) throw new ImportError(`import: the file is larger than ${importMaxBytes / 1024 / 1024} MiB`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ImportError(`import: not a JSON file (${error instanceof Error ? error.message : String(error)})`);
  }
  return validateExport(data);
}

/** Checks plain data against the export schema; returns a fresh, frozen-shape copy of it. */
export function validateExport(data: unknown): ClusterExportFile {
  const root = record(data, 'the file');
  onlyKeys(root, ['format', 'version', 'name', 'seed', 'nodes', 'storageMediaType', 'etcdMembers', 'created', 'headStep', 'commands'], 'the file');
  if (root.format !== clusterExportFormat) throw new ImportError(`import: not a Podflow cluster (format must be "${clusterExportFormat}")`);
  if (root.version !== clusterExportVersion) throw new ImportError(`import: unsupported version ${JSON.stringify(root.version)} (this Podflow reads version ${clusterExportVersion})`);
  const name = text(root.name, 'name', importLimits.nameLength);
  if (name.trim() === '') throw new ImportError('import: name must not be empty');
  const seed = typeof root.seed === 'number' ? finite(root.seed, 'seed') : text(root.seed, 'seed', importLimits.seedLength);
  if (seed === '') throw new ImportError('import: seed must not be empty');
  const nodes = integer(root.nodes, 'nodes', 1, maxNodes);
  if (root.storageMediaType !== undefined && root.storageMediaType !== 'json' && root.storageMediaType !== 'protobuf') {
    throw new ImportError('import: storageMediaType must be "json" or "protobuf"');
  }
  const mediaType = root.storageMediaType === 'json' ? { storageMediaType: 'json' as const } : {};
  if (root.etcdMembers !== undefined && root.etcdMembers !== 1 && root.etcdMembers !== 3 && root.etcdMembers !== 5) {
    throw new ImportError('import: etcdMembers must be 1, 3 or 5');
  }
  const members = root.etcdMembers === 3 || root.etcdMembers === 5 ? { etcdMembers: root.etcdMembers as 3 | 5 } : {};
  const created = integer(root.created, 'created', 0, 8.64e15);
  const headStep = integer(root.headStep, 'headStep', 0, importLimits.headStep);
  if (!Array.isArray(root.commands)) throw new ImportError('import: commands must be a list');
  if (root.commands.length > importLimits.commands) throw new ImportError(`import: more than ${importLimits.commands} commands`);
  const commands: LoggedCommand[] = [];
  let previous = { step: 0, at: 0 };
  root.commands.forEach((raw: unknown, i) => {
    const where = `commands[${i}]`;
    const entry = record(raw, where);
    onlyKeys(entry, ['step', 'at', 'command'], where);
    const step = integer(entry.step, `${where}.step`, 0, headStep);
    const at = finite(entry.at, `${where}.at`);
    if (at < 0) throw new ImportError(`import: ${where}.at must not be negative`);
    if (step < previous.step || (step === previous.step && at < previous.at)) throw new ImportError(`import: ${where} is out of order (commands must be in step order)`);
    if (step > previous.step && at < previous.at) throw new ImportError(`import: ${where}.at goes back in time`);
    previous = { step, at };
    commands.push({ step, at, command: loggable(entry.command, `${where}.command`) });
  });
  return { format: clusterExportFormat, version: clusterExportVersion, name, seed, nodes, ...mediaType, ...members, created, headStep, commands };
}

function loggable(raw: unknown, where: string): LoggableCommand {
  const command = record(raw, where);
  if (command.type === 'applyManifest') {
    onlyKeys(command, ['type', 'yaml'], where);
    return { type: 'applyManifest', yaml: text(command.yaml, `${where}.yaml`, importLimits.yamlLength) };
  }
  if (command.type === 'userRequest') {
    onlyKeys(command, ['type', 'to', 'kind', 'payload'], where);
    return {
      type: 'userRequest',
      to: text(command.to, `${where}.to`, 200),
      kind: text(command.kind, `${where}.kind`, 200),
      payload: jsonValue(command.payload, `${where}.payload`, 0),
    };
  }
  if (command.type === 'consoleRun') {
    onlyKeys(command, ['type', 'id', 'line', 'stdin'], where);
    return {
      type: 'consoleRun',
      id: commandId(command.id, `${where}.id`),
      line: text(command.line, `${where}.line`, 10_000),
      ...(command.stdin !== undefined ? { stdin: text(command.stdin, `${where}.stdin`, importLimits.yamlLength) } : {}),
    };
  }
  if (command.type === 'consoleInterrupt') {
    onlyKeys(command, ['type', 'id'], where);
    return { type: 'consoleInterrupt', id: commandId(command.id, `${where}.id`) };
  }
  if (command.type === 'fault') {
    onlyKeys(command, ['type', 'fault'], where);
    const fault = record(command.fault, `${where}.fault`);
    if (typeof fault.type !== 'string') throw new ImportError(`import: ${where}.fault.type must be a string`);
    return { type: 'fault', fault: jsonValue(fault, `${where}.fault`, 0) as unknown as FaultSpec };
  }
  throw new ImportError(`import: ${where}.type must be "applyManifest", "userRequest", "consoleRun", "consoleInterrupt" or "fault"`);
}

/** A copy of plain JSON data (objects without prototypes tricks, bounded depth). */
function jsonValue(value: unknown, where: string, depth: number): unknown {
  if (depth > importLimits.payloadDepth) throw new ImportError(`import: ${where} is nested too deeply`);
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return finite(value, where);
  if (typeof value === 'string') return text(value, where, importLimits.stringLength);
  if (Array.isArray(value)) return value.map((item, i) => jsonValue(item, `${where}[${i}]`, depth + 1));
  const object = record(value, where);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new ImportError(`import: ${where} has a forbidden key "${key}"`);
    copy[key] = jsonValue(item, `${where}.${key}`, depth + 1);
  }
  return copy;
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ImportError(`import: ${where} must be an object`);
  return value as Record<string, unknown>;
}

function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw new ImportError(`import: ${where} has an unexpected field "${key}"`);
}

function text(value: unknown, where: string, max: number): string {
  if (typeof value !== 'string') throw new ImportError(`import: ${where} must be a string`);
  if (value.length > max) throw new ImportError(`import: ${where} is longer than ${max} characters`);
  return value;
}

function finite(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ImportError(`import: ${where} must be a finite number`);
  return value;
}

function integer(value: unknown, where: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ImportError(`import: ${where} must be an integer from ${min} to ${max}`);
  return value;
}

// ── Share links: `#cluster=<base64url of the export JSON>` ─────────────────────────────────────────────

/** The fragment for a cluster, or null when it is too long for a link. */
export function shareFragment(file: ClusterExportFile): string | null {
  const fragment = `#${shareFragmentKey}=${base64url(JSON.stringify(file))}`;
  return fragment.length <= shareLinkMaxLength ? fragment : null;
}

/** Reads a share link fragment (with or without `#`) back into a validated export. */
export function parseShareFragment(fragment: string): ClusterExportFile {
  const body = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  const prefix = `${shareFragmentKey}=`;
  if (!body.startsWith(prefix)) throw new ImportError(`import: a share link ends in #${prefix}…`);
  const encoded = body.slice(prefix.length);
  if (encoded.length > shareLinkMaxLength * 2 || !/^[A-Za-z0-9_-]*$/.test(encoded)) throw new ImportError('import: the share link is damaged (not base64url)');
  let json: string;
  try {
    json = fromBase64url(encoded);
  } catch {
    throw new ImportError('import: the share link is damaged (not UTF-8)');
  }
  return parseExportFile(json);
}

function base64url(textValue: string): string {
  const bytes = new TextEncoder().encode(textValue);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(encoded: string): string {
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

function commandId(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new ImportError(`import: ${where} must be a non-negative integer`);
  return value;
}
