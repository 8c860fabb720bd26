import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/openapi/index.js';
import { documentedMaxAmount } from '../../src/openapi/schema-annotations.js';
import type { OpenApiOperation } from '../../src/openapi/types.js';
import { MAX_AMOUNT_TZS } from '../../src/schemas/amount.js';

/**
 * docs/openapi.json as a checker: which operation a request is, whether what a client sends and
 * what the sandbox answers is what the document says. An independent validator (Ajv, JSON Schema
 * 2020-12) reads the committed file, so the SDK, the sandbox and the document are held to it.
 */

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DOCUMENT_ID = 'urn:pesakit:openapi';

export const committedDocument = JSON.parse(
  readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'),
) as OpenApiDocument;

export interface FoundOperation {
  readonly path: string;
  readonly method: 'get' | 'post';
  readonly operation: OpenApiOperation;
}

export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  /** The body as sent: JSON text, a FormData upload, or nothing. */
  readonly body: string | FormData | undefined;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Media = { schema: unknown };

/** One document's checks. */
class DocumentContract {
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #routes: { pattern: RegExp; path: string; item: Record<string, OpenApiOperation> }[];

  constructor(readonly document: OpenApiDocument) {
    // `multipleOf: 0.01` against doubles: 0.29 / 0.01 is 28.999999999999996, a whole number of
    // cents; near the 1e9 bound a double is off by ~1e-5 cents, a third decimal by 0.1 at least.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 4 });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    this.#routes = Object.entries(document.paths).map(([path, item]) => ({
      path,
      item: item as Record<string, OpenApiOperation>,
      pattern: new RegExp(
        `^${withoutTrailingSlash(path)
          .replace(/\{\w+\}/g, '[^/]+')
          .replaceAll('.', '\\.')}/?$`,
      ),
    }));
  }

  /** The operation a method and URL name (a trailing slash either way, as the sandbox takes). */
  operationFor(method: string, url: string): FoundOperation | undefined {
    const { pathname } = new URL(url);
    const lower = method.toLowerCase();
    for (const route of this.#routes) {
      const operation = route.item[lower];
      if (operation !== undefined && route.pattern.test(pathname)) {
        return { path: route.path, method: lower as 'get' | 'post', operation };
      }
    }
    return undefined;
  }

  /** What is wrong with a request by the document; `[]` when it is a valid request. */
  checkRequest(request: SentRequest): string[] {
    const found = this.operationFor(request.method, request.url);
    if (found === undefined) {
      return [`${request.method} ${new URL(request.url).pathname} is no operation of the document`];
    }
    const { operation } = found;
    const problems: string[] = [];
    const security = operation.security ?? [];
    const open = security.length === 0 || security.some((entry) => Object.keys(entry).length === 0);
    if (!open && !/^Bearer \S+$/.test(request.headers.get('authorization') ?? '')) {
      problems.push('a bearer token is required and was not sent');
    }
    const body = operation.requestBody;
    if (request.body === undefined) {
      if (body?.required === true) problems.push('the request body is required');
      return problems;
    }
    if (typeof request.body === 'string') {
      const media = body?.content['application/json'] as Media | undefined;
      if (media === undefined) return [...problems, 'the operation takes no JSON body'];
      if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
        problems.push('a JSON body must be sent as application/json');
      }
      let value: unknown;
      try {
        value = JSON.parse(request.body);
      } catch {
        return [...problems, 'the body is not JSON'];
      }
      return [...problems, ...this.#check(media.schema, value, 'body')];
    }
    const media = body?.content['multipart/form-data'] as Media | undefined;
    if (media === undefined) return [...problems, 'the operation takes no multipart body'];
    const file = request.body.get('file');
    const fields: Record<string, unknown> = {};
    if (file !== null) {
      if (typeof file === 'string' || file.name === '') {
        problems.push('body.file must be a file part with a file name');
      }
      fields['file'] = 'file';
    }
    const batchId = request.body.get('batch_id');
    if (batchId !== null) fields['batch_id'] = batchId;
    return [...problems, ...this.#check(media.schema, fields, 'body')];
  }

  /** What is wrong with an answer to `found` by the document; `[]` when it is documented. */
  checkAnswer(found: FoundOperation, answer: Answer): string[] {
    const response = found.operation.responses[String(answer.status)];
    if (response === undefined) {
      return [`status ${answer.status} is not among the documented answers`];
    }
    const problems: string[] = [];
    if (answer.status === 429) {
      const retryAfter = answer.headers.get('retry-after');
      if (retryAfter !== null && !/^\d+$/.test(retryAfter)) {
        problems.push(`Retry-After ${JSON.stringify(retryAfter)} is not a number of seconds`);
      }
    }
    const media = response.content?.['application/json'] as Media | undefined;
    if (media === undefined) return problems;
    if (!/^application\/json\b/i.test(answer.headers.get('content-type') ?? '')) {
      problems.push(`the answer is ${answer.headers.get('content-type')}, not JSON`);
    }
    let value: unknown;
    try {
      value = JSON.parse(answer.text);
    } catch {
      return [...problems, 'the answer is not JSON'];
    }
    return [...problems, ...this.#check(media.schema, value, `${answer.status} body`)];
  }

  /** Whether a value is valid by a schema of the document (`$ref`s into its components). */
  isValid(schema: unknown, value: unknown): boolean {
    return this.#check(schema, value, 'value').length === 0;
  }

  #check(schema: unknown, value: unknown, where: string): string[] {
    const key = JSON.stringify(schema);
    let validate = this.#validators.get(key);
    if (validate === undefined) {
      validate = this.#ajv.compile(rooted(schema) as object);
      this.#validators.set(key, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}${error.instancePath.replaceAll('/', '.')} ${error.message}`,
    );
  }
}

const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

/** A schema whose `#/components/...` references point into the document registered with Ajv. */
function rooted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rooted);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? [key, `${DOCUMENT_ID}${value}`]
        : [key, rooted(value)],
    ),
  );
}

/**
 * The checks of several documents (the sandbox's, and each product's production one, whose
 * paths overlap): a request or answer is valid when an operation it could be finds it valid.
 */
export class OpenApiContract {
  readonly #documents: DocumentContract[];

  constructor(documents: readonly OpenApiDocument[] = [committedDocument]) {
    this.#documents = documents.map((document) => new DocumentContract(document));
  }

  /** The first document's operation for a method and URL, or undefined. */
  operationFor(method: string, url: string): FoundOperation | undefined {
    for (const document of this.#documents) {
      const found = document.operationFor(method, url);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  checkRequest(request: SentRequest): string[] {
    return (
      this.#fewest((document) =>
        document.operationFor(request.method, request.url) === undefined
          ? undefined
          : document.checkRequest(request),
      ) ?? [`${request.method} ${new URL(request.url).pathname} is no operation of the document`]
    );
  }

  checkAnswer(method: string, url: string, answer: Answer): string[] {
    return (
      this.#fewest((document) => {
        const found = document.operationFor(method, url);
        return found === undefined ? undefined : document.checkAnswer(found, answer);
      }) ?? []
    );
  }

  /** Whether a value is valid by a schema of the first document. */
  isValid(schema: unknown, value: unknown): boolean {
    return this.#documents[0]!.isValid(schema, value);
  }

  #fewest(check: (document: DocumentContract) => string[] | undefined): string[] | undefined {
    let best: string[] | undefined;
    for (const document of this.#documents) {
      const problems = check(document);
      if (problems !== undefined && (best === undefined || problems.length < best.length)) {
        best = problems;
      }
    }
    return best;
  }
}

/**
 * A fetch that checks every request it carries and every answer it gets against the document,
 * collecting violations for a test to assert on; it never changes what passes through.
 */
export function contractCheckedFetch(
  contract: OpenApiContract,
  violations: string[],
  pending: Promise<unknown>[],
  invalidOnPurpose: () => boolean = () => false,
  inner: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
): typeof globalThis.fetch {
  return async (input, init) => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const url = input instanceof Request ? input.url : String(input);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
    const body = init?.body;
    const sent: SentRequest = {
      method,
      url,
      headers,
      body: typeof body === 'string' || body instanceof FormData ? body : undefined,
    };
    const name = `${method} ${new URL(url).pathname}`;
    const requestProblems = contract.checkRequest(sent);
    // A test of a refusal sends an invalid request on purpose: it must then be refused (4xx).
    const expectRefusal = requestProblems.length > 0 && invalidOnPurpose();
    if (!expectRefusal) {
      for (const problem of requestProblems) violations.push(`${name} request: ${problem}`);
    }
    const response = await inner(input, init);
    if (expectRefusal && !(response.status >= 400 && response.status < 500)) {
      violations.push(
        `${name}: a request invalid by the document (${requestProblems.join('; ')}) was answered ${response.status}`,
      );
    }
    const copy = response.clone();
    pending.push(
      copy.text().then(
        (text) => {
          const answer = { status: response.status, headers: response.headers, text };
          for (const problem of contract.checkAnswer(method, url, answer)) {
            violations.push(`${name} answer ${response.status}: ${problem}`);
          }
        },
        () => undefined,
      ),
    );
    return response;
  };
}

/**
 * The contract check of the integration tests: while `enabled`, every client the harness builds
 * without a fetch of its own goes through {@link contractCheckedFetch}; the setup file asserts
 * after each test that nothing broke the document.
 */
export const contractCheck = {
  enabled: false,
  /** Set by {@link sendsInvalidOnPurpose} for one test; the setup file clears it. */
  invalidOnPurpose: false,
  violations: [] as string[],
  pending: [] as Promise<unknown>[],
};

/**
 * For a test of the platform's refusal: the SDK sends a request the document calls invalid
 * (an amount above the sandbox's maximum, which the SDK cannot know). Such a request must
 * then be refused with a 4xx; its answer is still checked against the document.
 */
export function sendsInvalidOnPurpose(): void {
  contractCheck.invalidOnPurpose = true;
}

const contracts = new Map<number, OpenApiContract>();

/**
 * The documents a sandbox started with `maxAmount` answers by: the committed ones with that
 * maximum (the option the document names), the sandbox's and each product's production paths.
 */
function contractFor(maxAmount: number): OpenApiContract {
  let contract = contracts.get(maxAmount);
  if (contract === undefined) {
    const products = ['collection', 'airtime', 'disbursement'] as const;
    const documents = [
      committedDocument,
      ...products.map((product) =>
        buildOpenApiDocument({ environment: 'production', product, version: '0' }),
      ),
    ].map((document) => withMaximum(document, maxAmount));
    contract = new OpenApiContract(documents);
    contracts.set(maxAmount, contract);
  }
  return contract;
}

function withMaximum(document: OpenApiDocument, maxAmount: number): OpenApiDocument {
  const documented = documentedMaxAmount('sandbox');
  return JSON.parse(JSON.stringify(document), (key, value) =>
    key === 'maximum' && (value === documented || value === MAX_AMOUNT_TZS) ? maxAmount : value,
  ) as OpenApiDocument;
}

/** The fetch a harness client gets: checked while the contract check is on, else undefined. */
export function harnessFetch(
  options: { maxAmount?: number } = {},
): typeof globalThis.fetch | undefined {
  if (!contractCheck.enabled) return undefined;
  return contractCheckedFetch(
    contractFor(options.maxAmount ?? documentedMaxAmount('sandbox')),
    contractCheck.violations,
    contractCheck.pending,
    () => contractCheck.invalidOnPurpose,
  );
}
