export type {
  ReconcileProgress,
  ReconcilerEvents,
  ReconcileSummary,
} from './events.js';
export { defaultSchedules, type ReconcilerOptions } from './options.js';
export {
  Reconciler,
  type ReconcilerDependencies,
  type RunOnceOptions,
} from './reconciler.js';
export type { ReconcilerSnapshot } from './snapshot.js';
