import type { z } from 'zod';
import type { Product } from '../core/endpoints.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as zod emits it. */
export type JsonSchema = z.core.JSONSchema.BaseSchema;

/** A reference to another part of the same document (`#/components/...`). */
export interface OpenApiReference {
  readonly $ref: string;
}

export interface OpenApiMediaType {
  readonly schema: JsonSchema | OpenApiReference;
}

export interface OpenApiResponse {
  readonly description: string;
  readonly content?: Readonly<Record<'application/json', OpenApiMediaType>>;
}

/** JSON for every route but the bulk upload, which takes a file (`multipart/form-data`). */
export type OpenApiRequestMediaType = 'application/json' | 'multipart/form-data';

export interface OpenApiRequestBody {
  readonly description?: string;
  readonly required: boolean;
  readonly content: Readonly<Partial<Record<OpenApiRequestMediaType, OpenApiMediaType>>>;
}

export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'header' | 'query';
  readonly required: boolean;
  readonly description: string;
  readonly schema: JsonSchema;
  /** `deepObject` for an object in the query string (`data[amount]=1000`). */
  readonly style?: 'deepObject';
  readonly explode?: boolean;
}

/** Each entry names one way to authenticate; an empty entry means "no credentials" is allowed. */
export type OpenApiSecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OpenApiOperation {
  readonly operationId: string;
  readonly tags: readonly Product[];
  readonly summary: string;
  readonly description?: string;
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: OpenApiRequestBody;
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
  readonly security?: readonly OpenApiSecurityRequirement[];
}

export type OpenApiPathItem = Partial<Record<'get' | 'post', OpenApiOperation>>;

export type OpenApiSecurityScheme =
  | { readonly type: 'http'; readonly scheme: 'bearer'; readonly description: string }
  | {
      readonly type: 'apiKey';
      readonly in: 'header';
      readonly name: string;
      readonly description: string;
    };

export interface OpenApiServer {
  readonly url: string;
  readonly description: string;
  readonly variables?: Readonly<
    Record<string, { readonly default: string; readonly description: string }>
  >;
}

/** The OpenAPI 3.1 document {@link buildOpenApiDocument} returns: plain JSON, ready to print. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly jsonSchemaDialect: string;
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description: string;
    readonly license: { readonly name: string; readonly identifier: string };
  };
  readonly servers: readonly OpenApiServer[];
  readonly tags: readonly { readonly name: Product; readonly description: string }[];
  readonly paths: Readonly<Record<string, OpenApiPathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, OpenApiSecurityScheme>>;
  };
}

/**
 * What {@link buildOpenApiDocument} describes. Production products share paths on separate
 * hosts, so a production document covers one `product`; the sandbox covers all three.
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
