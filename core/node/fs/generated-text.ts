import { LinkRefusedError, readTextInside } from './read-inside';

/**
 * The text of a file the app generates in the workspace (`ideas/_index.md`), read under the link
 * rule. A link standing in its place is not read: it comes back as '', which is never what the
 * app wrote, so the app's version goes beside it as a conflict copy and the link is left alone.
 */
export function generatedTextInside(root: string, rel: string): string {
  try {
    return readTextInside(root, rel);
  } catch (error) {
    if (error instanceof LinkRefusedError) return '';
    throw error;
  }
}
