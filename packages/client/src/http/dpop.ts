import { checkOptionKeys, optionKeys } from '@parley/core';
import { DpopSession, type DpopAlg, type DpopKeyPair } from '@modelcontextprotocol/client';

/**
 * DPoP (RFC 9449, MCP's SEP-1932) for an OAuth provider: `true` for a fresh ES256 key pair made
 * for this provider, or `{ keyPair }` with WebCrypto keys of your own (to keep one key across
 * restarts, or one held in a platform key store). Off by default, as in the SDK: turn it on
 * where the authorization server and the MCP server take DPoP-bound tokens.
 */
export type DpopOption = boolean | { keyPair: CryptoKeyPair };

/** The JWS name of a WebCrypto signing algorithm, for the algorithms RFC 9449 allows. */
function jwsAlgorithmOf(algorithm: KeyAlgorithm): DpopAlg | undefined {
  const { name } = algorithm;
  if (name === 'ECDSA') {
    const curve = (algorithm as EcKeyAlgorithm).namedCurve;
    return ({ 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' } as const)[curve as 'P-256'];
  }
  if (name === 'Ed25519') return 'EdDSA';
  if (name === 'RSASSA-PKCS1-v1_5' || name === 'RSA-PSS') {
    const hash = (algorithm as RsaHashedKeyAlgorithm).hash.name;
    const bits = ({ 'SHA-256': '256', 'SHA-384': '384', 'SHA-512': '512' } as const)[
      hash as 'SHA-256'
    ];
    if (bits === undefined) return undefined;
    return `${name === 'RSA-PSS' ? 'PS' : 'RS'}${bits}`;
  }
  return undefined;
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CryptoKey).type === 'string' &&
    typeof (value as CryptoKey).algorithm === 'object' &&
    Array.isArray((value as CryptoKey).usages)
  );
}

const DPOP_KEYS = optionKeys<{ keyPair: CryptoKeyPair }>()(['keyPair']);

/** A checked key pair and its JWS algorithm; what can be checked without signing. */
interface CheckedKeyPair {
  keyPair: CryptoKeyPair;
  alg: DpopAlg;
}

/** Check a `dpop` option: `undefined` when DPoP is off. Throws `TypeError` naming `api`. */
export function checkDpopOption(
  api: string,
  value: unknown,
): CheckedKeyPair | 'generate' | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return 'generate';
  const keyPair = (value as { keyPair?: unknown } | null)?.keyPair as Partial<CryptoKeyPair>;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof keyPair !== 'object' ||
    keyPair === null
  ) {
    throw new TypeError(`${api}: dpop must be true, false or { keyPair } (WebCrypto keys).`);
  }
  checkOptionKeys(api, 'options.dpop', value, DPOP_KEYS);
  const { privateKey, publicKey } = keyPair;
  if (!isCryptoKey(privateKey) || privateKey.type !== 'private') {
    throw new TypeError(`${api}: dpop.keyPair.privateKey must be a WebCrypto private key.`);
  }
  if (!isCryptoKey(publicKey) || publicKey.type !== 'public') {
    throw new TypeError(`${api}: dpop.keyPair.publicKey must be a WebCrypto public key.`);
  }
  if (!privateKey.usages.includes('sign')) {
    throw new TypeError(
      `${api}: dpop.keyPair.privateKey must be usable to sign (usages ['sign']).`,
    );
  }
  const alg = jwsAlgorithmOf(privateKey.algorithm);
  if (alg === undefined) {
    throw new TypeError(
      `${api}: dpop.keyPair is a ${privateKey.algorithm.name} key; DPoP proofs need ECDSA (P-256, P-384, P-521), Ed25519, RSASSA-PKCS1-v1_5 or RSA-PSS (SHA-256/384/512).`,
    );
  }
  if (jwsAlgorithmOf(publicKey.algorithm) !== alg) {
    throw new TypeError(`${api}: dpop.keyPair's public key is not of the private key's algorithm.`);
  }
  return { keyPair: { privateKey, publicKey }, alg };
}

const encoder = new TextEncoder();

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The members RFC 7638 hashes, per key type, in the order it sorts them. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = {
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
};

async function thumbprintOf(jwk: JsonWebKey): Promise<string> {
  const members = THUMBPRINT_MEMBERS[jwk.kty ?? ''] ?? [];
  const canonical = `{${members.map((name) => `"${name}":${JSON.stringify(jwk[name as 'kty'])}`).join(',')}}`;
  return base64url(await crypto.subtle.digest('SHA-256', encoder.encode(canonical)));
}

/** How each algorithm family signs, for the pairing check. */
function signParams(
  alg: DpopAlg,
  key: CryptoKey,
): AlgorithmIdentifier | EcdsaParams | RsaPssParams {
  if (alg.startsWith('ES')) return { name: 'ECDSA', hash: `SHA-${alg.slice(2)}` };
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', saltLength: Number(alg.slice(2)) / 8 };
  return key.algorithm.name;
}

/**
 * The SDK's key pair from WebCrypto keys: the public JWK every proof embeds and its thumbprint
 * (the `cnf.jkt` a token gets bound to). A private key that is not the public key's other half
 * would sign proofs no server can verify, so a probe signed with one is verified with the other.
 */
async function sdkKeyPair(api: string, { keyPair, alg }: CheckedKeyPair): Promise<DpopKeyPair> {
  const probe = encoder.encode('parley dpop key check');
  const params = signParams(alg, keyPair.privateKey);
  const signature = await crypto.subtle.sign(params, keyPair.privateKey, probe);
  if (!(await crypto.subtle.verify(params, keyPair.publicKey, signature, probe))) {
    throw new TypeError(
      `${api}: dpop.keyPair's public key does not verify what its private key signs; they are not one pair.`,
    );
  }
  const jwk = await crypto.subtle.exportKey('jwk', keyPair.publicKey);
  const publicJwk = Object.fromEntries(
    (THUMBPRINT_MEMBERS[jwk.kty ?? ''] ?? []).map((name) => [name, jwk[name as 'kty']]),
  );
  return {
    privateKey: keyPair.privateKey,
    publicKey: keyPair.publicKey,
    publicJwk,
    thumbprint: await thumbprintOf(jwk),
    alg,
  } as DpopKeyPair;
}

/**
 * A provider's `dpop()`: one session for the provider's life (its key and the nonces each
 * server gave), made at the first call. A key pair that fails its check fails every call the
 * same way, rather than being retried.
 */
export function dpopSessionOf(
  api: string,
  checked: CheckedKeyPair | 'generate' | undefined,
): (() => Promise<DpopSession>) | undefined {
  if (checked === undefined) return undefined;
  let session: Promise<DpopSession> | undefined;
  return () =>
    (session ??=
      checked === 'generate'
        ? DpopSession.create({ alg: 'ES256' })
        : sdkKeyPair(api, checked).then((keyPair) => DpopSession.create({ keyPair })));
}
