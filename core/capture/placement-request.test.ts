import { describe, expect, it } from 'vitest';
import { decideLexically } from './decision';
import { placementCheck, placementRequest } from './placement-request';
import { simulatePlacement } from './simulator';

const candidates = [
  {
    slug: 'community-solar-coop',
    title: 'A community-owned solar co-op',
    summary: 'Panels on roofs.',
    score: 0.52,
    shared: ['solar'],
  },
  {
    slug: 'soil-moisture-lora',
    title: 'Soil moisture over LoRaWAN',
    summary: 'Sensors.',
    score: 0.31,
    shared: ['sensor'],
  },
];
const persona = { systemPrompt: 'You sort ideas.', tier: 'fast' as const };

describe('the placement request', () => {
  it('reads a slug written as the idea’s name or title, and re-asks one that was not shown or is missing', () => {
    const check = placementCheck(candidates);
    const answer = (over: object) => ({
      decision: 'AMBIGUOUS' as const,
      slug: null,
      candidates: [],
      inspiredBy: null,
      reason: 'r',
      ...over,
    });
    expect([
      check(
        answer({
          candidates: ['Community Solar Coop', 'Soil moisture over LoRaWAN'],
          inspiredBy: 'community-solar-coop',
        }),
      ),
      check(answer({ decision: 'EXISTING', slug: 'community-solar-coop', inspiredBy: 'soil-moisture-lora' })),
      check(answer({ decision: 'EXISTING', slug: 'ebike-repair-workshop' })),
      check(answer({ decision: 'EXISTING' })),
      check(answer({})),
    ]).toEqual([
      {
        ok: true,
        value: answer({
          candidates: ['community-solar-coop', 'soil-moisture-lora'],
          inspiredBy: 'community-solar-coop',
        }),
        repairs: [
          'candidates[0]: "Community Solar Coop" read as community-solar-coop',
          'candidates[1]: "Soil moisture over LoRaWAN" read as soil-moisture-lora',
        ],
      },
      // EXISTING links nothing: the inspiration is dropped.
      { ok: true, value: answer({ decision: 'EXISTING', slug: 'community-solar-coop' }) },
      {
        ok: false,
        problems: [
          '- slug: "ebike-repair-workshop" is not one of the ideas listed (community-solar-coop, soil-moisture-lora)',
        ],
      },
      { ok: false, problems: ['- slug: EXISTING names the idea the text belongs to'] },
      { ok: false, problems: ['- candidates: AMBIGUOUS names the ideas to choose between'] },
    ]);
  });

  it('is answered offline by the lexical rule on the candidates it shows, and passes its own check', () => {
    const request = placementRequest(persona, 'Batteries for the solar co-op', candidates, 9);
    const simulated = simulatePlacement(request.brief as never);
    const lexical = decideLexically(candidates, 9, '');
    expect({
      simulated,
      checked: request.check?.(simulated),
      shown: request.messages[0]?.content.split('\n').filter((l) => l.startsWith('- ')),
    }).toEqual({
      simulated: {
        decision: lexical.decision,
        slug: null,
        candidates: ['community-solar-coop', 'soil-moisture-lora'],
        inspiredBy: 'community-solar-coop',
        reason: `[simulated] ${lexical.reason}.`,
      },
      checked: { ok: true, value: simulated },
      shown: [
        "- community-solar-coop: A community-owned solar co-op — Panels on roofs. (shares 52% of the text's weighed terms)",
        "- soil-moisture-lora: Soil moisture over LoRaWAN — Sensors. (shares 31% of the text's weighed terms)",
      ],
    });
  });
});
