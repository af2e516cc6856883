/** The webhook signature is the Standard Webhooks one: checked against the convention's published example. */
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../src/webhooks/signature.js';

// From the Standard Webhooks specification's example (github.com/standard-webhooks/standard-webhooks).
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TS = 1614265330;
const BODY = '{"test": 2432232314}';

describe('webhook signatures', () => {
  it('match the Standard Webhooks example', () => {
    expect(signWebhook(SECRET, ID, TS, BODY)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verify, and refuse another body, id, secret or a stale timestamp', () => {
    const signature = signWebhook(SECRET, ID, TS, BODY);
    const headers = { id: ID, timestamp: String(TS), signature: `v1,bogus ${signature}` };
    expect(verifyWebhook(SECRET, headers, BODY, { nowS: TS + 10 })).toBe(true);
    expect(verifyWebhook(SECRET, headers, `${BODY} `, { nowS: TS + 10 })).toBe(false);
    expect(verifyWebhook(SECRET, { ...headers, id: 'msg_other' }, BODY, { nowS: TS + 10 })).toBe(false);
    expect(verifyWebhook('whsec_b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldA==', headers, BODY, { nowS: TS + 10 })).toBe(false);
    expect(verifyWebhook(SECRET, headers, BODY, { nowS: TS + 3600 })).toBe(false);
  });
});
