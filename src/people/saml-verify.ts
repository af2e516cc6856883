/**
 * Verification of a SAML response posted to the assertion consumer service, with @node-saml/node-saml. It runs in a
 * parse-pool thread (`saml.verify`, src/parse-threads/operations.ts): the posted XML is untrusted until its signature is
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

type Attrs<T extends string> = { $?: Partial<Record<T, string>> };
interface ParsedAssertion {
  Assertion?: Attrs<'ID'> & {
    Conditions?: Array<Attrs<'NotOnOrAfter'>>;
    Subject?: Array<{ SubjectConfirmation?: Array<{ SubjectConfirmationData?: Array<Attrs<'InResponseTo' | 'NotOnOrAfter' | 'Recipient'>> }> }>;
  };
}

/** The assertion's ID, its NotOnOrAfter and its bearer confirmations, from node-saml's parsed (signed) assertion. */
function assertionFacts(assertion: unknown) {
  const root = (assertion as ParsedAssertion | undefined)?.Assertion;
  const confirmations = (root?.Subject?.[0]?.SubjectConfirmation ?? []).map((c) => c.SubjectConfirmationData?.[0]?.$ ?? {});
  return { id: root?.$?.ID ?? null, notOnOrAfter: root?.Conditions?.[0]?.$?.NotOnOrAfter ?? null, confirmations };
}

/**
 * The request the signed assertion answers: a subject confirmation of the assertion (signed, unlike the response around
 * it) must name the response's InResponseTo, be for Folio's ACS and still be valid.
 */
function confirmedRequest(facts: ReturnType<typeof assertionFacts>, responseInResponseTo: string | null, options: SamlVerifyOptions): string {
  const now = Date.now();
  const valid = facts.confirmations.find(
    (c) =>
      c.InResponseTo !== undefined &&
      (responseInResponseTo === null || c.InResponseTo === responseInResponseTo) &&
      (c.Recipient === undefined || c.Recipient === options.acsUrl) &&
      (c.NotOnOrAfter === undefined || Date.parse(c.NotOnOrAfter) + options.clockSkewMs > now),
  );
  if (!valid?.InResponseTo)
    throw new SamlRejectedError(
      'no valid subject confirmation answers a request of Folio (InResponseTo, Recipient or NotOnOrAfter): IdP-initiated logins are not accepted',
    );
  return valid.InResponseTo;
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
  if (!facts.id) throw new SamlRejectedError('the assertion has no ID');
  const inResponseTo = confirmedRequest(facts, first(profile.inResponseTo), options);
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
