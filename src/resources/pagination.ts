import { type LastResponse, withLastResponse } from '../core/last-response.js';

/**
 * One page of a Laravel length-aware paginator, and the way to the next. Iterating a
 * `PagePromise` with `for await` walks every item on every page (openai-node's pattern).
 */
export interface Page<Item> {
  readonly data: Item[];
  readonly currentPage: number;
  readonly lastPage: number;
  readonly perPage: number;
  readonly total: number;
  /** The HTTP response this page came in (not enumerable). */
  readonly lastResponse: LastResponse;
  hasNextPage(): boolean;
  /** The following page, or `undefined` on the last one. */
  getNextPage(): Promise<Page<Item> | undefined>;
}

export type PageFetcher<Item> = (
  page: number,
) => Promise<Omit<Page<Item>, 'hasNextPage' | 'getNextPage'>>;

async function fetchPage<Item>(fetcher: PageFetcher<Item>, page: number): Promise<Page<Item>> {
  const raw = await fetcher(page);
  const { currentPage, lastPage } = raw;
  return withLastResponse(
    {
      ...raw,
      hasNextPage: () => currentPage < lastPage,
      getNextPage: () =>
        currentPage < lastPage ? fetchPage(fetcher, currentPage + 1) : Promise.resolve(undefined),
    },
    raw.lastResponse,
  );
}

/**
 * Await it for the first page, `for await` it for every item, `.pages()` for every page; lazy.
 * Items can shift between pages while you iterate: match by `txnid`/`refid`, not position.
 */
export class PagePromise<Item> extends Promise<Page<Item>> implements AsyncIterable<Item> {
  // `then`/`catch`/`finally` return plain promises; the base promise itself is never settled.
  static override get [Symbol.species]() {
    return Promise;
  }
  readonly #fetcher: PageFetcher<Item>;
  readonly #firstPage: number;
  #first: Promise<Page<Item>> | undefined;

  constructor(fetcher: PageFetcher<Item>, firstPage = 1) {
    super(() => {});
    this.#fetcher = fetcher;
    this.#firstPage = firstPage;
  }

  #firstPagePromise(): Promise<Page<Item>> {
    this.#first ??= fetchPage(this.#fetcher, this.#firstPage);
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: `catch`, `finally` and `await` go through it, lazily.
  override then<A = Page<Item>, B = never>(
    onFulfilled?: ((value: Page<Item>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPagePromise().then(onFulfilled, onRejected);
  }

  async *pages(): AsyncGenerator<Page<Item>> {
    let page: Page<Item> | undefined = await this.#firstPagePromise();
    while (page) {
      yield page;
      page = await page.getNextPage();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const page of this.pages()) yield* page.data;
  }
}
