// Runs the C-level tests (tests/c/test_*.c) as built by `npm run build`,
// in the clang AddressSanitizer + UBSan build (tests/core/c.test.mjs: the
// release build).
import { cTests } from '../support/helpers.mjs';

cTests('asan');
