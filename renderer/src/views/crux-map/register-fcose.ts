import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';

/** Registers the fcose layout with cytoscape once per page, whichever view asks first. */
export function registerFcose(): void {
  if (cytoscape('layout', 'fcose')) return;
  cytoscape.use(fcose);
}
