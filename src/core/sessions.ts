import type { Product } from '../schemas/product.js';

/** Each product's token and its one login in flight, shared by concurrent calls. */
export class Sessions {
  readonly #tokens = new Map<Product, string>();
  readonly #logins = new Map<Product, Promise<string>>();
  readonly #login: (product: Product) => Promise<string>;

  /** `login` returns a new token; never called concurrently per product. */
  constructor(login: (product: Product) => Promise<string>) {
    this.#login = login;
  }

  token(product: Product): string | undefined {
    return this.#tokens.get(product);
  }

  setToken(product: Product, token: string | undefined): void {
    if (token === undefined) this.#tokens.delete(product);
    else this.#tokens.set(product, token);
  }

  /** The held token, or the token of a login (started now, or already in flight). */
  current(product: Product): Promise<string> {
    const token = this.#tokens.get(product);
    return token !== undefined ? Promise.resolve(token) : this.login(product);
  }

  /** A token to replace the refused `rejected`: another call's replacement, or one shared login. */
  renew(product: Product, rejected: string): Promise<string> {
    const token = this.#tokens.get(product);
    if (token !== undefined && token !== rejected) return Promise.resolve(token);
    if (token === rejected) this.#tokens.delete(product);
    return this.login(product);
  }

  /** Logs in, joining the login already in flight for `product` if there is one. */
  login(product: Product): Promise<string> {
    const inFlight = this.#logins.get(product);
    if (inFlight) return inFlight;
    const login = this.#login(product)
      .then((token) => {
        this.#tokens.set(product, token);
        return token;
      })
      .finally(() => this.#logins.delete(product));
    this.#logins.set(product, login);
    return login;
  }
}
