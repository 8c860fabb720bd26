import { guardFor, PesakitError } from './pesakit-error.js';

/**
 * An option given to `new Pesakit()` (or `new Transport()`) cannot work: an empty password, no
 * base URL, a production client without the host of a product it has credentials for. Thrown
 * at construction, so a misconfiguration never reaches a payment. `option` names the option.
 */
export class ConfigurationError extends PesakitError {
  override name = 'ConfigurationError' as string;
  override readonly code = 'configuration_error' as const;
  /** The option to fix, as written in the options object: `credentials.collection.password`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

export const isConfigurationError = guardFor(ConfigurationError, 'ConfigurationError');
