import { describe, expect, test } from 'vitest';

import { describeTask } from '../src/index.ts';

describe('describeTask: a task state as the line every Parley host shows', () => {
  test('its status in words, and what the server says about it when it says anything', () => {
    expect(describeTask({ status: 'working', statusMessage: 'Rendering (40%)' })).toBe(
      'Task working: Rendering (40%)',
    );
    expect(describeTask({ status: 'input_required' })).toBe('Task waiting for your answer');
    expect(describeTask({ status: 'failed', statusMessage: '' })).toBe('Task failed');
    expect(describeTask({ status: 'completed' })).toBe('Task completed');
    expect(describeTask({ status: 'cancelled', statusMessage: 'by the user' })).toBe(
      'Task cancelled: by the user',
    );
  });
});
