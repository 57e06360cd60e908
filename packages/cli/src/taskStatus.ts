import { describeTask, type TaskHandle } from '@parley/client';

import type { PromptLog } from './prompter.ts';

/**
 * A call that became a task can take minutes or hours: the terminal says so when it happens,
 * and shows each change of the task's status (and what the server says about it) while the
 * person waits. A task waiting for an answer says nothing of its own: the question itself is
 * drawn next.
 */

/**
 * The `onTask` of a call: announces the task and logs each change until it ends. A line is not
 * drawn twice in a row: after a question is answered the task is back at work with the same
 * status it had before it asked (`Compiling Q4 (75%)`), which the person has already seen. The
 * end is drawn once, and nothing after it.
 */
export function reportTask(log: PromptLog, what: string): (task: TaskHandle) => void {
  return (task) => {
    let shown = describeTask(task.current);
    let ended = false;
    log.step(`${what} runs as a task (${task.taskId}); Ctrl-C cancels it.\n${shown}`);
    task.onChange((snapshot) => {
      if (ended || snapshot.status === 'input_required') return;
      const line = describeTask(snapshot);
      if (line === shown) return;
      shown = line;
      if (snapshot.status === 'failed' || snapshot.status === 'cancelled') log.warn(line);
      else if (snapshot.status === 'completed') log.success(line);
      else log.info(line);
      ended = snapshot.status !== 'working';
    });
  };
}
