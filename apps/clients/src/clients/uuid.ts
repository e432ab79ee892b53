const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Record ids, OAuth client ids and key ids are UUIDs; anything else names nothing. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
