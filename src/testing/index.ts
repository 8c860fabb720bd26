export {
  formatVerifyReport,
  type SandboxLocation,
  type VerifyAgainstSandboxOptions,
  type VerifyCheck,
  type VerifyReport,
  type VerifyViolation,
  verifyAgainstSandbox,
} from './verify-against-sandbox.js';
