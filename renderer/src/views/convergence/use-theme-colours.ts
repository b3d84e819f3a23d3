import { useEffect, useState } from 'react';
import { cssVar } from '../../theme';

/**
 * CSS colour variables as strings (charts draw SVG, which needs them resolved), read again when
 * the theme changes.
 */
export function useThemeColours<K extends string>(names: readonly K[]): Record<K, string> {
  const read = () => Object.fromEntries(names.map((n) => [n, cssVar(n)])) as Record<K, string>;
  const [colours, setColours] = useState(read);
  const key = names.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names are compared by their joined key
  useEffect(() => {
    setColours(read());
    const observer = new MutationObserver(() => setColours(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, [key]);
  return colours;
}
