import type { TaskHandle, TaskSnapshot } from '@parley/client';

import { h } from './dom.ts';

/**
 * A call that became a task, on its timeline entry: each change of the task's status as it
 * comes, in the terminal's words (`Task working: Compiling Q1 (0%)`), ending at its final state.
 */

const LABEL: Record<TaskSnapshot['status'], string> = {
  working: 'working',
  input_required: 'waiting for your answer',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** One line for a task's state: its status, and what the server says about it. */
export function describeTask(task: TaskSnapshot): string {
  const message = task.statusMessage;
  return message === undefined || message.length === 0
    ? `Task ${LABEL[task.status]}`
    : `Task ${LABEL[task.status]}: ${message}`;
}

function ended(task: TaskSnapshot): boolean {
  return task.status !== 'working' && task.status !== 'input_required';
}

/** The task's log, in `log`, and its current line, in `status` (a live region). */
export interface TaskProgress {
  /** The list of the task's states, for the entry. */
  element: HTMLElement;
  /** The call settled: the task's final state is the last line, whatever came in before. */
  end(): void;
}

/**
 * Follows `task`: a line per change (a state said twice in a row is said once: after an answer
 * the task is back at the work it was doing), and the status line updated with it.
 */
export function followTask(task: TaskHandle, status: HTMLElement): TaskProgress {
  const log = h('ol', { class: 'task-progress', 'aria-label': 'Task progress' });
  const element = h(
    'div',
    { class: 'task' },
    h('p', { class: 'label' }, `Runs as a task (${task.taskId})`),
    log,
  );
  let shown = '';
  let over = false;
  const show = (snapshot: TaskSnapshot): void => {
    if (over) return;
    over = ended(snapshot);
    const line = describeTask(snapshot);
    if (line !== shown) {
      shown = line;
      log.append(h('li', { 'data-status': snapshot.status }, line));
      status.textContent = over ? line : `${line}…`;
    }
  };
  show(task.current);
  const stop = task.onChange(show);
  return {
    element,
    end() {
      stop();
      show(task.current);
    },
  };
}
