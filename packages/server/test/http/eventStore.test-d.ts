import type { EventStore as SdkEventStore } from '@modelcontextprotocol/server';
import { expectTypeOf, test } from 'vitest';

import type { EventStore } from '../../src/index.ts';

test("a Parley event store is what the SDK's transport takes", () => {
  expectTypeOf<EventStore>().toMatchTypeOf<SdkEventStore>();
});
