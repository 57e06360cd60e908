import { BoundRequest, bindingText, checkBinding, type RequestBinding } from './binding.ts';
import type { SealingEngine } from './engines/engine.ts';
import { selectEngine } from './engines/selectEngine.ts';
import {
  deriveKeyRing,
  normalizeSecrets,
  processEphemeralSecret,
  type KeyRing,
} from './keyRing.ts';
import { checkOptions, type RequestStateSealerOptions } from './options.ts';
import { RequestStateError } from './requestStateError.ts';
import type { OpenedToken, RequestStateSealer } from './sealerApi.ts';
import { registerInternals } from './sealerInternals.ts';
import {
  AUDIENCE_TAG_BYTES,
  CLAIMS_BYTES,
  HEADER_BYTES,
  KID_BYTES,
  MIN_TOKEN_LENGTH,
  NONCE_BYTES,
  NONCE_OFFSET,
  TOKEN_PREFIX,
  aadOf,
  constantTimeEqual,
  maxStateBytes,
  newAad,
  readClaims,
  readUint32,
  tokenLength,
  writeClaims,
} from './tokenFormat.ts';

const API = 'createRequestStateSealer';
const AUDIENCE_DOMAIN = 'parley/state-sealing/v1 audience\n';

/** What is derived once per sealer: the key ring and the audience tag. */
interface Prepared<Key> {
  ring: KeyRing<Key>;
  audienceTag: Uint8Array;
}

/**
 * Creates a sealer: AES-256-GCM under keys derived with HKDF-SHA256, each token bound to an
 * audience, a request and a lifetime. See the package README for the threat model.
 */
export function createRequestStateSealer(options: RequestStateSealerOptions): RequestStateSealer {
  const settings = checkOptions(options, API);
  const { audience, ttlMs, skewMs, maxTokenBytes, replayStore } = settings;
  const engine = selectEngine(settings.engine, API);
  const secrets =
    settings.keys === undefined
      ? [processEphemeralSecret(engine)]
      : normalizeSecrets(settings.keys, API);

  let prepared: Prepared<unknown> | undefined;
  const ready = prepare(engine, secrets, audience)
    .then((value) => (prepared = value))
    .finally(() => {
      // Our copies of configured secrets are no longer needed once the keys are derived. (The
      // per-process key stays: later sealers derive from it too.)
      if (settings.keys !== undefined) for (const secret of secrets) secret.fill(0);
    });
  // A failure is reported by the first seal or open; until then it is not "unhandled".
  ready.catch(() => undefined);

  function clock(api: string): number {
    const time = settings.now();
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) {
      throw new TypeError(`${api}: options.now() must return milliseconds since the epoch`);
    }
    return Math.floor(time);
  }

  /**
   * Open and verify a token, at once when every step answers at once. `withId`: also the
   * token's id, which single use needs (its own replay store's, or the caller's); a plain
   * `open` without a replay store skips encoding it.
   */
  function openSealed(
    token: string,
    binding: RequestBinding | BoundRequest,
    withId: boolean,
  ): OpenedToken | Promise<OpenedToken> {
    if (!(binding instanceof BoundRequest)) checkBinding(binding, 'open');
    // Cheap checks first: nothing is decoded, hashed or decrypted for a token that cannot be one.
    if (typeof token !== 'string') throw reject('malformed', 'the token is not a string');
    if (token.length > maxTokenBytes) {
      throw reject(
        'too-large',
        `the token is ${token.length} bytes, over maxTokenBytes (${maxTokenBytes})`,
      );
    }
    if (token.length < MIN_TOKEN_LENGTH || !token.startsWith(TOKEN_PREFIX)) {
      throw reject('malformed', `not a ${TOKEN_PREFIX} token`);
    }
    const bytes = engine.decodeBase64Url(token, TOKEN_PREFIX.length);
    if (bytes === undefined) throw reject('malformed', 'the token is not canonical base64url');
    return prepared === undefined
      ? ready.then((keys) => decryptToken(keys, bytes, binding, withId))
      : decryptToken(prepared, bytes, binding, withId);
  }

  function decryptToken(
    { ring, audienceTag }: Prepared<unknown>,
    bytes: Uint8Array,
    binding: RequestBinding | BoundRequest,
    withId: boolean,
  ): OpenedToken | Promise<OpenedToken> {
    const kid = readUint32(bytes, 0);
    const key = ring.byKid.get(kid);
    if (key === undefined) {
      throw reject('unknown-key', `key id ${kid.toString(16).padStart(8, '0')} is not in the ring`);
    }
    const aad = aadOf(bytes);
    const decrypted = engine.decrypt(
      key,
      aad.subarray(NONCE_OFFSET),
      aad,
      bytes.subarray(HEADER_BYTES),
    );
    return decrypted instanceof Promise
      ? decrypted.then((plain) => checkClaims(audienceTag, bytes, plain, binding, withId))
      : checkClaims(audienceTag, bytes, decrypted, binding, withId);
  }

  function checkClaims(
    audienceTag: Uint8Array,
    bytes: Uint8Array,
    plain: Uint8Array | undefined,
    binding: RequestBinding | BoundRequest,
    withId: boolean,
  ): OpenedToken | Promise<OpenedToken> {
    if (plain === undefined) throw reject('tampered', 'the token does not authenticate');
    if (plain.length < CLAIMS_BYTES) throw reject('malformed', 'the token has no claims');
    const claims = readClaims(plain);
    if (!constantTimeEqual(claims.audienceTag, audienceTag)) {
      throw reject('wrong-audience', 'the token was sealed for another audience');
    }
    const now = clock('open');
    if (now > claims.expiresAt + skewMs) {
      throw reject('expired', `the token expired at ${iso(claims.expiresAt)} (now ${iso(now)})`);
    }
    if (claims.issuedAt > now + skewMs) {
      throw reject(
        'expired',
        `the token is issued in the future, at ${iso(claims.issuedAt)} (now ${iso(now)})`,
      );
    }
    const hashed = digestOf(binding);
    if ('failure' in hashed) {
      // Arguments with no JSON form cannot have been sealed, so no token binds to them.
      throw reject('wrong-binding', 'the request arguments have no JSON form', hashed.failure);
    }
    if (!(hashed instanceof Promise)) {
      return finishOpen(claims.bindingDigest, hashed, claims.expiresAt, bytes, plain, withId);
    }
    return hashed.then(
      (digest) => finishOpen(claims.bindingDigest, digest, claims.expiresAt, bytes, plain, withId),
      (cause: unknown) => {
        throw reject('wrong-binding', 'the request binding could not be digested', cause);
      },
    );
  }

  function finishOpen(
    sealedDigest: Uint8Array,
    digest: Uint8Array,
    expiry: number,
    bytes: Uint8Array,
    plain: Uint8Array,
    withId: boolean,
  ): OpenedToken | Promise<OpenedToken> {
    if (!constantTimeEqual(sealedDigest, digest)) {
      throw reject(
        'wrong-binding',
        'the token was sealed for another request (method, target, arguments or principal)',
      );
    }
    // A plain string either way (never a getter that defers it: V8 builds an object literal with
    // a getter slowly).
    const tokenId =
      withId || replayStore !== undefined
        ? engine.encodeBase64Url(bytes.subarray(0, HEADER_BYTES))
        : '';
    const expiresAt = expiry + skewMs;
    const opened: OpenedToken = {
      plaintext: engine.decodeUtf8(plain.subarray(CLAIMS_BYTES)),
      tokenId,
      expiresAt,
    };
    if (replayStore === undefined) return opened;
    // Claimed last, after every other check passed, so a failed attempt never uses a token up.
    return replayStore.claim(tokenId, expiresAt).then((claimed) => {
      if (!claimed) throw reject('replayed', 'the token was already used');
      return opened;
    });
  }

  function sealAtOnce(
    plaintext: string,
    binding: RequestBinding | BoundRequest,
  ): string | Promise<string> {
    if (typeof plaintext !== 'string') throw new TypeError('seal: plaintext must be a string');
    if (!isWellFormed(plaintext)) {
      throw new TypeError('seal: plaintext has a lone surrogate, which UTF-8 cannot carry');
    }
    if (!(binding instanceof BoundRequest)) checkBinding(binding, 'seal');
    const hashed = digestOf(binding);
    if ('failure' in hashed) {
      throw new TypeError('seal: binding.arguments has no JSON form', { cause: hashed.failure });
    }
    const state = engine.encodeUtf8(plaintext);
    const length = tokenLength(state.length);
    if (length > maxTokenBytes) {
      throw new RequestStateError(
        'too-large',
        `seal: ${state.length} bytes of state make a ${length}-byte token, over maxTokenBytes (${maxTokenBytes}); at most ${maxStateBytes(maxTokenBytes)} bytes of state fit. requestState travels through the client on every round: keep it small, or raise maxTokenBytes`,
      );
    }
    if (prepared === undefined || hashed instanceof Promise) {
      return Promise.all([prepared ?? ready, hashed]).then(([keys, digest]) =>
        encryptState(keys, state, digest),
      );
    }
    return encryptState(prepared, state, hashed);
  }

  function encryptState(
    { ring, audienceTag }: Prepared<unknown>,
    state: Uint8Array,
    bindingDigest: Uint8Array,
  ): string | Promise<string> {
    const issuedAt = clock('seal');
    const plain = new Uint8Array(CLAIMS_BYTES + state.length);
    writeClaims(plain, { issuedAt, expiresAt: issuedAt + ttlMs, audienceTag, bindingDigest });
    plain.set(state, CLAIMS_BYTES);

    const aad = newAad(ring.sealKid);
    engine.randomFill(aad, NONCE_OFFSET, NONCE_BYTES);
    const encrypted = engine.encrypt(
      ring.sealKey,
      aad.subarray(NONCE_OFFSET),
      aad,
      plain,
      aad.subarray(NONCE_OFFSET - KID_BYTES),
    );
    return encrypted instanceof Promise ? encrypted.then(tokenOf) : tokenOf(encrypted);
  }

  function tokenOf(bytes: Uint8Array): string {
    return TOKEN_PREFIX + engine.encodeBase64Url(bytes);
  }

  const sealer: RequestStateSealer = {
    async seal(plaintext, binding) {
      return sealAtOnce(plaintext, binding);
    },

    async open(token, binding) {
      return (await openSealed(token, binding, false)).plaintext;
    },

    async openToken(token, binding) {
      return openSealed(token, binding, true);
    },

    bind(binding) {
      checkBinding(binding, 'bind');
      return new BoundRequest(digestText(binding));
    },
  };
  // The answers at once, for @parley/server's hot path only (`@parley/state-sealing/internal`).
  registerInternals(sealer, {
    seal: sealAtOnce,
    open(token, binding) {
      const opened = openSealed(token, binding, false);
      return opened instanceof Promise
        ? opened.then((result) => result.plaintext)
        : opened.plaintext;
    },
    openToken: (token, binding) => openSealed(token, binding, true),
  });
  return sealer;

  /** The digest of a binding's text, or why there is none (arguments with no JSON form). */
  function digestText(
    binding: RequestBinding,
  ): Uint8Array | Promise<Uint8Array> | { failure: unknown } {
    let text: string;
    try {
      text = bindingText(binding);
    } catch (cause) {
      return { failure: cause };
    }
    const hashed = engine.sha256(text);
    // A bound request may never be used; its failure is reported to whoever awaits it.
    if (hashed instanceof Promise) hashed.catch(() => undefined);
    return hashed;
  }

  /** The digest a binding (checked) or a bound request carries. */
  function digestOf(
    binding: RequestBinding | BoundRequest,
  ): Uint8Array | Promise<Uint8Array> | { failure: unknown } {
    return binding instanceof BoundRequest ? BoundRequest.digestOf(binding) : digestText(binding);
  }
}

async function prepare<Key>(
  engine: SealingEngine<Key>,
  secrets: readonly Uint8Array[],
  audience: string,
): Promise<Prepared<Key>> {
  const [ring, audienceDigest] = await Promise.all([
    deriveKeyRing(engine, secrets, API),
    engine.sha256(AUDIENCE_DOMAIN + audience),
  ]);
  return { ring, audienceTag: audienceDigest.slice(0, AUDIENCE_TAG_BYTES) };
}

function reject(
  reason: RequestStateError['reason'],
  detail: string,
  cause?: unknown,
): RequestStateError {
  return new RequestStateError(reason, `requestState rejected (${reason}): ${detail}`, { cause });
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

const LONE_SURROGATE = /\p{Cs}/u;

function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !LONE_SURROGATE.test(text);
}
