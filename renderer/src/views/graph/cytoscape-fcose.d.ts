// cytoscape-fcose ships no types: its default export is the extension passed to cytoscape.use().
declare module 'cytoscape-fcose';
