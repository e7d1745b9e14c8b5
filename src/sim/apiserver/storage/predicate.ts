// Matching objects against a SelectionPredicate, and the key-prefix rule the watch cache applies before
// it: an object belongs to a list or watch of key K when its key is K or lies under K as a path.
// Models k8s.io/apiserver/pkg/storage/selection_predicate.go (Everything, Empty, Matches) and
// pkg/storage/cacher/util.go (hasPathPrefix).

import { everythingFields, matchesFields } from '../../api/fields.ts';
import { everything, matchesLabels } from '../../api/labels.ts';
import type { KubeObject } from '../../api/types/meta.ts';
import type { SelectionPredicate } from './interface.ts';

/** storage.Everything: every object, no paging. */
export const everythingPredicate: SelectionPredicate = {
  label: everything,
  field: everythingFields,
  limit: 0,
  continueToken: '',
  getAttrs: () => ({ labels: {}, fields: {} }),
};

/** True when the predicate selects every object (SelectionPredicate.Empty). */
export function selectsEverything(pred: SelectionPredicate): boolean {
  return pred.label.requirements.length === 0 && !pred.label.nothing && pred.field.terms.length === 0;
}

export function predicateMatches(pred: SelectionPredicate, obj: KubeObject): boolean {
  if (selectsEverything(pred)) return true;
  const attrs = pred.getAttrs(obj);
  return matchesLabels(pred.label, attrs.labels) && matchesFields(pred.field, attrs.fields);
}

/** `/registry/pods/default/x` has path prefix `/registry/pods/default` and `/registry/pods/`, not `/registry/po`. */
export function hasPathPrefix(key: string, pathPrefix: string): boolean {
  if (!key.startsWith(pathPrefix)) return false;
  if (key.length === pathPrefix.length || pathPrefix.endsWith('/')) return true;
  return key[pathPrefix.length] === '/';
}
