import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ContractError } from '../../core/contract';
import { createApp } from '../../core/node/app/create-app';
import { runCli } from '../../core/node/cli/main';
import { fakeAnthropicWorkspace } from '../helpers/fake-anthropic-workspace';

const IDEA = 'community-solar-coop';

const ws = fakeAnthropicWorkspace({
  prefix: 'crucible-failed-call-',
  idea: IDEA,
  fake: {
    responder: () => ({ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' }),
  },
  apiKey: 'sk-test-not-a-real-key',
});

it('tells the researcher why a development call failed, and changes nothing', async () => {
  ws.app = await createApp({ workspaceRoot: ws.root, watch: false });
  const app = ws.app;
  const folder = join(ws.root, 'ideas', IDEA);
  const before = readdirSync(folder, { recursive: true });
  const failed = await app.invoke('ideas:develop', { slug: IDEA, provider: 'anthropic' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(ws.fake.requests.length).toBeGreaterThan(0);
  expect(failed).toBeInstanceOf(ContractError);
  expect((failed as ContractError).toWire()).toEqual({
    code: 'user_error',
    message: expect.stringMatching(/^the model call failed \(auth\): .*401/),
  });
  // No development.md was written, with or without questions.
  expect(readdirSync(folder, { recursive: true })).toEqual(before);
});

it('says on the command line why a development call failed, in one line and with exit code 1', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (t: string) => void out.push(t),
    err: (t: string) => void err.push(t),
    untilStopped: async () => {},
  };
  const code = await runCli(['develop', IDEA, '--workspace', ws.root, '--provider', 'anthropic'], io);
  expect({ code, out, err }).toEqual({
    code: 1,
    out: [],
    err: [expect.stringMatching(/^error: the model call failed \(auth\): [^\n]*401[^\n]*$/)],
  });
});
