// cytoscape-fcose ships no types: its default export is the extension handed to cytoscape.use().
declare module 'cytoscape-fcose';
