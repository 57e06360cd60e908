import { describe, expect, test } from 'vitest';

import {
  clientFeatureOf,
  type InputRequest,
  missingCapabilities,
  requiredCapabilities,
  supportsRequest,
} from '../src/index.ts';

const form: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
};
const url: InputRequest = {
  method: 'elicitation/create',
  params: { mode: 'url', message: 'Sign in', url: 'https://example.com/auth' },
};
const sampling: InputRequest = {
  method: 'sampling/createMessage',
  params: { messages: [], maxTokens: 10 },
};
const roots: InputRequest = { method: 'roots/list' };

describe('requiredCapabilities', () => {
  test('names the capability each kind of request needs', () => {
    expect(requiredCapabilities(form)).toEqual({ elicitation: { form: {} } });
    expect(requiredCapabilities(url)).toEqual({ elicitation: { url: {} } });
    expect(requiredCapabilities(sampling)).toEqual({ sampling: {} });
    expect(requiredCapabilities(roots)).toEqual({ roots: {} });
  });
});

describe('supportsRequest', () => {
  test('nothing declared supports nothing', () => {
    for (const request of [form, url, sampling, roots]) {
      expect(supportsRequest(undefined, request)).toBe(false);
      expect(supportsRequest({}, request)).toBe(false);
    }
  });

  test('an empty elicitation object means form only (backward compatibility)', () => {
    expect(supportsRequest({ elicitation: {} }, form)).toBe(true);
    expect(supportsRequest({ elicitation: {} }, url)).toBe(false);
  });

  test('modes are checked separately', () => {
    expect(supportsRequest({ elicitation: { url: {} } }, form)).toBe(false);
    expect(supportsRequest({ elicitation: { url: {} } }, url)).toBe(true);
    expect(supportsRequest({ elicitation: { form: {} } }, url)).toBe(false);
    expect(supportsRequest({ elicitation: { form: {}, url: {} } }, form)).toBe(true);
  });

  test('sampling and roots', () => {
    expect(supportsRequest({ sampling: {} }, sampling)).toBe(true);
    expect(supportsRequest({ roots: { listChanged: true } }, roots)).toBe(true);
    expect(supportsRequest({ sampling: {} }, roots)).toBe(false);
  });
});

describe('missingCapabilities', () => {
  test('undefined when everything is covered', () => {
    expect(
      missingCapabilities({ elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }, [
        form,
        url,
        sampling,
        roots,
      ]),
    ).toBeUndefined();
  });

  test('the union of what is missing, in -32021 shape', () => {
    expect(
      missingCapabilities({ elicitation: { form: {} } }, [form, url, sampling, roots]),
    ).toEqual({
      elicitation: { url: {} },
      sampling: {},
      roots: {},
    });
    expect(missingCapabilities({}, [form, url])).toEqual({ elicitation: { form: {}, url: {} } });
  });

  test('no requests, nothing missing', () => {
    expect(missingCapabilities(undefined, [])).toBeUndefined();
  });
});

describe('clientFeatureOf', () => {
  test('names what the capabilities stand for, URL only when form is not needed too', () => {
    expect(clientFeatureOf({ elicitation: { url: {} } })).toBe('URL elicitation');
    expect(clientFeatureOf({ elicitation: { form: {}, url: {} } })).toBe('elicitation');
    expect(clientFeatureOf({ elicitation: {} })).toBe('elicitation');
    expect(clientFeatureOf({ sampling: {} })).toBe('sampling');
    expect(clientFeatureOf({ roots: {} })).toBe('roots');
  });
});
