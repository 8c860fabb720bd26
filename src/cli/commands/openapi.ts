import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import type { Environment } from '../../core/endpoints.js';
import { buildOpenApiDocument } from '../../openapi/index.js';
import type { Product } from '../../schemas/product.js';
import { packageVersion } from '../version.js';

const products: readonly Product[] = ['collection', 'airtime', 'disbursement'];

interface OpenApiCommandOptions {
  environment: Environment;
  product?: Product;
  out?: string;
}

export function registerOpenApiCommand(program: Command): void {
  program
    .command('openapi')
    .description('Print the OpenAPI 3.1 document generated from the zod wire schemas.')
    .addOption(
      new Option('-e, --environment <environment>', 'whose paths and servers to describe')
        .choices(['sandbox', 'production'])
        .default('sandbox'),
    )
    .addOption(
      new Option('--product <product>', 'only this product (required for production)').choices(
        products,
      ),
    )
    .option('-o, --out <file>', 'write the document to this file instead of stdout')
    .action(async (options: OpenApiCommandOptions, command: Command) => {
      const { environment, product } = options;
      if (environment === 'production' && product === undefined) {
        command.error(
          'error: a production document covers one product (their paths overlap on separate ' +
            `hosts): add --product ${products.join('|')}.`,
        );
      }
      const version = packageVersion();
      const document =
        environment === 'production' && product !== undefined
          ? buildOpenApiDocument({ environment, product, version })
          : buildOpenApiDocument({
              environment: 'sandbox',
              version,
              ...(product !== undefined ? { product } : {}),
            });
      const json = `${JSON.stringify(document, null, 2)}\n`;
      if (options.out === undefined) {
        process.stdout.write(json);
        return;
      }
      try {
        await writeFile(options.out, json);
      } catch (error) {
        process.stderr.write(
          `pesakit openapi: cannot write ${options.out}: ${(error as Error).message}\n`,
        );
        process.exitCode = 1;
      }
    });
}
