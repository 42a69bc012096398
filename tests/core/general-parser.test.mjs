// The rule tests again, each dump read by the general parser alone (no
// statement through the fast path): the hand-written dumps of these suites
// are in exactly the form the fast path matches, so without this the
// general parser's reading of each rule would go untested.
process.env.MM_GENERAL_PARSER = '1';
await import('./rules.test.mjs');
await import('./windows.test.mjs');
await import('../page/insight.test.mjs');
await import('./identifiers.test.mjs');
await import('./pypto-forms.test.mjs');
