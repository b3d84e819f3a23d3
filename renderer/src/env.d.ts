// Stylesheets are imported for their side effect; the bundler puts them in the page.
declare module '*.css';
