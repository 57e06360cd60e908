import { InvalidAnswerError } from '@parley/core';
import { compileResponseType } from '@parley/schema';

const priority = compileResponseType(['low', 'medium', 'high'], {
  responseTitle: 'Priority',
});

// What the client is sent as `requestedSchema`:
console.log(JSON.stringify(priority.requestedSchema));
// An answer's content, checked and unwrapped ('low' | 'medium' | 'high'):
console.log(priority.parse({ value: 'high' }));
// Anything else throws an InvalidAnswerError naming the field and the problem, never the
// answer (errors get logged):
try {
  priority.parse({ value: 'urgent' });
} catch (error) {
  console.log(String(error));
  // The reason as the person who answered may read it, their answer quoted:
  if (error instanceof InvalidAnswerError)
    console.log(error.reasonWithAnswer());
}
