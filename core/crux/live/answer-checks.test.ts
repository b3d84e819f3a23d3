import { describe, expect, it } from 'vitest';
import type { LlmUsage } from '../../ports/llm';
import { type LlmTransport, type LlmTransportRequest, structuredCall } from '../../llm/structured-call';
import { resolveConfig } from '../config';
import { type CruxState, createState, newThread, type ThreadState, type TranscriptEntry } from '../state';
import { REMOVED_LINK, prepareMove } from './answer-checks';
import { agentTurnRequest } from './brief';
import type { DebateSubject } from './subject';

// What a debater's answer is held to beyond its schema on its turn: links only from the idea, and a
// position change or concession that names the message that moved it and says why.

const SUBJECT: DebateSubject = {
  kind: 'idea',
  slug: 'soil-moisture-lora',
  title: 'Low-cost soil-moisture sensing over LoRaWAN',
  summary: 'Test whether five-euro capacitive sensors track a reference probe within a few percent.',
  body: 'A community gateway exists (coverage map: https://ttn.example.net/gateways/allotment-1).\nTwenty nodes, hourly readings.',
};

function entry(id: string, author: string | null, extra: Partial<TranscriptEntry> = {}): TranscriptEntry {
  return {
    id,
    thread: 't1',
    author,
    move: author ? 'PROVIDE_EVIDENCE' : null,
    content: 'x',
    status: 'EVIDENCE',
    accepted: true,
    ...extra,
  };
}

/** Alice (YES, 0.7) and Bob (NO) in the evidence stage of t1, after a few messages. */
function debate(): { state: CruxState; thread: ThreadState } {
  const state = createState({
    topic: SUBJECT.kind === 'idea' ? SUBJECT.title : '',
    agents: [
      { id: 'alice', name: 'Alice' },
      { id: 'bob', name: 'Bob' },
    ],
    config: resolveConfig({}),
  });
  const thread = newThread('t1', 'sensors', 'Will the sensors stay within ±3 points?', state.config, 'script');
  thread.status = 'EVIDENCE';
  thread.stances = { alice: { side: 'YES', confidence: 0.7 }, bob: { side: 'NO', confidence: 0.6 } };
  state.threads.push(thread);
  state.transcript.push(
    entry('m1', 'bob'),
    entry('m2', 'alice'),
    entry('mod1', null, { intervention: 'COMMIT_REQUEST' }),
    entry('m3', 'bob', { accepted: false }),
    entry('m4', 'bob', { thread: 't2' }),
    entry('m5', 'bob'),
  );
  return { state, thread };
}

const usage: LlmUsage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A transport that answers each exchange with the next of `answers`. */
function answering(...answers: unknown[]): LlmTransport & { seen: LlmTransportRequest[] } {
  const seen: LlmTransportRequest[] = [];
  return {
    seen,
    async complete(request) {
      seen.push(request);
      const input = answers.shift();
      return { input, raw: JSON.stringify(input), usage, model: request.model, stopReason: 'end' };
    },
  };
}

async function turn(...answers: unknown[]) {
  const { state, thread } = debate();
  const request = agentTurnRequest(
    state,
    thread,
    { thread: 't1', agent: 'alice', ask: { kind: 'PROVIDE_EVIDENCE', targetFalsifierOf: 'bob' }, attempt: 0 },
    { systemPrompt: 'You are Alice.', tier: 'standard' },
    { subject: SUBJECT, today: '2026-03-01' },
  );
  const transport = answering(...answers);
  const result = await structuredCall(transport, request, {
    provider: 'scripted',
    tiers: { fast: 'm', standard: 'm', deep: 'm' },
    prices: { m: { inputPerMTok: 3, outputPerMTok: 15, cacheWritePerMTok: 3.75, cacheReadPerMTok: 0.3 } },
  }).then(
    (r) => ({ value: r.value as unknown, calls: r.calls }),
    (e: { calls: unknown[]; message: string }) => ({ value: `failed: ${e.message}`, calls: e.calls }),
  );
  return { ...result, reasks: transport.seen.slice(1).map((r) => r.messages.at(-1)?.content) };
}

describe('links in a debater answer', () => {
  const invented = {
    move: 'PROVIDE_EVIDENCE',
    content:
      'A 2023 field trial (https://soil-sensors.example.org/trial-2023.) found 6-point drift. The gateway map https://ttn.example.net/gateways/allotment-1 shows coverage.',
    meta: {
      evidenceSource: 'IDEA_TEXT',
      evidenceLink: 'soil-sensors.example.org/trial-2023',
      targetFalsifierOf: 'bob',
    },
  };

  it('puts an invented link back once, then removes it, marks it unverified and re-sources the evidence', async () => {
    const run = await turn(invented, invented);
    expect(run).toEqual({
      value: {
        move: 'PROVIDE_EVIDENCE',
        content: `A 2023 field trial (${REMOVED_LINK}.) found 6-point drift. The gateway map https://ttn.example.net/gateways/allotment-1 shows coverage.`,
        meta: { evidenceSource: 'GENERAL_KNOWLEDGE', targetFalsifierOf: 'bob' },
      },
      calls: [
        expect.objectContaining({
          ok: false,
          error: expect.stringContaining(
            'content: the link https://soil-sensors.example.org/trial-2023 is not in the idea',
          ),
        }),
        expect.objectContaining({
          ok: true,
          repairs: [
            'content: https://soil-sensors.example.org/trial-2023 is not in the idea; removed and marked unverified',
            'meta.evidenceLink: soil-sensors.example.org/trial-2023 is not in the idea; dropped',
            'meta.evidenceSource: IDEA_TEXT set to GENERAL_KNOWLEDGE',
          ],
        }),
      ],
      reasks: [expect.stringContaining('leave the link out, give the source as GENERAL_KNOWLEDGE or ESTIMATE')],
    });
  });

  it('keeps an answer whose only link is in the idea, and one the model rewrote without the invented link', async () => {
    const honest = {
      move: 'PROVIDE_EVIDENCE',
      content: 'Drift of a few points is common for these sensors (unverified); the idea gives none.',
      meta: { evidenceSource: 'GENERAL_KNOWLEDGE', targetFalsifierOf: 'bob' },
    };
    const fromIdea = {
      ...honest,
      meta: { ...honest.meta, evidenceLink: 'https://TTN.example.net/gateways/allotment-1/' },
    };
    const [rewritten, kept] = [await turn(invented, honest), await turn(fromIdea)];
    expect({
      rewritten: [rewritten.value, rewritten.calls.map((c) => (c as { ok: boolean }).ok)],
      kept: [kept.value, kept.calls.length],
    }).toEqual({ rewritten: [honest, [false, true]], kept: [fromIdea, 1] });
  });
});

describe('a position change or a concession', () => {
  const update = (replyTo: string | undefined, meta: Record<string, unknown> = {}, content?: string) => ({
    move: 'UPDATE_POSITION',
    ...(replyTo === undefined ? {} : { replyTo }),
    content: content ?? "Bob's bench figures in m1 show a spread I had not allowed for, so I am less sure.",
    meta: { priorPosition: 'YES', newPosition: 'YES', topClaimChanged: false, confidence: 0.55, ...meta },
  });
  const concede = (
    replyTo: string | undefined,
    content = 'The drift in m5 is larger than the ±3 points I assumed.',
  ) => ({
    move: 'CONCEDE',
    ...(replyTo === undefined ? {} : { replyTo }),
    content,
    meta: { concededProposition: 'Uncorrected drift exceeds 3 points', topClaimChanged: false },
  });

  it('names a message of another agent in this thread and says why, or is put back with the ids it could name', () => {
    const { state, thread } = debate();
    const cases: Record<string, unknown> = {
      'update, no replyTo': update(undefined),
      'update, own message': update('m2'),
      'update, moderator line': update('mod1'),
      'update, blocked message': update('m3'),
      'update, other thread': update('m4'),
      'update, unknown': update('m999'),
      'update, no reason': update('m1', {}, 'Updated.'),
      'update, written M5': update('M5'),
      'update, side change': update('m5', { newPosition: 'NO', confidence: undefined }),
      'update, holds side and confidence': update(
        undefined,
        { confidence: 0.7 },
        'Nothing more is settled before October, when the season ends.',
      ),
      'update, holds side, no confidence': update(
        undefined,
        { confidence: undefined },
        'Nothing more is settled before the season ends in October.',
      ),
      'concede, no replyTo': concede(undefined),
      'concede, no reason': concede('m5', 'I concede.'),
      'concede, answers m5': concede('m5'),
      'evidence, no replyTo': {
        move: 'PROVIDE_EVIDENCE',
        content: 'The idea gives 97% delivery over two weeks.',
        meta: {},
      },
    };
    const outcome = Object.fromEntries(
      Object.entries(cases).map(([name, answer]) => {
        const checked = prepareMove(state, thread, 'alice', SUBJECT)(JSON.parse(JSON.stringify(answer)));
        return [name, checked.ok ? (checked.repairs?.length ? checked.repairs : 'kept') : checked.problems];
      }),
    );
    const latest = '(the latest: m1, m5)';
    expect(outcome).toEqual({
      'update, no replyTo': [
        `replyTo: An UPDATE_POSITION that changes your side or confidence names the message that moved you: give replyTo, the id of a message by another agent in this thread ${latest}`,
      ],
      'update, own message': [
        `replyTo: m2 is your own message; name the message by another agent that moved you ${latest}`,
      ],
      'update, moderator line': [
        `replyTo: mod1 is a moderator line; name the message by another agent that moved you ${latest}`,
      ],
      'update, blocked message': [
        `replyTo: "m3" is not a message of this thread; name the message by another agent that moved you ${latest}`,
      ],
      'update, other thread': [
        `replyTo: "m4" is not a message of this thread; name the message by another agent that moved you ${latest}`,
      ],
      'update, unknown': [
        `replyTo: "m999" is not a message of this thread; name the message by another agent that moved you ${latest}`,
      ],
      'update, no reason': [
        'content: An UPDATE_POSITION that changes your side or confidence says what in the message you answer moved you, and why, in a sentence or two',
      ],
      'update, written M5': ['replyTo: "M5" read as m5'],
      'update, side change': 'kept',
      'update, holds side and confidence': 'kept',
      'update, holds side, no confidence': 'kept',
      'concede, no replyTo': [
        `replyTo: A CONCEDE names the message that moved you: give replyTo, the id of a message by another agent in this thread ${latest}`,
      ],
      'concede, no reason': [
        'content: A CONCEDE says what in the message you answer moved you, and why, in a sentence or two',
      ],
      'concede, answers m5': 'kept',
      'evidence, no replyTo': 'kept',
    });
  });

  it('is asked again with the problem and taken once it names the message', async () => {
    const run = await turn(concede(undefined), concede('m5'));
    expect({ value: run.value, ok: run.calls.map((c) => (c as { ok: boolean }).ok), reask: run.reasks[0] }).toEqual({
      value: concede('m5'),
      ok: [false, true],
      reask: expect.stringContaining('- replyTo: A CONCEDE names the message that moved you'),
    });
  });
});
