import type { Product } from '../core/endpoints.js';

/**
 * What {@link buildOpenApiDocument} describes.
 *
 * In production each product answers on its own host and their paths overlap (`/api/login` is
 * collection's, airtime's and disbursement's), which one OpenAPI document cannot hold: its paths
 * are unique keys. So a production document covers one `product`; the sandbox, one host with a
 * prefix per product, can cover all three.
 *
 * @example buildOpenApiDocument({ environment: 'sandbox', version: '0.1.0' })
 * @example buildOpenApiDocument({ environment: 'production', product: 'airtime', version: '0.1.0' })
 */
export type OpenApiOptions = {
  /** The document's `info.version`: pesakit's package version, which versions these shapes. */
  readonly version: string;
} & (
  | {
      readonly environment: 'sandbox';
      /** Only this product's operations. @default all three */
      readonly product?: Product;
    }
  | {
      readonly environment: 'production';
      /** The product whose host the document describes. */
      readonly product: Product;
    }
);
