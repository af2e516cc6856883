/**
 * Verification of a SAML response posted to the assertion consumer service, with @node-saml/node-saml. It runs in a
 * parse-pool thread (`saml.verify`, src/parse-pool/operations.ts): the posted XML is untrusted until its signature is
 * checked, so parsing it gets the pool's time and memory budgets. Nothing here touches the store: the caller checks
 * that `inResponseTo` names a request Folio sent (taken once) and that the assertion id was never accepted before.
 *
 * Refused here: a response whose assertion is not signed by the provider's certificate (unsigned, forged, altered),
 * not from the provider's entity id, not for Folio's entity id (audience), outside its validity window (expired,
 * not yet valid), without an InResponseTo, or carrying a DTD.
 */
import { SAML } from '@node-saml/node-saml';

export interface SamlVerifyOptions {
  /** The IdP's signing certificate (PEM, or its base64 body). */
  certificate: string;
  /** The IdP's entity id: the assertion's Issuer must be it. */
  idpEntityId: string;
  /** Folio's entity id for this provider: the assertion's audience must be it. */
  spEntityId: string;
  /** Folio's assertion consumer service URL. */
  acsUrl: string;
  /** Tolerated clock difference with the IdP. */
  clockSkewMs: number;
}

/** What Folio keeps of a verified assertion. */
export interface VerifiedAssertion {
  assertionId: string;
  inResponseTo: string;
  nameId: string;
  email: string | null;
  displayName: string | null;
  /** ISO; when the assertion stops being valid (its id is remembered until then). */
  notOnOrAfter: string | null;
}

/** A response refused: `reason` is safe to show (it carries no part of the response). */
export class SamlRejectedError extends Error {
  constructor(readonly reason: string) {
    super(`SAML response refused: ${reason}`);
    this.name = 'SamlRejectedError';
  }
}

const first = (value: unknown): string | null => {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
};

function attribute(profile: Record<string, unknown>, names: string[]): string | null {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const name of names) {
    const value = first(profile[name]) ?? first(attributes[name]);
    if (value) return value;
  }
  return null;
}

/** The assertion's ID and its latest NotOnOrAfter, from node-saml's parsed (verified) assertion. */
function assertionFacts(assertion: unknown): { id: string | null; notOnOrAfter: string | null } {
  const root = (assertion as { Assertion?: { $?: { ID?: string }; Conditions?: Array<{ $?: { NotOnOrAfter?: string } }> } } | undefined)?.Assertion;
  return { id: root?.$?.ID ?? null, notOnOrAfter: root?.Conditions?.[0]?.$?.NotOnOrAfter ?? null };
}

export async function verifySamlResponse(samlResponse: string, options: SamlVerifyOptions): Promise<VerifiedAssertion> {
  let xml: string;
  try {
    xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  } catch {
    throw new SamlRejectedError('not base64');
  }
  // SAML responses never carry a DTD; one could only be an attack on the parser.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRejectedError('a DTD is not allowed');
  const saml = new SAML({
    idpCert: options.certificate,
    idpIssuer: options.idpEntityId,
    issuer: options.spEntityId,
    audience: options.spEntityId,
    callbackUrl: options.acsUrl,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // InResponseTo is checked by the caller against the requests Folio sent (atomically, in the store).
    validateInResponseTo: 'never' as never,
    acceptedClockSkewMs: options.clockSkewMs,
  });
  let profile: Record<string, unknown> | null;
  try {
    ({ profile } = (await saml.validatePostResponseAsync({ SAMLResponse: samlResponse })) as { profile: Record<string, unknown> | null });
  } catch (err) {
    throw new SamlRejectedError(err instanceof Error ? err.message.slice(0, 300) : 'invalid response');
  }
  if (!profile) throw new SamlRejectedError('the response holds no assertion');
  const facts = assertionFacts((profile.getAssertion as (() => unknown) | undefined)?.());
  const inResponseTo = first(profile.inResponseTo);
  if (!facts.id) throw new SamlRejectedError('the assertion has no ID');
  if (!inResponseTo) throw new SamlRejectedError('the response answers no request of Folio (no InResponseTo): IdP-initiated logins are not accepted');
  const nameId = first(profile.nameID) ?? '';
  const email = attribute(profile, [
    'email',
    'mail',
    'urn:oid:0.9.2342.19200300.100.1.3',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  ]);
  return {
    assertionId: facts.id,
    inResponseTo,
    nameId,
    email: email ?? (/^[^\s@]+@[^\s@]+$/.test(nameId) ? nameId : null),
    displayName: attribute(profile, ['displayName', 'name', 'cn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name']),
    notOnOrAfter: facts.notOnOrAfter,
  };
}
