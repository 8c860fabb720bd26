import { guardFor, PesakitError } from './pesakit-error.js';

/** A `new Pesakit()` option cannot work; thrown at construction. Fix the option `option` names. */
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
