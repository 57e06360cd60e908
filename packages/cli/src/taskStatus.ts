import type { TaskHandle, TaskSnapshot } from '@parley/client';

import type { PromptLog } from './prompter.ts';

/**
 * A call that became a task can take minutes or hours: the terminal says so when it happens,
 * and shows each change of the task's status (and what the server says about it) while the
 * person waits. A task waiting for an answer says nothing of its own: the question itself is
 * drawn next.
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

/** The `onTask` of a call: announces the task and logs each change until it ends. */
export function reportTask(log: PromptLog, what: string): (task: TaskHandle) => void {
  return (task) => {
    log.step(
      `${what} runs as a task (${task.taskId}); Ctrl-C cancels it.\n${describeTask(task.current)}`,
    );
    task.onChange((snapshot) => {
      if (snapshot.status === 'input_required') return;
      if (snapshot.status === 'failed' || snapshot.status === 'cancelled')
        log.warn(describeTask(snapshot));
      else if (snapshot.status === 'completed') log.success(describeTask(snapshot));
      else log.info(describeTask(snapshot));
    });
  };
}
