import type { z } from 'zod';
import type { Product } from '../schemas/product.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as zod emits it. */
export type JsonSchema = z.core.JSONSchema.BaseSchema;
export type OpenApiReference = { readonly $ref: string };
export type OpenApiMediaType = { readonly schema: JsonSchema | OpenApiReference };
export interface OpenApiHeader {
  readonly description: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}
export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, OpenApiHeader>>;
  readonly content?: Readonly<Record<'application/json', OpenApiMediaType>>;
}
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
type Described = { readonly description: string };
export type OpenApiSecurityScheme = Described &
  (
    | { readonly type: 'http'; readonly scheme: 'bearer' }
    | { readonly type: 'apiKey'; readonly in: 'header'; readonly name: string }
  );
export interface OpenApiServer extends Described {
  readonly url: string;
  readonly variables?: Readonly<Record<string, Described & { readonly default: string }>>;
}

/** The OpenAPI 3.1 document {@link buildOpenApiDocument} returns: plain JSON, ready to print. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly jsonSchemaDialect: string;
  readonly info: Described & {
    readonly title: string;
    readonly version: string;
    readonly license: { readonly name: string; readonly identifier: string };
  };
  readonly servers: readonly OpenApiServer[];
  readonly tags: readonly (Described & { readonly name: Product })[];
  readonly paths: Readonly<Record<string, OpenApiPathItem>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, OpenApiSecurityScheme>>;
  };
}

/** A production document covers one product (products share paths); the sandbox covers all. */
export type OpenApiOptions = {
  /** The document's `info.version`: pesakit's package version, which versions these shapes. */
  readonly version: string;
} & (
  | { readonly environment: 'sandbox'; readonly product?: Product }
  | { readonly environment: 'production'; readonly product: Product }
);
