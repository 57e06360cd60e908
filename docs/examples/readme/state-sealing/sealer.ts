import {
  createRequestStateSealer,
  generateKey,
} from '@parley/state-sealing';

const sealer = createRequestStateSealer({
  audience: 'booking-server', // the server's name
  keys: [process.env.REQUEST_STATE_KEY ?? generateKey()], // the same on every replica; see "Keys"
});

// Round 1: seal what you want back, bound to this request.
const args = { passengers: 2 };
const binding = {
  method: 'tools/call',
  target: 'book_trip',
  arguments: args,
  principal: 'user-42',
};
const requestState = await sealer.seal(
  JSON.stringify({ step: 'need-date', destination: 'Lisbon' }),
  binding,
);

// Round 2: the client echoes requestState; open it against the retried request.
const state = JSON.parse(await sealer.open(requestState, binding));
console.log(state);

// The same token on another request (here, another user's) does not open.
await sealer
  .open(requestState, { ...binding, principal: 'user-7' })
  .catch((error: unknown) => console.log(String(error)));
