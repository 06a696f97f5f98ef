import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line "N passed, N failed" (", N skipped" when any), so that a run that executed
 * no test is visible to CI at a glance.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      // A file whose set-up failed (beforeAll, an import) marks its tests skipped: they are failures.
      const broken = m.state() === 'failed';
      let count = 0;
      for (const t of m.children.allTests()) {
        count++;
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed' || broken) failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (broken && count === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
