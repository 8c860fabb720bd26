// `pesakit/otel`: OpenTelemetry spans and metrics from pesakit's diagnostics channels.
export {
  type InstrumentPesakitOptions,
  instrumentPesakit,
  type PesakitInstrumentation,
} from './otel/instrument.js';
