import type { ElicitFormParams, ElicitUrlParams } from '../src/index.ts';

/** Seven dishes: more than radio buttons can hold, so a `<select>`. */
export const DISHES: string[] = ['soup', 'salad', 'pasta', 'risotto', 'curry', 'tacos', 'stew'];

/** A form with every field kind the restricted schema has, in each spelling a renderer meets. */
export const everyKind: ElicitFormParams = {
  message: 'Book a table',
  requestedSchema: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        title: 'Name',
        description: 'As on the booking',
        minLength: 2,
        maxLength: 20,
      },
      email: { type: 'string', title: 'Email', format: 'email' },
      website: { type: 'string', format: 'uri' },
      day: { type: 'string', title: 'Day', format: 'date' },
      arrival: { type: 'string', title: 'Arrival', format: 'date-time' },
      guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 8, default: 2 },
      budget: { type: 'number', title: 'Budget', minimum: 0 },
      terrace: { type: 'boolean', title: 'Terrace', default: true },
      highchair: { type: 'boolean', title: 'High chair' },
      seating: {
        type: 'string',
        title: 'Seating',
        oneOf: [
          { const: 'inside', title: 'Inside' },
          { const: 'outside', title: 'Outside' },
        ],
      },
      dish: {
        type: 'string',
        title: 'Dish',
        enum: DISHES,
        enumNames: DISHES.map((dish) => dish.toUpperCase()),
      },
      diet: {
        type: 'array',
        title: 'Diet',
        minItems: 1,
        maxItems: 2,
        items: {
          anyOf: [
            { const: 'vegan', title: 'Vegan' },
            { const: 'nuts', title: 'No nuts' },
            { const: 'gluten', title: 'No gluten' },
          ],
        },
      },
    },
    required: ['name', 'email', 'day', 'guests', 'seating', 'diet'],
  },
};

/** A scalar response type (`compileResponseType(Number)`): one field named `value`, untitled. */
export const scalar: ElicitFormParams = {
  message: 'How many tickets?',
  requestedSchema: {
    type: 'object',
    properties: { value: { type: 'integer', minimum: 1 } },
    required: ['value'],
  },
};

export function urlRequest(url: string): ElicitUrlParams {
  return {
    mode: 'url',
    message: 'Connect your calendar',
    url,
    elicitationId: 'calendar-1',
  };
}
