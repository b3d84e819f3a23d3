import { loadTaxonomy } from '../../core/node/taxonomy-loader';
import type { Vocabulary } from './generate';

/** The taxonomy ids generated ideas draw from: the app's own `taxonomy/*.md`. */
export function vocabularyFromTaxonomy(): Vocabulary {
  const taxonomy = loadTaxonomy(null);
  return {
    types: [...taxonomy.typeIds],
    stages: [...taxonomy.stageIds],
    tags: [...taxonomy.tagCategory.keys()],
    criteria: taxonomy.criteria.map((c) => c.id),
  };
}
