import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  type ApiClient,
  CHANNEL_NAMES,
  type ChannelInput,
  type ChannelOutput,
  ContractError,
  type CruxEventView,
  type CruxResultView,
  channels,
  type IDEA_FILE_KINDS,
  isChannel,
  isPushEvent,
  LOCAL_PATH_CHANNELS,
  PUSH_EVENT_NAMES,
  type PushPayload,
  pushEvents,
  rpcResponseSchema,
  toWireError,
} from '../contract';
import type { CruxEvent } from '../crux/events';
import type { CruxResult } from '../crux/result';
import type { IdeaFileKind } from '../idea/layout';

/** The part of zod's internal definition the strictness check walks. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Paths of every object in `schema` that would let an unknown key through. */
function looseObjects(schema: z.ZodType, path = '$'): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const strict = def.catchall !== undefined && defOf(def.catchall).type === 'never';
      const inner = Object.entries(def.shape ?? {}).flatMap(([key, value]) => looseObjects(value, `${path}.${key}`));
      return strict ? inner : [path, ...inner];
    }
    case 'array':
      return def.element ? looseObjects(def.element, `${path}[]`) : [];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return def.innerType ? looseObjects(def.innerType, path) : [];
    case 'union':
      return (def.options ?? []).flatMap((option, i) => looseObjects(option, `${path}|${i}`));
    case 'record':
      return def.valueType ? looseObjects(def.valueType, `${path}{}`) : [];
    case 'pipe':
      return [...(def.in ? looseObjects(def.in, path) : []), ...(def.out ? looseObjects(def.out, path) : [])];
    default:
      return [];
  }
}

describe('the contract', () => {
  it('names every channel <area>:<verb> and every pushed event <subject>:<what>, never the same name twice', () => {
    for (const name of CHANNEL_NAMES) expect(name).toMatch(/^[a-z]+s?:[a-z][A-Za-z]*$/);
    for (const name of PUSH_EVENT_NAMES) expect(name).toMatch(/^[a-z]+:[a-z]+$/);
    const areas = new Set(CHANNEL_NAMES.map((c) => c.split(':')[0]));
    for (const name of PUSH_EVENT_NAMES) expect(areas.has(name.split(':')[0] as string)).toBe(false);
    expect(CHANNEL_NAMES).toEqual(expect.arrayContaining(['ideas:list', 'debates:start', 'taxonomy:get']));
    for (const channel of LOCAL_PATH_CHANNELS) expect(isChannel(channel)).toBe(true);
  });

  it('looks names up without reaching into the prototype', () => {
    expect(isChannel('ideas:list')).toBe(true);
    expect(isChannel('constructor')).toBe(false);
    expect(isChannel('__proto__')).toBe(false);
    expect(isPushEvent('debate:event')).toBe(true);
    expect(isPushEvent('toString')).toBe(false);
  });

  it('has only strict objects in every output and pushed event: an unnamed field is an error', () => {
    const loose: string[] = [];
    for (const name of CHANNEL_NAMES) loose.push(...looseObjects(channels[name].output, `${name} output`));
    for (const name of CHANNEL_NAMES) loose.push(...looseObjects(channels[name].input, `${name} input`));
    for (const name of PUSH_EVENT_NAMES) loose.push(...looseObjects(pushEvents[name], name));
    // The crux config overrides are the engine's own schema (core/crux/config.ts); they are checked there.
    expect(loose.filter((path) => !path.includes('.config'))).toEqual([]);
    expect(
      channels['ideas:setStage'].output.safeParse({ idea: null, path: 'p', conflict: false, extra: 1 }).success,
    ).toBe(false);
  });

  it('names the field of bad input', () => {
    const result = channels['debates:start'].input.safeParse({ agents: ['a'], provider: 'simulated', topic: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['agents']);
    const noTopic = channels['debates:start'].input.safeParse({ agents: ['a', 'b'], provider: 'simulated' });
    expect(noTopic.error?.issues[0]).toMatchObject({
      path: ['topic'],
      message: 'a debate needs an idea (ideaSlug) or a topic',
    });
    expect(channels['ideas:captureFile'].input.safeParse({ path: 'relative/file.md' }).error?.issues[0]?.message).toBe(
      'must be an absolute path',
    );
    expect(channels['ideas:captureUpload'].input.safeParse({ name: '../x.md', contentBase64: '' }).success).toBe(false);
    expect(channels['ideas:captureUpload'].input.safeParse({ name: 'x.md', contentBase64: 'aGk=' }).success).toBe(true);
  });

  it('carries errors as plain data and hides what is not a ContractError', () => {
    const error = new ContractError('bad_input', 'title: an idea needs a title', 'title');
    expect(error.toWire()).toEqual({ code: 'bad_input', message: 'title: an idea needs a title', field: 'title' });
    expect(ContractError.fromWire(error.toWire())).toMatchObject({ code: 'bad_input', field: 'title' });
    const hidden = toWireError(new Error('SQLITE_CORRUPT at /home/me/secret'));
    expect(hidden.code).toBe('internal');
    expect(hidden.message).not.toContain('secret');
    const envelope = rpcResponseSchema(channels['ideas:list'].output);
    expect(envelope.safeParse({ ok: true, value: { ideas: [] } }).success).toBe(true);
    expect(envelope.safeParse({ ok: false, error: { code: 'user_error', message: 'no idea "x"' } }).success).toBe(true);
    expect(envelope.safeParse({ ok: false, error: { code: 'oops', message: '' } }).success).toBe(false);
  });

  it('carries the protocol’s own types exactly (checked when the tests compile)', () => {
    expectTypeOf<CruxResultView>().toEqualTypeOf<CruxResult>();
    expectTypeOf<CruxEventView>().toEqualTypeOf<CruxEvent>();
    expectTypeOf<(typeof IDEA_FILE_KINDS)[number]>().toEqualTypeOf<IdeaFileKind>();
    expectTypeOf<ChannelOutput<'debates:get'>['result']>().toEqualTypeOf<CruxResult>();
    expectTypeOf<PushPayload<'debate:event'>['events']>().toEqualTypeOf<CruxEvent[]>();
    // What a caller may leave out, a handler receives filled in.
    expectTypeOf<ChannelInput<'debates:events'>>().toEqualTypeOf<{ id: string; from?: number | undefined }>();
    expectTypeOf<ApiClient['invoke']>().parameter(0).toEqualTypeOf<(typeof CHANNEL_NAMES)[number]>();
  });
});
