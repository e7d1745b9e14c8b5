// The page names faults with the protocol's FaultSpec (the UI may not import the simulation) and the
// simulation injects its own Fault: the two must describe exactly the same faults. A type-level check:
// tsc fails here when one gains a fault or a field the other lacks.

import { describe, expectTypeOf, it } from 'vitest';
import type { FaultSpec } from '../protocol/index.ts';
import type { Fault } from '../sim/faults.ts';

describe('FaultSpec and Fault', () => {
  it('are the same type', () => {
    expectTypeOf<FaultSpec>().toEqualTypeOf<Fault>();
  });
});
