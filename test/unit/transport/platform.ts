import type { Transport } from '../../../src/core/transport.js';
import type { TransportEvents } from '../../../src/core/transport-events.js';

/** A host nock answers for; nothing listens there. */
export const origin = 'http://platform.test';

export const airtimeCredentials = { email: 'duka@example.co.tz', password: 'hunter2-Secret!' };

/** What a successful airtime login answers. */
export function airtimeLoginAnswer(token: string) {
  return { token, token_type: 'Bearer', user: airtimeUser };
}

export const airtimeUser = {
  id: 7,
  name: 'Duka la Mama',
  email: 'duka@example.co.tz',
  phone: '255744000001',
  role_id: 2,
  status: 'active',
  wallet: { balance: 25_000 },
};

export const purchase = { msisdn: '255744123456', amount: 1000 };

export const initiation = {
  message: 'Payment initiated',
  status: 'pending',
  controlNumber: '991234567890',
  reference: 'ENG-1',
  amount: 1000,
};

/** Every event the transport emits, in order, by name. */
export function recordEvents(transport: Transport) {
  const seen: { [E in keyof TransportEvents]: TransportEvents[E][0][] } = {
    request: [],
    response: [],
    retry: [],
    error: [],
    warning: [],
  };
  transport.events.on('request', (event) => seen.request.push(event));
  transport.events.on('response', (event) => seen.response.push(event));
  transport.events.on('retry', (event) => seen.retry.push(event));
  transport.events.on('error', (event) => seen.error.push(event));
  transport.events.on('warning', (event) => seen.warning.push(event));
  return seen;
}
