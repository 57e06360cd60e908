import { describeTask, type TaskHandle, type TaskSnapshot } from '@parley/client';

import { h } from './dom.ts';

/**
 * A call that became a task, on its timeline entry: each change of the task's status as it
 * comes, in the terminal's words (`Task working: Compiling Q1 (0%)`), ending at its final state.
 */

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
 * Follows `task`: a line per change, and the status line updated with it. As in the terminal,
 * the work is not said again when the task goes back to it: after an answer the task is back at
 * the work it was doing before it asked (`Compiling Q4 (75%)`), which the person has seen.
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
  /** The last line of work shown: a task back at it after an answer is not said again. */
  let working = '';
  let over = false;
  const show = (snapshot: TaskSnapshot): void => {
    if (over) return;
    over = ended(snapshot);
    const line = describeTask(snapshot);
    if (line === shown) return;
    shown = line;
    status.textContent = over ? line : `${line}…`;
    if (snapshot.status === 'working') {
      if (line === working) return;
      working = line;
    }
    log.append(h('li', { 'data-status': snapshot.status }, line));
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
