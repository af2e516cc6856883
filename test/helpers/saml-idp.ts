/**
 * A SAML identity provider on loopback for the SSO tests: it receives Folio's AuthnRequest (HTTP-Redirect binding),
 * and answers what a browser would post back to Folio's ACS — a SAML response whose assertion is signed with
 * @node-saml/node-saml's own signing (the library Folio verifies with). `respond` builds responses with one defect
 * at a time (forged key, unsigned, expired, wrong audience, altered after signing) for the refusal tests.
 * Keys and certificates are made for the run with the `openssl` command, in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { signXml } from '@node-saml/node-saml/lib/xml.js';

export interface KeyPair {
  key: string;
  cert: string;
}

/** A fresh RSA key and its self-signed certificate. */
export function makeKeyPair(cn: string): KeyPair {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-saml-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${cn}`], {
      stdio: 'ignore',
    });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface LoginRequest {
  id: string;
  acs: string;
  /** The SP's entity id (the AuthnRequest's Issuer). */
  issuer: string;
  relayState: string;
}

export interface ResponseOptions {
  request: LoginRequest;
  email: string;
  displayName?: string;
  /** Who signs the assertion: the IdP (default), another key, or nobody. */
  signer?: 'idp' | 'attacker' | 'none';
  audience?: string;
  /** Seconds from now the assertion stays valid (negative: expired). */
  validForSeconds?: number;
  /** Change the assertion after it was signed (a tampered e-mail). */
  tamperEmail?: string;
  /** Leave InResponseTo out everywhere (an IdP-initiated login). */
  unsolicited?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export class SamlIdp {
  readonly entityId: string;
  readonly key: KeyPair;
  readonly attacker: KeyPair;
  readonly requests: LoginRequest[] = [];
  private server: Server | null = null;
  ssoUrl = '';

  constructor() {
    this.key = makeKeyPair('folio-test-idp');
    this.attacker = makeKeyPair('folio-test-attacker');
    this.entityId = `https://idp.test/${randomBytes(4).toString('hex')}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://idp');
      const encoded = url.searchParams.get('SAMLRequest');
      if (url.pathname !== '/sso' || !encoded) {
        res.writeHead(404).end();
        return;
      }
      const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
      const request: LoginRequest = {
        id: /\sID="([^"]+)"/.exec(xml)?.[1] ?? '',
        acs: /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? '',
        issuer: /<saml:Issuer[^>]*>([^<]+)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
        relayState: url.searchParams.get('RelayState') ?? '',
      };
      this.requests.push(request);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.ssoUrl = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/sso`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A base64 SAML response to `request`, as the browser posts it to the ACS. */
  respond(options: ResponseOptions): string {
    const now = Date.now();
    const until = now + (options.validForSeconds ?? 300) * 1000;
    const irt = options.unsolicited ? '' : ` InResponseTo="${esc(options.request.id)}"`;
    const assertionId = `_a${randomBytes(16).toString('hex')}`;
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
      `<saml:Issuer>${esc(this.entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(options.email)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(until)}" Recipient="${esc(options.request.acs)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(now - 60_000)}" NotOnOrAfter="${iso(until)}"><saml:AudienceRestriction><saml:Audience>${esc(options.audience ?? options.request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomBytes(8).toString('hex')}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${esc(options.email)}</saml:AttributeValue></saml:Attribute>` +
      `<saml:Attribute Name="displayName"><saml:AttributeValue>${esc(options.displayName ?? 'SSO Person')}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
      `</saml:Assertion>`;
    let xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(options.request.acs)}"${irt}>` +
      `<saml:Issuer>${esc(this.entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertion}</samlp:Response>`;
    const signer = options.signer ?? 'idp';
    if (signer !== 'none') {
      const pair = signer === 'idp' ? this.key : this.attacker;
      xml = signXml(
        xml,
        "//*[local-name(.)='Assertion']",
        { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
        { privateKey: pair.key, publicCert: pair.cert, signatureAlgorithm: 'sha256', digestAlgorithm: 'sha256' },
      );
    }
    if (options.tamperEmail) xml = xml.split(esc(options.email)).join(esc(options.tamperEmail));
    return Buffer.from(xml, 'utf8').toString('base64');
  }
}
