import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BulkInsufficientFundsError } from '../../src/errors/bulk-insufficient-funds-error.js';
import {
  AmbiguousOutcomeError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  DuplicateReferenceError,
  errorFromResponse,
  InsufficientFundsError,
  InvalidTransitionError,
  isAmbiguousOutcomeError,
  isApiError,
  isAuthenticationError,
  isBadRequestError,
  isConflictError,
  isConnectionError,
  isInsufficientFundsError,
  isNotFoundError,
  isPermissionError,
  isPesakitError,
  isRateLimitError,
  isRequestValidationError,
  isResponseValidationError,
  isServerError,
  isTimeoutError,
  isValidationError,
  NotFoundError,
  PermissionError,
  PesakitError,
  parseRetryAfter,
  RateLimitError,
  ReferenceConflictError,
  RequestAbortedError,
  RequestValidationError,
  ResponseValidationError,
  ServerError,
  StoreError,
  StoreInputError,
  TimeoutError,
  TransactionNotFoundError,
  ValidationError,
} from '../../src/errors/index.js';
import type { TransactionRecord } from '../../src/references/record.js';
import { LeaseLostError } from '../../src/references/schedule/lease-lost-error.js';
import { AnswerContradictsRequestError } from '../../src/resources/answer-contradicts-request-error.js';
import { BatchAlreadyRunError } from '../../src/resources/bulk/batch-already-run-error.js';
import { BatchMismatchError } from '../../src/resources/bulk/batch-mismatch-error.js';
import { BulkValidationError } from '../../src/resources/bulk/bulk-validation-error.js';
import { RecordNotVisibleError } from '../../src/resources/record-not-visible-error.js';
import { SpreadsheetError } from '../../src/spreadsheets/spreadsheet-error.js';

const request = { method: 'POST', path: '/api/sandbox/disbursement/payment' };

function respond(status: number, body: unknown = { message: 'Nope.' }, headers = new Headers()) {
  return errorFromResponse({ ...request, status, body, headers });
}

describe('One factory maps each status to its class', () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, ValidationError],
    [429, RateLimitError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
  ])('%i → %o', (status, Class) => {
    const error = respond(status);
    expect(error).toBeInstanceOf(Class);
    expect(error.constructor).toBe(Class);
    expect(error).toMatchObject({ status, method: 'POST', path: request.path });
  });

  it.each([402, 405, 418])('%i (no meaning of its own) → ApiError', (status) => {
    expect(respond(status).constructor).toBe(ApiError);
  });

  it('keeps the body, headers and x-request-id', () => {
    const headers = new Headers({ 'x-request-id': 'req-42' });
    const error = respond(500, 'upstream down', headers);
    expect(error).toMatchObject({ body: 'upstream down', requestId: 'req-42' });
    expect(error.headers.get('x-request-id')).toBe('req-42');
  });

  it('a 422 carries the per-field errors as a map', () => {
    const errors = { 'data.amount': ['The data.amount field is required.'] };
    const error = respond(422, { message: 'The data.amount field is required.', errors });
    expect(isValidationError(error)).toBe(true);
    expect((error as ValidationError).errors).toEqual(errors);
  });
});

describe('An insufficient wallet is told apart from other 422s', () => {
  it('by code insufficient_funds', () => {
    const error = respond(422, { message: 'Declined.', code: 'insufficient_funds' });
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(isValidationError(error)).toBe(true);
  });

  it.each(['Insufficient balance.', 'Insufficient wallet balance', 'Not enough funds'])(
    'by the message %j when the code is absent',
    (message) => {
      expect(respond(422, { message })).toBeInstanceOf(InsufficientFundsError);
    },
  );

  it('not for a plain validation failure', () => {
    const error = respond(422, { message: 'The msisdn field is required.', errors: {} });
    expect(isInsufficientFundsError(error)).toBe(false);
  });

  it('not for a non-422 that mentions funds', () => {
    expect(respond(400, { message: 'Insufficient balance.' })).toBeInstanceOf(BadRequestError);
  });
});

describe('Messages say what happened and what to do', () => {
  it.each([
    [400, /MSISDN/],
    [401, /credentials/],
    [403, /activated/],
    [404, /reference or path/],
    [422, /errors/],
    [429, /retryAfterMs/],
    [500, /reconcile/],
  ])('%i', (status, advice) => {
    const error = respond(status, { message: 'Platform said so.' });
    expect(error.message).toContain(`POST ${request.path} failed with ${status}`);
    expect(error.message).toContain('Platform said so.');
    expect(error.message).toMatch(advice);
  });

  it('an insufficient wallet says to top up; nothing was debited', () => {
    expect(respond(422, { message: 'x', code: 'insufficient_funds' }).message).toMatch(
      /Top up.*nothing was debited/,
    );
  });

  it('an ambiguous outcome says not to resend and to reconcile the merchant reference', () => {
    const error = new AmbiguousOutcomeError(request, 'ord-1');
    expect(error.message).toMatch(/do not resend.*merchant reference ord-1/);
  });

  it('a timeout names the limit and the option', () => {
    expect(new TimeoutError(request, 1500).message).toMatch(/1500 ms.*timeoutMs/);
  });
});

describe('Guards recognise each class, also across realms (by name)', () => {
  const guards = [
    [isBadRequestError, 400],
    [isAuthenticationError, 401],
    [isPermissionError, 403],
    [isNotFoundError, 404],
    [isValidationError, 422],
    [isRateLimitError, 429],
    [isServerError, 500],
  ] as const;

  it.each(guards)('%o accepts its own class and no other status', (guard, status) => {
    expect(guard(respond(status))).toBe(true);
    const other = status === 400 ? 404 : 400;
    expect(guard(respond(other))).toBe(false);
    expect(guard(new Error('plain'))).toBe(false);
    expect(guard(undefined)).toBe(false);
  });

  it('an error from another copy of pesakit is recognised by its name', () => {
    const foreign = Object.assign(new Error('from another bundle'), { name: 'RateLimitError' });
    expect(isRateLimitError(foreign)).toBe(true);
    expect(isApiError(foreign)).toBe(true);
    const insufficient = Object.assign(new Error('x'), { name: 'InsufficientFundsError' });
    expect(isInsufficientFundsError(insufficient)).toBe(true);
    expect(isValidationError(insufficient)).toBe(true);
    expect(isTimeoutError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe(true);
    expect(
      isAmbiguousOutcomeError(Object.assign(new Error('x'), { name: 'AmbiguousOutcomeError' })),
    ).toBe(true);
    expect(
      isResponseValidationError(Object.assign(new Error('x'), { name: 'ResponseValidationError' })),
    ).toBe(true);
  });

  it('every pesakit error is a PesakitError; a timeout is a ConnectionError', () => {
    expect(isPesakitError(respond(500))).toBe(true);
    expect(isPesakitError(new AmbiguousOutcomeError(request, 'ref-1'))).toBe(true);
    expect(new TimeoutError(request, 10)).toBeInstanceOf(ConnectionError);
    expect(new ConnectionError('x', request)).toBeInstanceOf(PesakitError);
    expect(isApiError(new ConnectionError('x', request))).toBe(false);
  });
});

describe('Retry-After is read as openai-node reads it', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  const headers = (init: Record<string, string>) => new Headers(init);

  it('retry-after-ms is milliseconds and wins', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(
      250,
    );
  });

  it('Retry-After in seconds', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
  });

  it('Retry-After as an HTTP date', () => {
    const inFiveSeconds = new Date(now + 5000).toUTCString();
    expect(parseRetryAfter(headers({ 'retry-after': inFiveSeconds }), now)).toBe(5000);
    const past = new Date(now - 5000).toUTCString();
    expect(parseRetryAfter(headers({ 'retry-after': past }), now)).toBe(0);
  });

  it.each([{}, { 'retry-after': 'soon' }, { 'retry-after-ms': '-1' }, { 'retry-after': '' }])(
    'nothing usable in %o',
    (init) => {
      expect(parseRetryAfter(headers(init), now)).toBeUndefined();
    },
  );

  it('RateLimitError exposes it as retryAfterMs', () => {
    const error = respond(429, { message: 'Too Many Attempts.' }, headers({ 'retry-after': '3' }));
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });
});

describe('Every error has a stable code, one per class', () => {
  const info = { method: 'POST', path: '/p' };
  it.each([
    [new PesakitError('x'), 'pesakit_error'],
    [new AmbiguousOutcomeError(info, 'order-1'), 'ambiguous_outcome'],
    [new ConfigurationError('baseUrl', 'x'), 'configuration_error'],
    [new ConnectionError('x', info), 'connection_error'],
    [new TimeoutError(info, 5), 'timeout'],
    [new RequestAbortedError(info, 'stop'), 'request_aborted'],
    [new ResponseValidationError({ ...info, status: 200 }, {}, []), 'response_validation'],
    [new DuplicateReferenceError('order-1'), 'duplicate_reference'],
    [new TransactionNotFoundError('order-1'), 'transaction_not_found'],
    [new StoreInputError('records.create', { amount: ['x'] }), 'store_input'],
    [
      new InvalidTransitionError({ merchantReference: 'o', from: 'success', to: 'failed' }),
      'invalid_transition',
    ],
    [
      new ReferenceConflictError({
        merchantReference: 'o',
        field: 'f',
        existing: 'a',
        attempted: 'b',
      }),
      'reference_conflict',
    ],
    [new RequestValidationError('initiateMno', { amount: ['x'] }), 'request_validation'],
    [respond(302), 'api_error'],
    [respond(400), 'bad_request'],
    [respond(401), 'authentication_error'],
    [respond(403), 'permission_denied'],
    [respond(404), 'not_found'],
    [respond(409), 'conflict'],
    [respond(422), 'validation_error'],
    [respond(422, { message: 'Declined.', code: 'insufficient_funds' }), 'insufficient_funds'],
    [respond(429), 'rate_limited'],
    [respond(503), 'server_error'],
  ] as const)('%o has code %s', (error, code) => {
    expect(error.code).toBe(code);
    expect(isPesakitError(error)).toBe(true);
  });

  it("a StoreError's message never shows a connection string's password", () => {
    const error = new StoreError('open', new Error('no server at postgres://shop:pw-9x@db/pay'));
    expect(error.message).toContain('postgres://shop:***@db/pay');
  });

  it('messages read naturally, with no "a" before a vowel', () => {
    const error = new InvalidTransitionError({ merchantReference: 'o', from: 'unknown', to: 'x' });
    expect(error.message).toContain('a transaction in unknown cannot become x');
  });

  it("the platform's own code is platformCode, as it sent it", () => {
    const declined = respond(422, { message: 'Declined.', code: 'insufficient_funds' });
    expect(declined.platformCode).toBe('insufficient_funds');
    expect(respond(400, { message: 'Nope.' }).platformCode).toBeUndefined();
    expect(respond(500, 'not json').platformCode).toBeUndefined();
  });

  it('409 → ConflictError, found by isConflictError and isApiError', () => {
    const error = respond(409, { message: 'Already processed.', code: 'duplicate' });
    expect(isConflictError(error)).toBe(true);
    expect(isApiError(error)).toBe(true);
    expect(error.code).toBe('conflict');
    expect(error.platformCode).toBe('duplicate');
    expect(error.message).toMatch(/Pull the current state/);
    expect(isConflictError(Object.assign(new Error('x'), { name: 'ConflictError' }))).toBe(true);
  });
});

describe('A client-side validation error is a ValidationError too', () => {
  const errors = { amount: ['The amount may not be greater than 1000000000.'] };

  it('isValidationError matches it; source and code tell it apart from a 422', () => {
    const error = new RequestValidationError('initiateMno', errors, request);
    expect(isValidationError(error)).toBe(true);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(PesakitError);
    expect(error.errors).toEqual(errors);
    expect(error).toMatchObject({
      source: 'client',
      code: 'request_validation',
      status: 422,
      operation: 'initiateMno',
      method: 'POST',
    });
    expect(error.message).toMatch(/Nothing was sent/);
    const platform = respond(422, { message: 'x', errors });
    expect((platform as ValidationError).source).toBe('platform');
    expect(isRequestValidationError(platform)).toBe(false);
  });

  it('the guard works across copies of the package (by name)', () => {
    const foreign = Object.assign(new Error('x'), { name: 'RequestValidationError' });
    expect(isValidationError(foreign)).toBe(true);
    expect(isApiError(foreign)).toBe(true);
  });
});

describe('Every exported error class has its own code, listed in docs/errors.md', () => {
  const info = { method: 'POST', path: '/p' };
  const spreadsheetCodes = [
    'corrupt_file',
    'too_large',
    'xlsx_support_missing',
    'unsupported_format',
    'missing_column',
    'duplicate_column',
    'too_many_rows',
    'empty_file',
  ] as const;
  const problem = { row: 1, field: 'msisdn', message: 'Row 1: x' };
  const noRows = {
    rows: 0,
    amount: 0,
    amountSucceeded: 0,
    amountSucceededNow: 0,
    done: 0,
    succeeded: 0,
    failed: 0,
    pending: 0,
    unknown: 0,
    skipped: 0,
    sent: 0,
  };
  const instances: PesakitError[] = [
    new PesakitError('x'),
    new AmbiguousOutcomeError(info, 'order-1'),
    new ConfigurationError('baseUrl', 'x'),
    new ConnectionError('x', info),
    new TimeoutError(info, 5),
    new RequestAbortedError(info, 'stop'),
    new ResponseValidationError({ ...info, status: 200 }, {}, []),
    new AnswerContradictsRequestError({ merchantReference: 'order-1' } as TransactionRecord, [
      { field: 'amount', asked: 1000, answered: 10000 },
    ]),
    new DuplicateReferenceError('order-1'),
    new TransactionNotFoundError('order-1'),
    new StoreInputError('records.create', { amount: ['x'] }),
    new StoreError('records.create', new Error('database is locked')),
    new InvalidTransitionError({ merchantReference: 'o', from: 'success', to: 'failed' }),
    new ReferenceConflictError({
      merchantReference: 'o',
      field: 'f',
      existing: 'a',
      attempted: 'b',
    }),
    new RequestValidationError('initiateMno', { amount: ['x'] }),
    ...[302, 400, 401, 403, 404, 409, 422, 429, 503].map((status) => respond(status)),
    respond(422, { message: 'Declined.', code: 'insufficient_funds' }),
    new LeaseLostError('order-1'),
    new RecordNotVisibleError({
      code: 'not_visible',
      merchantReference: 'order-1',
      product: 'collection',
      recordAccount: { environment: 'production', login: 'shop@duka.co.tz' },
      clientAccount: { environment: 'sandbox', login: 'shop@duka.co.tz' },
      message: 'x',
    }),
    new BatchMismatchError('batch-1', []),
    new BatchAlreadyRunError({ batchId: 'batch-1', rows: [], totals: noRows }, new Date(0), false),
    new BulkValidationError('airtimeBulkPurchase', [problem]),
    new BulkInsufficientFundsError(1, 2),
    ...spreadsheetCodes.map((code) => new SpreadsheetError(code, 'x')),
  ];

  it('each error is named after its class, as logs and the CLI print it', () => {
    for (const error of instances) expect(error.name).toBe(error.constructor.name);
  });

  it('each code belongs to one class, and each exported class to its codes', async () => {
    const entries = await Promise.all([
      import('../../src/index.js'),
      import('../../src/sqlite.js'),
      import('../../src/postgres.js'),
      import('../../src/express.js'),
      import('../../src/fastify.js'),
    ]);
    const exported = new Set(
      entries
        .flatMap((entry) => Object.values(entry))
        .filter(
          (value): value is typeof PesakitError =>
            value === PesakitError ||
            (typeof value === 'function' && value.prototype instanceof PesakitError),
        ),
    );
    const codesOf = new Map<unknown, Set<string>>();
    const classOf = new Map<string, unknown>();
    for (const error of instances) {
      codesOf.set(error.constructor, (codesOf.get(error.constructor) ?? new Set()).add(error.code));
      expect(classOf.get(error.code) ?? error.constructor, error.code).toBe(error.constructor);
      classOf.set(error.code, error.constructor);
    }
    expect(new Set(codesOf.keys())).toEqual(exported);

    const doc = readFileSync('docs/errors.md', 'utf8');
    for (const [type, codes] of codesOf) {
      const name = (type as { name: string }).name;
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${name}\` | \``));
      expect(row, `docs/errors.md lists ${name}`).toBeDefined();
      const listed = row?.split('|')[2]?.match(/`[a-z_]+`/g) ?? [];
      expect(new Set(listed.map((code) => code.slice(1, -1))), name).toEqual(codes);
    }
  });
});
