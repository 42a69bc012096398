// Runs the C-level tests (tests/c/test_*.c) as built by `npm run build`,
// in the release build; tests/core/c-sanitizers.test.mjs runs them in the clang
// AddressSanitizer + UBSan build (a file of its own: far slower, it runs
// beside the other suites and stays out of `npm run test:quick`).
import { cTests } from '../support/helpers.mjs';

cTests('native');
