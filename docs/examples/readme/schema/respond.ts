import { createResponseType } from '@parley/schema';

// What a client's elicitation handler receives as params.requestedSchema:
const responseType = createResponseType({
  type: 'object',
  properties: {
    destination: { type: 'string', title: 'Destination' },
    seats: { type: 'integer', minimum: 1, default: 1 },
  },
  required: ['destination'],
});

// The answer to send: checked, with the defaults filled in.
console.log(JSON.stringify(responseType({ destination: 'Paris' })));
// A key the schema does not have is refused, before anything is sent:
try {
  responseType({ destinaton: 'Paris' });
} catch (error) {
  console.log(String(error));
}
