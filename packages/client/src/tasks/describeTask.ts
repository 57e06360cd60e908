import type { TaskSnapshot } from '../types.ts';

/**
 * A task's state as one line a person reads (`Task working: Compiling Q1 (0%)`): the words every
 * Parley host uses for it (the terminal's `parley`, the playground), so one task reads the same
 * everywhere.
 */

const LABEL: Record<TaskSnapshot['status'], string> = {
  working: 'working',
  input_required: 'waiting for your answer',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** One line for a task's state: its status, and what the server says about it. */
export function describeTask(task: Pick<TaskSnapshot, 'status' | 'statusMessage'>): string {
  const message = task.statusMessage;
  return message === undefined || message.length === 0
    ? `Task ${LABEL[task.status]}`
    : `Task ${LABEL[task.status]}: ${message}`;
}
