import { describe, expect, it } from 'vitest';
import { type SandboxProbe, sandboxDecision, sandboxUnavailable } from '../../../src/render/sandbox.js';

const probe = (uid: number | undefined, files: Record<string, string> = {}): SandboxProbe => ({
  uid,
  read: (path) => files[path],
});

describe("Chromium's sandbox decision", () => {
  it('auto: on for an ordinary user on a kernel with user namespaces', () => {
    expect(sandboxDecision('auto', probe(1000, { '/proc/sys/user/max_user_namespaces': '63000' }))).toEqual({
      sandbox: true,
    });
    expect(sandboxUnavailable(probe(1000))).toBeUndefined();
  });

  it('auto: off as root, or without unprivileged user namespaces, saying which', () => {
    expect(sandboxDecision('auto', probe(0))).toEqual({
      sandbox: false,
      why: 'the crawler runs as root, where Chromium refuses its sandbox',
    });
    expect(sandboxUnavailable(probe(1000, { '/proc/sys/kernel/unprivileged_userns_clone': '0' }))).toMatch(
      /unprivileged_userns_clone is 0/,
    );
    expect(sandboxUnavailable(probe(1000, { '/proc/sys/user/max_user_namespaces': '0' }))).toMatch(
      /max_user_namespaces is 0/,
    );
    expect(
      sandboxUnavailable(probe(1000, { '/proc/sys/kernel/unprivileged_userns_clone': '1' })),
    ).toBeUndefined();
  });

  it('on and off: as the key says, whatever the machine', () => {
    expect(sandboxDecision('on', probe(0))).toEqual({ sandbox: true });
    expect(sandboxDecision('off', probe(1000))).toEqual({ sandbox: false, why: 'playwright.sandbox is off' });
  });
});
