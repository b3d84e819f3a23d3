/** Fresh identifiers (ULIDs in production: sortable by creation time). */
export interface Ids {
  newId(): string;
}
