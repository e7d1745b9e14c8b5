// Go's `%#v` rendering of the few composite values Kubernetes puts in field errors, so that messages
// such as `Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels``
// read as upstream prints them.

import { goQuote } from '../../go/strconv.ts';
import type { GoSyntax } from '../field.ts';
import type { IntOrString } from '../types/core.ts';
import type { LabelSelector, OwnerReference } from '../types/meta.ts';

/** `map[string]string{"a":"1", "b":"2"}` (keys sorted), `map[string]string(nil)` for an absent map. */
export function goStringMap(m: Readonly<Record<string, string>> | undefined): GoSyntax {
  if (m === undefined) return { goSyntax: 'map[string]string(nil)' };
  const entries = Object.keys(m).sort().map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`);
  return { goSyntax: `map[string]string{${entries.join(', ')}}` };
}

/** `intstr.IntOrString{Type:1, IntVal:0, StrVal:"25"}`. */
export function goIntOrString(v: IntOrString): GoSyntax {
  return typeof v === 'number'
    ? { goSyntax: `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}` }
    : { goSyntax: `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}` };
}

/** `v1.LabelSelector{MatchLabels:map[string]string{…}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`. */
export function goLabelSelector(ls: LabelSelector): GoSyntax {
  const expressions = ls.matchExpressions === undefined
    ? '[]v1.LabelSelectorRequirement(nil)'
    : `[]v1.LabelSelectorRequirement{${ls.matchExpressions.map((e) => {
      const values = e.values === undefined ? '[]string(nil)' : `[]string{${e.values.map(goQuote).join(', ')}}`;
      return `v1.LabelSelectorRequirement{Key:${goQuote(e.key)}, Operator:${goQuote(e.operator)}, Values:${values}}`;
    }).join(', ')}}`;
  return { goSyntax: `v1.LabelSelector{MatchLabels:${goStringMap(ls.matchLabels).goSyntax}, MatchExpressions:${expressions}}` };
}

function goBoolPointer(b: boolean | undefined): string {
  // A set pointer prints as its address in Go, which no simulation can reproduce.
  return b === undefined ? '(*bool)(nil)' : '(*bool)(0xc000000000)';
}

/** `v1.OwnerReference{APIVersion:"v1", Kind:"Event", …}`; set pointers print as a placeholder address. */
export function goOwnerReference(ref: OwnerReference): string {
  return `v1.OwnerReference{APIVersion:${goQuote(ref.apiVersion ?? '')}, Kind:${goQuote(ref.kind ?? '')}, Name:${goQuote(ref.name ?? '')}, `
    + `UID:${goQuote(ref.uid ?? '')}, Controller:${goBoolPointer(ref.controller)}, BlockOwnerDeletion:${goBoolPointer(ref.blockOwnerDeletion)}}`;
}
